//! LeNet-5 with BatchNorm, GroupNorm, LayerNorm or no normalization, built from a
//! [`LeNetConfig`] whose input shape and class count come from the data; the γ/σ read-out, and
//! the γ/σ regularizers.
//!
//! The network (the common modern LeNet-5 variant, ReLU and max-pooling), for C×H×W images and
//! K classes (MNIST and Fashion-MNIST: 1×28×28, K = 10, so that h = w = 5 and fc1 takes 400):
//!
//! ```text
//! C×H×W → conv1: conv 5×5, 6, pad 2 → [BN] → ReLU → max-pool 2 → 6×⌊H/2⌋×⌊W/2⌋
//!       → conv2: conv 5×5, 16       → [BN] → ReLU → max-pool 2 → 16×h×w, h = ⌊(⌊H/2⌋ − 4)/2⌋ (w alike)
//!       → fc1: FC 16·h·w→120 → [BN] → ReLU → fc2: FC 120→84 → [BN] → ReLU → fc3: FC 84→K
//! ```
//!
//! `conv1` and `conv2` are `ConvBlock`s, `fc1` and `fc2` `DenseBlock`s: a layer and, in a
//! normalized variant, the normalization after it ([`Norm`]), four in all (named by
//! [`BN_LAYERS`]); `fc3` is a plain linear layer. GroupNorm splits a layer's channels into
//! groups and normalizes each sample's group by its own mean and variance (LayerNorm: one group);
//! like BN, each channel then has its scale γ and shift β; unlike BN, nothing depends on the rest
//! of the batch, and inference normalizes the same way (no running statistics). Weights are drawn from Spotlight's own seeded [`Rng`] (PyTorch's default scheme:
//! U(−1/√fan_in, 1/√fan_in) for weights and biases) in a fixed order — conv1, conv2, fc1, fc2,
//! fc3, each its weight then its bias; normalization layers draw nothing (γ = 1, β = 0) — so
//! that a seed gives the same initial network on every backend and platform, and the same conv
//! and FC weights whatever the normalization.
//!
//! **γ/σ.** For a BN layer with scale γ_c and batch standard deviation σ_c = √(Var_batch + ε) of
//! channel c, the paper shows that one (S)GD step's margin growth on an outlier is multiplied by
//! (γ/σ)². [`LeNet::gamma_sigma_channels`] gives the per-channel |γ_c|/σ_c for any variances: the
//! trainer reads it with the batch σ of a fixed measurement batch (the paper's σ) and with the
//! running σ (what inference uses). For GroupNorm and LayerNorm σ is each sample's own (per
//! group): the read-out is |γ_c| times the mean over the batch's samples of 1/σ, and inference
//! uses the same σ.
//!
//! **Regularizers** ([`RegKind`], chosen in `Config::reg_kind`; the reasons for the default are in
//! `config.rs`):
//! * `gamma`: λ · Σ_layers mean_c γ_c² / (Var_batch,c + ε) with the batch variance *detached*, so
//!   the gradient reaches γ alone. Kept for comparison: measured, it is inert — Adam bounds each
//!   γ's step at about the learning rate whatever λ is, and the BN of the layer after conv1,
//!   conv2 and fc1 undoes any scale the penalty puts on their γ.
//! * `sigma`: our reading of the paper's penalty, λ · Σ_layers mean_c (γ_c/σ_c)², with the gradient flowing
//!   through σ_c too (the BN layer's own batch variance, tracked).
//! * `hinge`: λ · Σ_layers mean_c max(0, |γ_c|/σ_c − 1)², tracked like `sigma`: only channels
//!   above 1 pay.
//! * `project`: no penalty; after each optimizer step every |γ_c| is clipped to τ·σ_c (σ_c the
//!   step's batch std), a hard bound γ/σ ≤ τ.

use burn::config::Config;
use burn::module::{Module, Param};
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::pool::{MaxPool2d, MaxPool2dConfig};
use burn::nn::{
    BatchNorm, BatchNormConfig, GroupNorm, GroupNormConfig, Linear, LinearConfig, PaddingConfig2d,
};
use burn::tensor::activation::relu;
use burn::tensor::ops::ConvOptions;
use burn::tensor::{Device, Int, Tensor, TensorData};

use crate::data::Rng;

mod stack;
pub use stack::Stack;

/// BN ε (PyTorch's and burn's default).
pub const BN_EPSILON: f64 = 1e-5;

/// Names of the BN layers, in order: the blocks they sit in.
pub const BN_LAYERS: [&str; 4] = ["conv1", "conv2", "fc1", "fc2"];

/// The side of the convolutions' square kernels.
const KERNEL: usize = 5;
/// conv1's zero padding on each side (keeps H×W).
const CONV1_PADDING: usize = 2;
/// conv1's output channels.
const CONV1_OUT: usize = 6;
/// conv2's output channels.
const CONV2_OUT: usize = 16;
/// fc1's output features.
const FC1_OUT: usize = 120;
/// fc2's output features.
const FC2_OUT: usize = 84;
/// The side of the square max-pooling window (and its stride).
const POOL: usize = 2;

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

pub use crate::config::{Norm, RegKind};

/// A LeNet-5's shape: its input images and classes, taken from the data (the trainer reads them
/// off the image tensor it trains on and the dataset's class count), and its normalization.
#[derive(Config, Debug)]
pub struct LeNetConfig {
    /// Channels of the input images (1 for MNIST and Fashion-MNIST).
    pub channels: usize,
    /// Height of the input images, in pixels (at least 12).
    pub height: usize,
    /// Width of the input images, in pixels (at least 12).
    pub width: usize,
    /// Number of classes: the logits per image.
    pub classes: usize,
    /// The normalization after conv1, conv2, fc1 and fc2.
    #[config(default = "Norm::Batch")]
    pub norm: Norm,
    /// GroupNorm's groups a layer (each layer the largest count up to this dividing its
    /// channels, [`Norm::groups_for`]).
    #[config(default = 2)]
    pub groups: usize,
}

impl LeNetConfig {
    /// The features fc1 takes: 16·h·w, conv2's pooled output flattened (400 for 28×28 images), or
    /// `None` when the images are too small for the two 5×5 convolutions and 2×2 poolings
    /// (under 12 pixels on a side).
    pub fn flat_features(&self) -> Option<usize> {
        // conv1 keeps the side (pad 2), the pool halves it, conv2 takes 4 off, the pool halves it.
        let side =
            |n: usize| (n / POOL).checked_sub(KERNEL - 1).map(|n| n / POOL).filter(|&n| n > 0);
        Some(CONV2_OUT * side(self.height)? * side(self.width)?)
    }

    /// A freshly initialized LeNet-5 of this shape. The same `seed` gives the same weights on
    /// every device, and the same conv and FC weights whatever the normalization (see the module
    /// docs for the order they are drawn in).
    ///
    /// # Panics
    ///
    /// If `channels` or `classes` is 0, or the images are under 12 pixels on a side.
    pub fn init(&self, seed: u64, device: &Device) -> LeNet {
        assert!(
            self.channels > 0 && self.classes > 0,
            "LeNet needs at least one channel and one class, not {} and {}",
            self.channels,
            self.classes
        );
        let flat = self.flat_features().unwrap_or_else(|| {
            panic!(
                "LeNet needs images of at least 12×12 pixels, not {}×{}",
                self.height, self.width
            )
        });
        let n = (self.norm, self.groups);
        let mut rng = Rng::derive(seed, "init");
        // The fields in drawing order: conv1, conv2, fc1, fc2, fc3.
        LeNet {
            conv1: ConvBlock::new(&mut rng, [self.channels, CONV1_OUT], CONV1_PADDING, n, device),
            conv2: ConvBlock::new(&mut rng, [CONV1_OUT, CONV2_OUT], 0, n, device),
            fc1: DenseBlock::new(&mut rng, [flat, FC1_OUT], n, device),
            fc2: DenseBlock::new(&mut rng, [FC1_OUT, FC2_OUT], n, device),
            fc3: linear(&mut rng, FC2_OUT, self.classes, device),
            pool: MaxPool2dConfig::new([POOL, POOL]).init(),
        }
    }
}

/// A 5×5 convolution, the normalization after it (BatchNorm or GroupNorm, at most one), and the
/// ReLU.
#[derive(Module, Debug)]
struct ConvBlock {
    conv: Conv2d,
    bn: Option<BatchNorm>,
    gn: Option<GroupNorm>,
}

impl ConvBlock {
    /// `channels` in and out; the convolution's weights and bias are drawn from `rng`.
    fn new(
        rng: &mut Rng,
        channels: [usize; 2],
        padding: usize,
        norm: (Norm, usize),
        device: &Device,
    ) -> Self {
        let [cin, cout] = channels;
        let (bn, gn) = norm_layer(norm, cout, device);
        Self { conv: conv(rng, cin, cout, padding, device), bn, gn }
    }

    fn forward(&self, x: Tensor<4>, mode: Mode, stats: &mut BnStats<'_>) -> Tensor<4> {
        // The convolution without its bias, and the bias added after it: the same sum, but
        // burn's conv2d bias gradient transposes the whole output gradient to reduce it, which
        // on burn-flex cost conv1 about a fifth of its time (`examples/lenet_ops.rs`).
        let c = &self.conv;
        let PaddingConfig2d::Explicit(top, left, bottom, right) = c.padding else {
            unreachable!("`conv` builds every convolution with explicit padding")
        };
        let options = ConvOptions::new_with_padding(
            c.stride,
            [(top, bottom), (left, right)],
            c.dilation,
            c.groups,
        );
        let y = conv2d(x, c.weight.val(), options);
        match (&c.bias, &self.bn, &self.gn) {
            // Without normalization, the bias and the ReLU in one kernel (burn's ops off burn-flex).
            (Some(b), None, None) => bias_relu(y, b.val()),
            (bias, bn, gn) => {
                let y = match bias {
                    Some(b) => {
                        let channels = b.dims()[0];
                        y.add(b.val().reshape([1, channels, 1, 1]))
                    }
                    None => y,
                };
                norm_relu(bn, gn, y, mode, stats)
            }
        }
    }
}

/// burn's `conv2d` without a bias: on burn-flex through Spotlight's kernels (spotlight-kernels:
/// direct convolutions in a padded layout, a vector of pixels at a time, the batch split across
/// threads; with the pooling, a native training step several times as fast as through burn-flex's
/// own ops, `bench/PROFILE.md`).
fn conv2d(x: Tensor<4>, weight: Tensor<4>, options: ConvOptions<2>) -> Tensor<4> {
    #[cfg(feature = "flex")]
    return crate::kernels::conv2d(x, weight, options);
    #[allow(unreachable_code)]
    burn::tensor::module::conv2d(x, weight, None, options)
}

/// A linear layer, the normalization after it (BatchNorm or GroupNorm, at most one), and the ReLU.
#[derive(Module, Debug)]
struct DenseBlock {
    linear: Linear,
    bn: Option<BatchNorm>,
    gn: Option<GroupNorm>,
}

impl DenseBlock {
    /// Features in and out; the layer's weights and bias are drawn from `rng`.
    fn new(rng: &mut Rng, features: [usize; 2], norm: (Norm, usize), device: &Device) -> Self {
        let [din, dout] = features;
        let (bn, gn) = norm_layer(norm, dout, device);
        Self { linear: linear(rng, din, dout, device), bn, gn }
    }

    fn forward(&self, x: Tensor<2>, mode: Mode, stats: &mut BnStats<'_>) -> Tensor<2> {
        match (&self.linear.bias, &self.bn, &self.gn) {
            // Without normalization: burn's `Linear` (x·W + b), the bias and the ReLU in one kernel.
            (Some(b), None, None) => bias_relu(x.matmul(self.linear.weight.val()), b.val()),
            _ => norm_relu(&self.bn, &self.gn, self.linear.forward(x), mode, stats),
        }
    }
}

/// LeNet-5 with its normalization; built by [`LeNetConfig::init`].
#[derive(Module, Debug)]
pub struct LeNet {
    conv1: ConvBlock,
    conv2: ConvBlock,
    fc1: DenseBlock,
    fc2: DenseBlock,
    fc3: Linear,
    pool: MaxPool2d,
}

/// A forward pass's output.
pub struct Forward {
    /// `[batch, classes]`.
    pub logits: Tensor<2>,
    /// Per BN layer (train and probe modes): the batch variance, `[channels]`, detached.
    pub batch_var: Vec<Tensor<1>>,
    /// Per BN layer, the batch variance with its gradient tracked (only when asked for, see
    /// [`LeNet::forward_tracked`]).
    pub tracked_var: Vec<Tensor<1>>,
    /// Per GroupNorm or LayerNorm layer (train and probe modes), each sample's variance per group,
    /// `[batch, groups]`, detached: with `batch_var`, what [`LeNet::inv_sigma`] reads.
    pub group_var: Vec<Tensor<2>>,
}

fn uniform(rng: &mut Rng, n: usize, bound: f64) -> Vec<f32> {
    (0..n).map(|_| rng.uniform(-bound, bound) as f32).collect()
}

/// A 5×5 convolution, its weight then its bias drawn from `rng`.
fn conv(rng: &mut Rng, cin: usize, cout: usize, pad: usize, device: &Device) -> Conv2d {
    let mut c = Conv2dConfig::new([cin, cout], [KERNEL, KERNEL])
        .with_padding(PaddingConfig2d::Explicit(pad, pad, pad, pad))
        .init(device);
    let fan_in = cin * KERNEL * KERNEL;
    let bound = 1.0 / (fan_in as f64).sqrt();
    c.weight = Param::from_data(
        TensorData::new(uniform(rng, cout * fan_in, bound), [cout, cin, KERNEL, KERNEL]),
        device,
    );
    c.bias = Some(Param::from_data(TensorData::new(uniform(rng, cout, bound), [cout]), device));
    c
}

/// A linear layer, its weight then its bias drawn from `rng`.
fn linear(rng: &mut Rng, din: usize, dout: usize, device: &Device) -> Linear {
    let mut l = LinearConfig::new(din, dout).init(device);
    let bound = 1.0 / (din as f64).sqrt();
    l.weight =
        Param::from_data(TensorData::new(uniform(rng, din * dout, bound), [din, dout]), device);
    l.bias = Some(Param::from_data(TensorData::new(uniform(rng, dout, bound), [dout]), device));
    l
}

/// The normalization layer of `channels` channels a block has: BatchNorm, GroupNorm (LayerNorm:
/// one group), or none; ε is [`BN_EPSILON`] for each.
fn norm_layer(
    (norm, groups): (Norm, usize),
    channels: usize,
    device: &Device,
) -> (Option<BatchNorm>, Option<GroupNorm>) {
    match norm {
        Norm::None => (None, None),
        Norm::Batch => {
            (Some(BatchNormConfig::new(channels).with_epsilon(BN_EPSILON).init(device)), None)
        }
        Norm::Group | Norm::Layer => {
            let g = norm.groups_for(groups, channels);
            (None, Some(GroupNormConfig::new(g, channels).with_epsilon(BN_EPSILON).init(device)))
        }
    }
}

/// What a normalization layer hands back besides its output.
struct BnStats<'a> {
    vars: &'a mut Vec<Tensor<1>>,
    tracked: Option<&'a mut Vec<Tensor<1>>>,
    group_var: &'a mut Vec<Tensor<2>>,
}

/// GroupNorm on each sample's statistics: for `[batch, channels, …]` and `groups` dividing the
/// channels, each sample's group of channels normalized by its own mean and biased variance, then
/// scaled by γ and shifted by β per channel (burn's `GroupNorm`, the tests check); also the mean
/// and variance, `[batch, groups]`.
pub fn group_norm_train<const D: usize>(
    x: Tensor<D>,
    gamma: Tensor<1>,
    beta: Tensor<1>,
    groups: usize,
    epsilon: f64,
) -> (Tensor<D>, Tensor<2>, Tensor<2>) {
    let dims = x.dims();
    let (b, c) = (dims[0], dims[1]);
    let rest: usize = dims[2..].iter().product();
    let per_group = c / groups * rest;
    let grouped: Tensor<3> = x.reshape([b, groups, per_group]);
    let mean = grouped.clone().sum_dim(2).div_scalar(per_group as f64);
    let centred = grouped.sub(mean.clone());
    let var = centred.clone().square().sum_dim(2).div_scalar(per_group as f64);
    let normed: Tensor<3> =
        centred.div(var.clone().add_scalar(epsilon).sqrt()).reshape([b, c, rest]);
    let out = normed.mul(gamma.reshape([1, c, 1])).add(beta.reshape([1, c, 1]));
    (out.reshape(dims), mean.reshape([b, groups]), var.reshape([b, groups]))
}

/// GroupNorm (see [`group_norm_train`]) and the ReLU after it, in one kernel on burn-flex (not with
/// the gradient tracked through σ, which only BN's regularizers ask for); in train and probe modes
/// it hands back each sample's variance per group (for γ/σ). Inference normalizes alike.
fn gn_relu<const D: usize>(
    gn: &GroupNorm,
    x: Tensor<D>,
    mode: Mode,
    stats: &mut BnStats<'_>,
) -> Tensor<D> {
    let (Some(gamma), Some(beta)) = (&gn.gamma, &gn.beta) else {
        unreachable!("`norm_layer` builds GroupNorm with γ and β")
    };
    let g = gn.num_groups;
    let fused: Option<(Tensor<D>, Tensor<2>)> = {
        #[cfg(feature = "flex")]
        {
            crate::kernels::group_norm_train(
                x.clone(),
                gamma.val(),
                beta.val(),
                g,
                gn.epsilon,
                true,
            )
            .map(|(out, _, var)| (out, var))
        }
        #[cfg(not(feature = "flex"))]
        None
    };
    let (out, var) = fused.unwrap_or_else(|| {
        let (out, _, var) = group_norm_train(x, gamma.val(), beta.val(), g, gn.epsilon);
        (relu(out), var)
    });
    if mode != Mode::Eval {
        stats.group_var.push(var.detach());
    }
    out
}

/// Per channel, the mean over the samples of 1/√(var + ε) of the channel's group, from each
/// sample's variance per group (`[batch, groups]`) of a layer of `channels` channels.
fn group_inv_sigma(var: Tensor<2>, epsilon: f64, channels: usize) -> Tensor<1> {
    let g = var.dims()[1];
    let inv: Tensor<2> = var.add_scalar(epsilon).sqrt().recip().mean_dim(0);
    inv.reshape([g, 1]).repeat_dim(1, channels / g).reshape([channels])
}

/// The batch mean and biased batch variance per channel of `[batch, channels, …]` (gradients
/// tracked), and the input normalized by them, scaled by γ and shifted by β: BatchNorm on batch
/// statistics. The same sums as burn's `batch_norm_train`, taken along the tensor's own layout
/// (`[batch, channels, rest]`: the rest, then the batch) rather than after transposing it to
/// channels first, which on burn-flex made BN the costliest layer after the convolutions
/// (`examples/lenet_ops.rs`: about 2.1–2.4× faster, forward and backward).
pub fn batch_norm_train<const D: usize>(
    x: Tensor<D>,
    gamma: Tensor<1>,
    beta: Tensor<1>,
    epsilon: f64,
) -> (Tensor<D>, Tensor<1>, Tensor<1>) {
    let dims = x.dims();
    let (b, c) = (dims[0], dims[1]);
    let rest: usize = dims[2..].iter().product();
    let n = (b * rest) as f64;
    let flat: Tensor<3> = x.reshape([b, c, rest]);
    let mean = flat.clone().sum_dim(2).sum_dim(0).div_scalar(n);
    let centred = flat.sub(mean.clone());
    let var = centred.clone().square().sum_dim(2).sum_dim(0).div_scalar(n);
    let scale = gamma.reshape([1, c, 1]).div(var.clone().add_scalar(epsilon).sqrt());
    let out = centred.mul(scale).add(beta.reshape([1, c, 1]));
    (out.reshape(dims), mean.reshape([c]), var.reshape([c]))
}

/// BN and the ReLU after it in one kernel on burn-flex, unless the variance's own gradient is asked
/// for (the regularizers that differentiate through σ); `None` elsewhere (burn's ops then).
fn fused_bn_relu<const D: usize>(
    x: &Tensor<D>,
    bn: &BatchNorm,
    tracked: bool,
) -> Option<(Tensor<D>, Tensor<1>, Tensor<1>)> {
    #[cfg(feature = "flex")]
    if !tracked {
        return crate::kernels::batch_norm_train(
            x.clone(),
            bn.gamma.val(),
            bn.beta.val(),
            bn.epsilon,
            true,
        );
    }
    let _ = (x, bn, tracked);
    None
}

/// Batch norm in the given mode, then the ReLU. In train and probe modes it also returns the batch variance,
/// detached (and, when asked, the same variance with its gradient tracked); only train mode updates the running statistics (momentum as
/// configured in the layer, like burn's own `BatchNorm`).
fn bn_relu<const D: usize>(
    bn: &BatchNorm,
    x: Tensor<D>,
    mode: Mode,
    stats: &mut BnStats<'_>,
) -> Tensor<D> {
    if mode == Mode::Eval {
        let device = x.device();
        return relu(burn::tensor::module::batch_norm(
            x,
            bn.gamma.val(),
            bn.beta.val(),
            bn.running_mean.value().to_device(&device),
            bn.running_var.value().to_device(&device),
            bn.epsilon,
        ));
    }
    let fused = fused_bn_relu(&x, bn, stats.tracked.is_some());
    let (out, mean, variance) = fused.unwrap_or_else(|| {
        let (out, mean, variance) = batch_norm_train(x, bn.gamma.val(), bn.beta.val(), bn.epsilon);
        (relu(out), mean, variance)
    });
    if let Some(t) = stats.tracked.as_deref_mut() {
        t.push(variance.clone());
    }
    if mode == Mode::Train {
        let m = bn.momentum;
        let rm = bn.running_mean.value_sync();
        let rv = bn.running_var.value_sync();
        let device = rm.device();
        bn.running_mean.update(
            rm.mul_scalar(1.0 - m).add(mean.detach().to_device(&device).mul_scalar(m)).detach(),
        );
        bn.running_var.update(
            rv.mul_scalar(1.0 - m)
                .add(variance.clone().detach().to_device(&device).mul_scalar(m))
                .detach(),
        );
    }
    stats.vars.push(variance.detach());
    out
}

impl LeNet {
    /// Whether the model has BatchNorm layers.
    pub fn has_bn(&self) -> bool {
        self.conv1.bn.is_some()
    }

    /// Whether the model has normalization layers (BatchNorm, GroupNorm or LayerNorm).
    pub fn has_norm(&self) -> bool {
        self.conv1.bn.is_some() || self.conv1.gn.is_some()
    }

    /// The scales γ of the normalization layers, in the order of [`BN_LAYERS`] (empty without).
    pub fn norm_gammas(&self) -> Vec<&Param<Tensor<1>>> {
        let gn = [&self.conv1.gn, &self.conv2.gn, &self.fc1.gn, &self.fc2.gn];
        let gn = gn.into_iter().flatten().filter_map(|g| g.gamma.as_ref());
        self.bn_layers().into_iter().map(|bn| &bn.gamma).chain(gn).collect()
    }

    /// The BN slots of the four blocks, in the order of [`BN_LAYERS`].
    fn bn_slots(&self) -> [&Option<BatchNorm>; BN_LAYERS.len()] {
        [&self.conv1.bn, &self.conv2.bn, &self.fc1.bn, &self.fc2.bn]
    }

    /// The BN layers, in order (empty without BN).
    pub fn bn_layers(&self) -> Vec<&BatchNorm> {
        self.bn_slots().into_iter().flatten().collect()
    }

    /// Forward pass on `[batch, channels, height, width]` images, the shape of its
    /// [`LeNetConfig`].
    pub fn forward(&self, x: Tensor<4>, mode: Mode) -> Forward {
        self.forward_with(x, mode, false)
    }

    /// Forward pass that also returns each BN layer's batch variance with its gradient tracked
    /// (for the regularizers whose gradient flows through σ).
    pub fn forward_tracked(&self, x: Tensor<4>, mode: Mode) -> Forward {
        self.forward_with(x, mode, true)
    }

    /// The 2×2 max-pooling after each convolution block.
    fn pool(&self, x: Tensor<4>) -> Tensor<4> {
        #[cfg(feature = "flex")]
        if self.pool.kernel_size == [POOL, POOL] && self.pool.stride == [POOL, POOL] {
            return crate::kernels::max_pool2x2(x);
        }
        self.pool.forward(x)
    }

    fn forward_with(&self, x: Tensor<4>, mode: Mode, track: bool) -> Forward {
        let mut vars = Vec::new();
        let mut tracked = Vec::new();
        let mut group_var = Vec::new();
        let mut stats = BnStats {
            vars: &mut vars,
            tracked: track.then_some(&mut tracked),
            group_var: &mut group_var,
        };
        let x = self.pool(self.conv1.forward(x, mode, &mut stats));
        let x = self.pool(self.conv2.forward(x, mode, &mut stats));
        let x: Tensor<2> = x.flatten(1, 3);
        let x = self.fc1.forward(x, mode, &mut stats);
        let x = self.fc2.forward(x, mode, &mut stats);
        Forward { logits: self.fc3.forward(x), batch_var: vars, tracked_var: tracked, group_var }
    }

    /// The regularizer's penalty (without λ) from a train-mode forward pass's variances: `None`
    /// without BN and for [`RegKind::Project`] (a projection, not a penalty). `Gamma` reads the
    /// detached `batch_var`; `Sigma` and `Hinge` the `tracked_var` of
    /// [`forward_tracked`](Self::forward_tracked).
    pub fn penalty(
        &self,
        kind: RegKind,
        batch_var: &[Tensor<1>],
        tracked_var: &[Tensor<1>],
    ) -> Option<Tensor<1>> {
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
        let slots = [&mut self.conv1.bn, &mut self.conv2.bn, &mut self.fc1.bn, &mut self.fc2.bn];
        for (l, slot) in slots.into_iter().enumerate() {
            *slot = project(slot.take(), vars.get(l));
        }
        self
    }

    /// Per normalization layer, per channel, the mean over a forward pass's samples of 1/σ,
    /// σ = √(var + ε) what divided the channel: BN's batch σ (`batch_var`, the same for every
    /// sample), GroupNorm's and LayerNorm's each sample's own (`group_var`); detached. Computed
    /// here, when γ/σ is asked for, not in every forward pass.
    pub fn inv_sigma(&self, batch_var: &[Tensor<1>], group_var: &[Tensor<2>]) -> Vec<Tensor<1>> {
        if self.has_bn() {
            return self
                .bn_layers()
                .into_iter()
                .zip(batch_var)
                .map(|(bn, v)| v.clone().detach().add_scalar(bn.epsilon).sqrt().recip())
                .collect();
        }
        let gn = [&self.conv1.gn, &self.conv2.gn, &self.fc1.gn, &self.fc2.gn];
        gn.into_iter()
            .flatten()
            .zip(group_var)
            .map(|(gn, v)| group_inv_sigma(v.clone(), gn.epsilon, gn.num_channels))
            .collect()
    }

    /// Per normalization layer, mean_c |γ_c|/σ_c for [`inv_sigma`](Self::inv_sigma)'s 1/σ (or
    /// [`running_inv_sigma`](Self::running_inv_sigma)'s), detached.
    pub fn gamma_sigma(&self, inv_sigma: &[Tensor<1>]) -> Vec<Tensor<1>> {
        self.gamma_sigma_channels(inv_sigma).into_iter().map(|r| r.mean()).collect()
    }

    /// Per normalization layer, the per-channel |γ_c|/σ_c: |γ_c| times `inv_sigma`'s 1/σ_c
    /// (detached).
    pub fn gamma_sigma_channels(&self, inv_sigma: &[Tensor<1>]) -> Vec<Tensor<1>> {
        self.norm_gammas()
            .into_iter()
            .zip(inv_sigma)
            .map(|(gamma, inv)| {
                gamma.val().detach().to_device(&inv.device()).abs().mul(inv.clone())
            })
            .collect()
    }

    /// Per BN layer, 1/σ_c of its running variance (what inference divides by); `None` for
    /// GroupNorm and LayerNorm, whose inference uses each sample's own σ as training does.
    pub fn running_inv_sigma(&self) -> Option<Vec<Tensor<1>>> {
        self.has_bn().then(|| {
            self.bn_layers()
                .into_iter()
                .map(|bn| bn.running_var.value().add_scalar(bn.epsilon).sqrt().recip())
                .collect()
        })
    }

    /// The normalization layers' scales γ, per layer (detached).
    pub fn gammas(&self) -> Vec<Tensor<1>> {
        self.norm_gammas().into_iter().map(|g| g.val().detach()).collect()
    }
}

/// The block's normalization layer if it has one (else the identity), then the ReLU.
fn norm_relu<const D: usize>(
    bn: &Option<BatchNorm>,
    gn: &Option<GroupNorm>,
    x: Tensor<D>,
    mode: Mode,
    stats: &mut BnStats<'_>,
) -> Tensor<D> {
    match (bn, gn) {
        (Some(bn), _) => bn_relu(bn, x, mode, stats),
        (None, Some(gn)) => gn_relu(gn, x, mode, stats),
        (None, None) => relu(x),
    }
}

/// `relu(x + bias)`, the bias per channel: one kernel on burn-flex (spotlight-kernels), burn's ops
/// elsewhere.
fn bias_relu<const D: usize>(x: Tensor<D>, bias: Tensor<1>) -> Tensor<D> {
    #[cfg(feature = "flex")]
    return crate::kernels::bias_relu(x, bias);
    #[allow(unreachable_code)]
    {
        let mut shape = [1; D];
        shape[1] = bias.dims()[0];
        relu(x.add(bias.reshape(shape)))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::BackendName;

    /// A CPU device of whichever CPU backend this build has.
    fn device() -> Device {
        [BackendName::Flex, BackendName::Ndarray]
            .into_iter()
            .find_map(|b| b.cpu_device().ok())
            .expect("a CPU backend")
    }

    fn params(model: &LeNet) -> Vec<f32> {
        struct Collect(Vec<f32>);
        impl burn::module::ModuleVisitor for Collect {
            fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
                self.0.extend(
                    param.val().into_data().convert::<f32>().try_into_vec::<f32>().unwrap(),
                );
            }
        }
        let mut c = Collect(Vec::new());
        model.visit(&mut c);
        c.0
    }

    #[test]
    fn fc1_takes_what_conv2_leaves() {
        assert_eq!(LeNetConfig::new(1, 28, 28, 10).flat_features(), Some(400));
        assert_eq!(LeNetConfig::new(3, 32, 24, 10).flat_features(), Some(16 * 6 * 4));
        assert_eq!(LeNetConfig::new(1, 12, 13, 2).flat_features(), Some(16));
        assert_eq!(LeNetConfig::new(1, 11, 28, 2).flat_features(), None);
        assert_eq!(LeNetConfig::new(1, 28, 7, 2).flat_features(), None);
    }

    #[test]
    fn the_shape_comes_from_the_config() {
        let device = device();
        for norm in Norm::ALL {
            let model = LeNetConfig::new(3, 32, 24, 7).with_norm(norm).init(1, &device);
            let bn = norm == Norm::Batch;
            assert_eq!(model.has_bn(), bn);
            assert_eq!(model.has_norm(), norm != Norm::None);
            assert_eq!(model.bn_layers().len(), if bn { BN_LAYERS.len() } else { 0 });
            assert_eq!(model.norm_gammas().len(), if model.has_norm() { 4 } else { 0 });
            let out = model.forward(Tensor::zeros([4, 3, 32, 24], &device), Mode::Train);
            assert_eq!(out.logits.dims(), [4, 7]);
            assert_eq!(out.batch_var.len(), model.bn_layers().len());
            let inv = model.inv_sigma(&out.batch_var, &out.group_var);
            let widths: Vec<usize> = inv.iter().map(|v| v.dims()[0]).collect();
            let all = if model.has_norm() { vec![6, 16, 120, 84] } else { vec![] };
            assert_eq!(widths, all);
            assert_eq!(model.gamma_sigma(&inv).len(), all.len());
        }
    }

    #[test]
    fn a_seed_draws_the_same_weights_with_and_without_bn() {
        let device = device();
        let config = LeNetConfig::new(1, 28, 28, 10);
        let a = params(&config.init(5, &device));
        assert_eq!(a, params(&config.init(5, &device)));
        assert_ne!(a, params(&config.init(6, &device)));
        // BN layers draw nothing: the plain model's tensors are the BN model's without each BN
        // layer's γ, β, running mean and running variance; GroupNorm's γ and β alike.
        let plain = params(&config.clone().with_norm(Norm::None).init(5, &device));
        let gn = params(&config.clone().with_norm(Norm::Group).init(5, &device));
        let gn_params = [6, 16, 120, 84].map(|c| 2 * c);
        let bn_params = [6, 16, 120, 84].map(|c| 4 * c);
        let layer_sizes = [6 * 25 + 6, 16 * 6 * 25 + 16, 400 * 120 + 120, 120 * 84 + 84];
        let mut at = 0;
        let mut without_bn = Vec::new();
        for (layer, bn) in layer_sizes.into_iter().zip(bn_params) {
            without_bn.extend_from_slice(&a[at..at + layer]);
            at += layer + bn;
        }
        without_bn.extend_from_slice(&a[at..]);
        assert_eq!(without_bn, plain);
        let (mut at, mut without_gn) = (0, Vec::new());
        for (layer, norm) in layer_sizes.into_iter().zip(gn_params) {
            without_gn.extend_from_slice(&gn[at..at + layer]);
            at += layer + norm;
        }
        without_gn.extend_from_slice(&gn[at..]);
        assert_eq!(without_gn, plain);
        assert_eq!(plain.len(), layer_sizes.iter().sum::<usize>() + 84 * 10 + 10);
    }

    fn close(a: &Tensor<1>, b: &Tensor<1>, what: &str) {
        let (a, b): (Vec<f32>, Vec<f32>) = (
            a.clone().into_data().convert::<f32>().try_into_vec::<f32>().unwrap(),
            b.clone().into_data().convert::<f32>().try_into_vec::<f32>().unwrap(),
        );
        assert_eq!(a.len(), b.len(), "{what}");
        for (i, (x, y)) in a.iter().zip(&b).enumerate() {
            assert!(
                (x - y).abs() <= 1e-4 * (1.0 + x.abs().max(y.abs())),
                "{what}[{i}]: {x} vs {y}"
            );
        }
    }

    fn flat<const D: usize>(t: Tensor<D>) -> Tensor<1> {
        t.flatten(0, D - 1)
    }

    /// Our batch norm (sums along the layout) is burn's `batch_norm_train`: the same output, batch
    /// mean and biased variance, and the same gradients for x, γ and β, for conv (4-D) and dense
    /// (2-D) inputs.
    #[test]
    fn batch_norm_is_burns() {
        use burn::tensor::Distribution;
        let device = device().autodiff();
        fn check<const D: usize>(shape: [usize; D], device: &Device) {
            let c = shape[1];
            let x = Tensor::<D>::random(shape, Distribution::Normal(0.5, 2.0), device);
            let g = Tensor::<D>::random(shape, Distribution::Normal(0.0, 1.0), device);
            let gamma =
                Tensor::<1>::random([c], Distribution::Uniform(0.5, 1.5), device).require_grad();
            let beta =
                Tensor::<1>::random([c], Distribution::Normal(0.0, 1.0), device).require_grad();
            let run = |ours: bool| {
                let xi = x.clone().require_grad();
                let (out, mean, var) = if ours {
                    batch_norm_train(xi.clone(), gamma.clone(), beta.clone(), BN_EPSILON)
                } else {
                    let t = burn::tensor::module::batch_norm_train(
                        xi.clone(),
                        gamma.clone(),
                        beta.clone(),
                        BN_EPSILON,
                    );
                    (t.output, t.mean, t.variance)
                };
                let grads = out.clone().mul(g.clone()).sum().backward();
                let grad = |t: &Tensor<1>| t.grad(&grads).unwrap();
                let gx = flat(xi.grad(&grads).unwrap());
                [flat(out).inner(), mean.inner(), var.inner(), gx, grad(&gamma), grad(&beta)]
            };
            let (a, b) = (run(true), run(false));
            for (name, (a, b)) in
                ["output", "mean", "variance", "dx", "dγ", "dβ"].iter().zip(a.iter().zip(&b))
            {
                close(a, b, &format!("{shape:?} {name}"));
            }
        }
        check([8, 3, 5, 4], &device);
        check([8, 7], &device);
    }

    /// Our group norm (and through the model's blocks, on burn-flex, Spotlight's kernel) is burn's
    /// `GroupNorm`: the same output and the same gradients for x, γ and β, for conv and dense
    /// inputs and several group counts (one: LayerNorm); its σ read-out is each sample's own.
    #[test]
    fn group_norm_is_burns() {
        use burn::tensor::Distribution;
        let device = device().autodiff();
        fn check<const D: usize>(shape: [usize; D], groups: usize, device: &Device) {
            let c = shape[1];
            let x = Tensor::<D>::random(shape, Distribution::Normal(0.5, 2.0), device);
            let g = Tensor::<D>::random(shape, Distribution::Normal(0.0, 1.0), device);
            let mut module = GroupNormConfig::new(groups, c).with_epsilon(BN_EPSILON).init(device);
            let gamma = Tensor::<1>::random([c], Distribution::Uniform(0.5, 1.5), device);
            let beta = Tensor::<1>::random([c], Distribution::Normal(0.0, 1.0), device);
            module.gamma = Some(Param::from_tensor(gamma));
            module.beta = Some(Param::from_tensor(beta));
            let (gm, bm) = (module.gamma.as_ref().unwrap(), module.beta.as_ref().unwrap());
            // Ours by burn ops, ours through the block's path (the kernel on burn-flex, with the
            // ReLU), and burn's module (the ReLU after it for the second).
            let run = |way: usize| {
                let xi = x.clone().require_grad();
                let out = match way {
                    0 => group_norm_train(xi.clone(), gm.val(), bm.val(), groups, BN_EPSILON).0,
                    1 => {
                        let (mut vars, mut inv) = (Vec::new(), Vec::new());
                        let mut stats =
                            BnStats { vars: &mut vars, tracked: None, group_var: &mut inv };
                        let out = gn_relu(&module, xi.clone(), Mode::Train, &mut stats);
                        assert_eq!(inv.len(), 1);
                        out
                    }
                    2 => module.forward(xi.clone()),
                    _ => relu(module.forward(xi.clone())),
                };
                let grads = out.clone().mul(g.clone()).sum().backward();
                let gx = flat(xi.grad(&grads).unwrap());
                [flat(out).inner(), gx, gm.grad(&grads).unwrap(), bm.grad(&grads).unwrap()]
            };
            for (ours, theirs) in [(0, 2), (1, 3)] {
                let (a, b) = (run(ours), run(theirs));
                for (name, (a, b)) in ["output", "dx", "dγ", "dβ"].iter().zip(a.iter().zip(&b)) {
                    close(a, b, &format!("{shape:?} groups {groups} way {ours} {name}"));
                }
            }
        }
        for groups in [1, 2, 3, 6] {
            check([8, 6, 5, 4], groups, &device);
        }
        check([8, 12], 1, &device);
        check([8, 12], 4, &device);
    }

    /// γ/σ with GroupNorm is |γ_c| times the mean over samples of 1/σ of each sample's group.
    #[test]
    fn group_norm_sigma_is_each_samples_own() {
        let device = device();
        // Two samples, one group of two channels of 2 values: σ² of sample 0 is 1, of sample 1 4.
        let x = Tensor::<3>::from_data(
            TensorData::new(vec![-1.0f32, 1.0, -1.0, 1.0, -2.0, 2.0, -2.0, 2.0], [2, 2, 2]),
            &device,
        );
        let mut module = GroupNormConfig::new(1, 2).with_epsilon(0.0).init(&device);
        module.epsilon = 0.0;
        let (mut vars, mut inv) = (Vec::new(), Vec::new());
        let mut stats = BnStats { vars: &mut vars, tracked: None, group_var: &mut inv };
        gn_relu(&module, x, Mode::Probe, &mut stats);
        let got = group_inv_sigma(inv[0].clone(), 0.0, 2)
            .into_data()
            .convert::<f32>()
            .try_into_vec::<f32>()
            .unwrap();
        assert_eq!(got, vec![0.75, 0.75], "mean of 1/1 and 1/2");
    }

    /// A conv block's bias added after the convolution is burn's `Conv2d` with its bias: the same
    /// output and gradients.
    #[test]
    fn conv_block_is_burns_conv2d() {
        use burn::tensor::Distribution;
        let device = device().autodiff();
        let mut rng = Rng::derive(3, "test");
        let block = ConvBlock::new(&mut rng, [2, 3], 2, (Norm::None, 0), &device);
        let x = Tensor::<4>::random([4, 2, 9, 9], Distribution::Normal(0.0, 1.0), &device);
        let (mut vars, mut group_var) = (Vec::new(), Vec::new());
        let mut stats = BnStats { vars: &mut vars, tracked: None, group_var: &mut group_var };
        let ours = block.forward(x.clone(), Mode::Train, &mut stats);
        let theirs = relu(block.conv.forward(x));
        let (ga, gb) = (ours.clone().sum().backward(), theirs.clone().sum().backward());
        close(&flat(ours).inner(), &flat(theirs).inner(), "output");
        let w = &block.conv.weight;
        close(&flat(w.grad(&ga).unwrap()), &flat(w.grad(&gb).unwrap()), "dW");
        let b = block.conv.bias.as_ref().unwrap();
        close(&b.grad(&ga).unwrap(), &b.grad(&gb).unwrap(), "db");
    }
}
