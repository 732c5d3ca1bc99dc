//! LeNet-5 with and without BatchNorm, the γ/σ read-out, and the γ/σ regularizer.
//!
//! The network (the common modern LeNet-5 variant, ReLU and max-pooling):
//!
//! ```text
//! 1×28×28 → conv 5×5, 6, pad 2 → [BN] → ReLU → max-pool 2 → 6×14×14
//!         → conv 5×5, 16       → [BN] → ReLU → max-pool 2 → 16×5×5 = 400
//!         → FC 400→120 → [BN] → ReLU → FC 120→84 → [BN] → ReLU → FC 84→10
//! ```
//!
//! `[BN]` is present only in the BN variant: one BatchNorm after each conv and hidden FC layer,
//! four in all. Weights are drawn from Spotlight's own seeded [`Rng`] (PyTorch's default scheme:
//! U(−1/√fan_in, 1/√fan_in) for weights and biases), so that a seed gives the same initial
//! network on every backend and platform.
//!
//! **γ/σ.** For a BN layer with scale γ_c and batch standard deviation σ_c = √(Var_batch + ε) of
//! channel c, the paper shows that one (S)GD step's margin growth on an outlier is multiplied by
//! (γ/σ)². [`LeNet::gamma_sigma_channels`] gives the per-channel |γ_c|/σ_c for any variances: the
//! trainer reads it with the batch σ of a fixed measurement batch (the paper's σ) and with the
//! running σ (what inference uses).
//!
//! **Regularizers** ([`RegKind`], chosen in `Config::reg_kind`; the reasons for the default are in
//! `config.rs`):
//! * `gamma`: λ · Σ_layers mean_c γ_c² / (Var_batch,c + ε) with the batch variance *detached*, so
//!   the gradient reaches γ alone. Kept for comparison: measured, it is inert — Adam bounds each
//!   γ's step at about the learning rate whatever λ is, and the BN after conv1, conv2 and fc1 undoes
//!   any scale the penalty puts on γ.
//! * `sigma`: the paper's literal λ · Σ_layers mean_c (γ_c/σ_c)², with the gradient flowing
//!   through σ_c too (the variance is recomputed from the pre-BN activations, tracked).
//! * `hinge`: λ · Σ_layers mean_c max(0, |γ_c|/σ_c − 1)², tracked like `sigma`: only channels
//!   above 1 pay.
//! * `project`: no penalty; after each optimizer step every |γ_c| is clipped to τ·σ_c (σ_c the
//!   step's batch std), a hard bound γ/σ ≤ τ.

use burn::module::{Module, Param};
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::pool::{MaxPool2d, MaxPool2dConfig};
use burn::nn::{BatchNorm, BatchNormConfig, Linear, LinearConfig, PaddingConfig2d};
use burn::tensor::activation::relu;
use burn::tensor::{Device, Int, Tensor, TensorData};

use crate::data::Rng;

/// BN ε (PyTorch's and burn's default).
pub const BN_EPSILON: f64 = 1e-5;

/// Names of the BN layers, in order.
pub const BN_LAYERS: [&str; 4] = ["conv1", "conv2", "fc1", "fc2"];

/// How BatchNorm normalizes in a forward pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Batch statistics; running statistics are updated (a training step).
    Train,
    /// Batch statistics; running statistics left as they are (measurements inside a batch: the
    /// per-sample gradient probe, γ/σ with the batch σ).
    Probe,
    /// Running statistics (inference).
    Eval,
}

pub use crate::config::RegKind;

/// LeNet-5, optionally with BatchNorm.
#[derive(Module, Debug)]
pub struct LeNet {
    conv1: Conv2d,
    bn1: Option<BatchNorm>,
    conv2: Conv2d,
    bn2: Option<BatchNorm>,
    fc1: Linear,
    bn3: Option<BatchNorm>,
    fc2: Linear,
    bn4: Option<BatchNorm>,
    fc3: Linear,
    pool: MaxPool2d,
}

/// A forward pass's output.
pub struct Forward {
    /// `[batch, 10]`.
    pub logits: Tensor<2>,
    /// Per BN layer (train and probe modes): the batch variance, `[channels]`, detached.
    pub batch_var: Vec<Tensor<1>>,
    /// Per BN layer, the batch variance with its gradient tracked (only when asked for, see
    /// [`LeNet::forward_tracked`]).
    pub tracked_var: Vec<Tensor<1>>,
}

fn uniform(rng: &mut Rng, n: usize, bound: f64) -> Vec<f32> {
    (0..n).map(|_| rng.uniform(-bound, bound) as f32).collect()
}

fn conv(rng: &mut Rng, cin: usize, cout: usize, pad: usize, device: &Device) -> Conv2d {
    let mut c = Conv2dConfig::new([cin, cout], [5, 5]).with_padding(PaddingConfig2d::Explicit(pad, pad, pad, pad)).init(device);
    let bound = 1.0 / ((cin * 25) as f64).sqrt();
    c.weight = Param::from_data(TensorData::new(uniform(rng, cout * cin * 25, bound), [cout, cin, 5, 5]), device);
    c.bias = Some(Param::from_data(TensorData::new(uniform(rng, cout, bound), [cout]), device));
    c
}

fn linear(rng: &mut Rng, din: usize, dout: usize, device: &Device) -> Linear {
    let mut l = LinearConfig::new(din, dout).init(device);
    let bound = 1.0 / (din as f64).sqrt();
    l.weight = Param::from_data(TensorData::new(uniform(rng, din * dout, bound), [din, dout]), device);
    l.bias = Some(Param::from_data(TensorData::new(uniform(rng, dout, bound), [dout]), device));
    l
}

fn bn(with: bool, channels: usize, device: &Device) -> Option<BatchNorm> {
    with.then(|| BatchNormConfig::new(channels).with_epsilon(BN_EPSILON).init(device))
}

/// The biased batch variance per channel of `[batch, channels, …]`, with its gradient tracked.
fn channel_var<const D: usize>(x: &Tensor<D>) -> Tensor<1> {
    let c = x.dims()[1];
    let per_channel: Tensor<2> = x.clone().swap_dims(0, 1).reshape([c as i64, -1]);
    per_channel.var_bias(1).reshape([c])
}

/// What a BN layer hands back besides its output.
struct BnStats<'a> {
    vars: &'a mut Vec<Tensor<1>>,
    tracked: Option<&'a mut Vec<Tensor<1>>>,
}

/// Batch norm in the given mode. In train and probe modes it also returns the batch variance
/// (and, when asked, a tracked copy); only train mode updates the running statistics (momentum as
/// configured in the layer, like burn's own `BatchNorm`).
fn bn_forward<const D: usize>(bn: &BatchNorm, x: Tensor<D>, mode: Mode, stats: &mut BnStats<'_>) -> Tensor<D> {
    if mode == Mode::Eval {
        let device = x.device();
        return burn::tensor::module::batch_norm(
            x,
            bn.gamma.val(),
            bn.beta.val(),
            bn.running_mean.value().to_device(&device),
            bn.running_var.value().to_device(&device),
            bn.epsilon,
        );
    }
    if let Some(t) = stats.tracked.as_deref_mut() {
        t.push(channel_var(&x));
    }
    let out = burn::tensor::module::batch_norm_train(x, bn.gamma.val(), bn.beta.val(), bn.epsilon);
    if mode == Mode::Train {
        let m = bn.momentum;
        let rm = bn.running_mean.value_sync();
        let rv = bn.running_var.value_sync();
        let device = rm.device();
        bn.running_mean.update(rm.mul_scalar(1.0 - m).add(out.mean.detach().to_device(&device).mul_scalar(m)).detach());
        bn.running_var.update(rv.mul_scalar(1.0 - m).add(out.variance.clone().detach().to_device(&device).mul_scalar(m)).detach());
    }
    stats.vars.push(out.variance.detach());
    out.output
}

impl LeNet {
    /// A freshly initialized LeNet-5; the same `seed` gives the same weights on every device.
    pub fn new(batch_norm: bool, seed: u64, device: &Device) -> Self {
        let mut rng = Rng::derive(seed, "init");
        Self {
            conv1: conv(&mut rng, 1, 6, 2, device),
            bn1: bn(batch_norm, 6, device),
            conv2: conv(&mut rng, 6, 16, 0, device),
            bn2: bn(batch_norm, 16, device),
            fc1: linear(&mut rng, 400, 120, device),
            bn3: bn(batch_norm, 120, device),
            fc2: linear(&mut rng, 120, 84, device),
            bn4: bn(batch_norm, 84, device),
            fc3: linear(&mut rng, 84, 10, device),
            pool: MaxPool2dConfig::new([2, 2]).init(),
        }
    }

    /// Whether the model has BatchNorm layers.
    pub fn has_bn(&self) -> bool {
        self.bn1.is_some()
    }

    /// The BN layers, in order (empty without BN).
    pub fn bn_layers(&self) -> Vec<&BatchNorm> {
        [&self.bn1, &self.bn2, &self.bn3, &self.bn4].into_iter().flatten().collect()
    }

    /// Forward pass on `[batch, 1, 28, 28]` images.
    pub fn forward(&self, x: Tensor<4>, mode: Mode) -> Forward {
        self.forward_with(x, mode, false)
    }

    /// Forward pass that also returns each BN layer's batch variance with its gradient tracked
    /// (for the regularizers whose gradient flows through σ).
    pub fn forward_tracked(&self, x: Tensor<4>, mode: Mode) -> Forward {
        self.forward_with(x, mode, true)
    }

    fn forward_with(&self, x: Tensor<4>, mode: Mode, track: bool) -> Forward {
        let mut vars = Vec::new();
        let mut tracked = Vec::new();
        let mut stats = BnStats { vars: &mut vars, tracked: track.then_some(&mut tracked) };
        let x = self.pool.forward(relu(norm(&self.bn1, self.conv1.forward(x), mode, &mut stats)));
        let x = self.pool.forward(relu(norm(&self.bn2, self.conv2.forward(x), mode, &mut stats)));
        let x: Tensor<2> = x.flatten(1, 3);
        let x = relu(norm(&self.bn3, self.fc1.forward(x), mode, &mut stats));
        let x = relu(norm(&self.bn4, self.fc2.forward(x), mode, &mut stats));
        Forward { logits: self.fc3.forward(x), batch_var: vars, tracked_var: tracked }
    }

    /// The regularizer's penalty (without λ) from a train-mode forward pass's variances: `None`
    /// without BN and for [`RegKind::Project`] (a projection, not a penalty). `Gamma` reads the
    /// detached `batch_var`; `Sigma` and `Hinge` the `tracked_var` of
    /// [`forward_tracked`](Self::forward_tracked).
    pub fn penalty(&self, kind: RegKind, batch_var: &[Tensor<1>], tracked_var: &[Tensor<1>]) -> Option<Tensor<1>> {
        let vars = match kind {
            RegKind::Gamma => batch_var,
            RegKind::Sigma | RegKind::Hinge => tracked_var,
            RegKind::Project => return None,
        };
        self.bn_layers()
            .into_iter()
            .zip(vars)
            .map(|(bn, var)| {
                let g = bn.gamma.val();
                let v = var.clone().add_scalar(bn.epsilon);
                match kind {
                    RegKind::Hinge => relu(g.abs().div(v.sqrt()).sub_scalar(1.0)).square().mean(),
                    _ => g.square().div(v).mean(),
                }
            })
            .reduce(|a, b| a.add(b))
    }

    /// Clips every |γ_c| to τ·σ_c, σ_c = √(var_c + ε) for the given (batch) variances: the
    /// [`RegKind::Project`] step. The parameters keep their ids (the optimizer's state follows).
    pub fn project_gamma(mut self, vars: &[Tensor<1>], tau: f64) -> Self {
        let project = |bn: Option<BatchNorm>, var: Option<&Tensor<1>>| -> Option<BatchNorm> {
            let (mut bn, var) = match (bn, var) {
                (Some(bn), Some(v)) => (bn, v),
                (bn, _) => return bn,
            };
            let bound = var.clone().add_scalar(bn.epsilon).sqrt().mul_scalar(tau);
            bn.gamma = bn.gamma.map(|g| {
                let b = bound.clone().inner();
                let clipped = g.inner().max_pair(b.clone().neg()).min_pair(b);
                Tensor::from_inner(clipped).require_grad()
            });
            Some(bn)
        };
        self.bn1 = project(self.bn1.take(), vars.first());
        self.bn2 = project(self.bn2.take(), vars.get(1));
        self.bn3 = project(self.bn3.take(), vars.get(2));
        self.bn4 = project(self.bn4.take(), vars.get(3));
        self
    }

    /// Per BN layer, mean_c |γ_c| / √(var_c + ε) for the given variances (detached).
    pub fn gamma_sigma(&self, vars: &[Tensor<1>]) -> Vec<Tensor<1>> {
        self.gamma_sigma_channels(vars).into_iter().map(|r| r.mean()).collect()
    }

    /// Per BN layer, the per-channel |γ_c| / √(var_c + ε) for the given variances (detached).
    pub fn gamma_sigma_channels(&self, vars: &[Tensor<1>]) -> Vec<Tensor<1>> {
        self.bn_layers()
            .into_iter()
            .zip(vars)
            .map(|(bn, var)| {
                let device = var.device();
                bn.gamma.val().detach().to_device(&device).abs().div(var.clone().add_scalar(bn.epsilon).sqrt())
            })
            .collect()
    }

    /// The running variances of the BN layers.
    pub fn running_vars(&self) -> Vec<Tensor<1>> {
        self.bn_layers().into_iter().map(|bn| bn.running_var.value()).collect()
    }

    /// The BN scales γ, per layer (detached).
    pub fn gammas(&self) -> Vec<Tensor<1>> {
        self.bn_layers().into_iter().map(|bn| bn.gamma.val().detach()).collect()
    }
}

/// A BN layer if the model has it, else the identity.
fn norm<const D: usize>(bn: &Option<BatchNorm>, x: Tensor<D>, mode: Mode, stats: &mut BnStats<'_>) -> Tensor<D> {
    match bn {
        Some(bn) => bn_forward(bn, x, mode, stats),
        None => x,
    }
}

/// Mean cross-entropy and per-sample losses, from logits and integer targets.
pub fn cross_entropy(logits: Tensor<2>, targets: Tensor<1, Int>) -> Tensor<1> {
    per_sample_loss(logits, targets).mean()
}

/// Per-sample cross-entropy, `[batch]`, computed stably with log-softmax.
pub fn per_sample_loss(logits: Tensor<2>, targets: Tensor<1, Int>) -> Tensor<1> {
    let logp = burn::tensor::activation::log_softmax(logits, 1);
    let picked: Tensor<2> = logp.gather(1, targets.unsqueeze_dim(1));
    picked.squeeze_dim::<1>(1).neg()
}
