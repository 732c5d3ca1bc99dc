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
//! channel c, the paper shows that one step's margin growth on an outlier is multiplied by
//! (γ/σ)². The read-out reports, per layer, the mean over channels of |γ_c|/σ_c (with the batch σ
//! of training steps and with the running σ).
//!
//! **Regularizer.** penalty = λ · Σ_layers mean_c (γ_c² / (Var_batch,c + ε)), i.e. the mean of the
//! paper's (γ/σ)² factor, added to the loss. The batch variance is treated as a constant (it is
//! detached, as burn returns it): the gradient goes to γ alone. Letting it flow into σ would let
//! the network lower the penalty by merely scaling up the pre-BN weights, which BN's scale
//! invariance makes free and meaningless.

use burn::module::{Module, Param};
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::pool::{MaxPool2d, MaxPool2dConfig};
use burn::nn::{BatchNorm, BatchNormConfig, Linear, LinearConfig, PaddingConfig2d};
use burn::tensor::activation::relu;
use burn::tensor::{Device, Tensor, TensorData};

use crate::data::Rng;

/// BN ε (PyTorch's and burn's default).
pub const BN_EPSILON: f64 = 1e-5;

/// Names of the BN layers, in order.
pub const BN_LAYERS: [&str; 4] = ["conv1", "conv2", "fc1", "fc2"];

/// How BatchNorm normalizes in a forward pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Batch statistics; running statistics are updated.
    Train,
    /// Running statistics (inference, and the per-sample gradient probe).
    Eval,
}

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
    /// Per BN layer (train mode only): the batch variance, `[channels]`, detached.
    pub batch_var: Vec<Tensor<1>>,
}

fn uniform(rng: &mut Rng, n: usize, bound: f64) -> Vec<f32> {
    (0..n).map(|_| rng.uniform(-bound, bound) as f32).collect()
}

fn conv(rng: &mut Rng, cin: usize, cout: usize, pad: usize, device: &Device) -> Conv2d {
    let mut c = Conv2dConfig::new([cin, cout], [5, 5])
        .with_padding(PaddingConfig2d::Explicit(pad, pad, pad, pad))
        .init(device);
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

/// Batch norm in the given mode; in train mode, also returns the batch variance and updates the
/// running statistics (momentum as configured in the layer, like burn's own `BatchNorm`).
fn bn_forward<const D: usize>(bn: &BatchNorm, x: Tensor<D>, mode: Mode, vars: &mut Vec<Tensor<1>>) -> Tensor<D> {
    match mode {
        Mode::Eval => {
            let device = x.device();
            burn::tensor::module::batch_norm(
                x,
                bn.gamma.val(),
                bn.beta.val(),
                bn.running_mean.value().to_device(&device),
                bn.running_var.value().to_device(&device),
                bn.epsilon,
            )
        }
        Mode::Train => {
            let out = burn::tensor::module::batch_norm_train(x, bn.gamma.val(), bn.beta.val(), bn.epsilon);
            let m = bn.momentum;
            let rm = bn.running_mean.value_sync();
            let rv = bn.running_var.value_sync();
            let device = rm.device();
            bn.running_mean.update(
                rm.mul_scalar(1.0 - m).add(out.mean.detach().to_device(&device).mul_scalar(m)).detach(),
            );
            bn.running_var.update(
                rv.mul_scalar(1.0 - m).add(out.variance.clone().detach().to_device(&device).mul_scalar(m)).detach(),
            );
            vars.push(out.variance.detach());
            out.output
        }
    }
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
        let mut vars = Vec::new();
        let norm4 = |bn: &Option<BatchNorm>, x: Tensor<4>, vars: &mut Vec<Tensor<1>>| match bn {
            Some(bn) => bn_forward(bn, x, mode, vars),
            None => x,
        };
        let x = self.pool.forward(relu(norm4(&self.bn1, self.conv1.forward(x), &mut vars)));
        let x = self.pool.forward(relu(norm4(&self.bn2, self.conv2.forward(x), &mut vars)));
        let x: Tensor<2> = x.flatten(1, 3);
        let norm2 = |bn: &Option<BatchNorm>, x: Tensor<2>, vars: &mut Vec<Tensor<1>>| match bn {
            Some(bn) => bn_forward(bn, x, mode, vars),
            None => x,
        };
        let x = relu(norm2(&self.bn3, self.fc1.forward(x), &mut vars));
        let x = relu(norm2(&self.bn4, self.fc2.forward(x), &mut vars));
        Forward { logits: self.fc3.forward(x), batch_var: vars }
    }

    /// The γ/σ regularizer (without λ): Σ_layers mean_c γ_c² / (Var_batch,c + ε), with the batch
    /// variances of a train-mode forward pass. `None` without BN.
    pub fn gamma_sigma_penalty(&self, batch_var: &[Tensor<1>]) -> Option<Tensor<1>> {
        self.bn_layers()
            .into_iter()
            .zip(batch_var)
            .map(|(bn, var)| bn.gamma.val().square().div(var.clone().add_scalar(bn.epsilon)).mean())
            .reduce(|a, b| a.add(b))
    }

    /// Per BN layer, mean_c |γ_c| / √(var_c + ε) for the given variances (detached).
    pub fn gamma_sigma(&self, vars: &[Tensor<1>]) -> Vec<Tensor<1>> {
        self.bn_layers()
            .into_iter()
            .zip(vars)
            .map(|(bn, var)| {
                let device = var.device();
                bn.gamma.val().detach().to_device(&device).abs().div(var.clone().add_scalar(bn.epsilon).sqrt()).mean()
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

/// Mean cross-entropy and per-sample losses, from logits and integer targets.
pub fn cross_entropy(logits: Tensor<2>, targets: burn::tensor::Tensor<1, burn::tensor::Int>) -> Tensor<1> {
    per_sample_loss(logits, targets).mean()
}

/// Per-sample cross-entropy, `[batch]`, computed stably with log-softmax.
pub fn per_sample_loss(logits: Tensor<2>, targets: burn::tensor::Tensor<1, burn::tensor::Int>) -> Tensor<1> {
    let logp = burn::tensor::activation::log_softmax(logits, 1);
    let picked: Tensor<2> = logp.gather(1, targets.unsqueeze_dim(1));
    picked.squeeze_dim::<1>(1).neg()
}
