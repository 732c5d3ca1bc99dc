//! K LeNets of one shape as one network, "stacked" (issue #33): each layer holds the K models'
//! weights side by side and runs them in one operation, so that one kernel launch serves K models.
//! The convolutions are grouped (K groups: model k's channels see only model k's), the linear
//! layers batched matrix products over a model axis (`[K, batch, in]·[K, in, out]`), and each
//! normalization layer normalizes K·C channels (BatchNorm per channel over the batch, GroupNorm per
//! sample in K·G groups): what each channel sees is its own model's. Each model takes its own batch
//! (the input's channels, model-major), and the loss is the sum of the models' mean losses, so each
//! model's gradient is its own, and an optimizer that works element by element (Adam, SGD with
//! momentum) steps each model as it would alone: trained so, the K models equal K trained one by
//! one (within float rounding; `tests/integration/stack.rs` checks it).

use burn::module::{Module, Param, RunningState};
use burn::nn::conv::Conv2dConfig;
use burn::nn::{BatchNormConfig, GroupNormConfig};
use burn::tensor::Tensor;

use super::{
    BnStats, ConvBlock, DenseBlock, KERNEL, LeNet, MaxPool2dConfig, Mode, POOL, norm_relu,
};
use burn::nn::{BatchNorm, GroupNorm, Linear, PaddingConfig2d};

/// K linear layers as one (`[K, in, out]` weights, `[K, out]` biases), each with its
/// normalization (K·out channels) and the ReLU after it (none on the last layer).
#[derive(Module, Debug)]
struct StackedDense {
    weight: Param<Tensor<3>>,
    bias: Param<Tensor<2>>,
    bn: Option<BatchNorm>,
    gn: Option<GroupNorm>,
    /// Whether a ReLU follows (every layer but the last).
    relu: bool,
}

/// K LeNet-5s of one shape and normalization as one network; made from the K models by
/// [`Stack::of`], read back by [`Stack::model`].
#[derive(Module, Debug)]
pub struct Stack {
    conv1: ConvBlock,
    conv2: ConvBlock,
    fc1: StackedDense,
    fc2: StackedDense,
    fc3: StackedDense,
    pool: burn::nn::pool::MaxPool2d,
}

/// Concatenates the models' values of one parameter along `dim`.
fn cat<const D: usize>(parts: Vec<Tensor<D>>, dim: usize) -> Param<Tensor<D>> {
    Param::from_tensor(Tensor::cat(parts, dim).detach())
}

/// The models' normalization layers (all of one kind, or none) as one of K·C channels.
fn stack_norm(
    slots: &[(&Option<BatchNorm>, &Option<GroupNorm>)],
) -> (Option<BatchNorm>, Option<GroupNorm>) {
    let k = slots.len();
    match slots[0] {
        (Some(first), _) => {
            let bns: Vec<&BatchNorm> = slots.iter().filter_map(|s| s.0.as_ref()).collect();
            let channels = first.gamma.dims()[0];
            let device = first.gamma.val().device();
            let mut bn = BatchNormConfig::new(k * channels)
                .with_epsilon(first.epsilon)
                .with_momentum(first.momentum)
                .init(&device);
            bn.gamma = cat(bns.iter().map(|b| b.gamma.val()).collect(), 0);
            bn.beta = cat(bns.iter().map(|b| b.beta.val()).collect(), 0);
            bn.running_mean = RunningState::new(Tensor::cat(
                bns.iter().map(|b| b.running_mean.value_sync()).collect(),
                0,
            ));
            bn.running_var = RunningState::new(Tensor::cat(
                bns.iter().map(|b| b.running_var.value_sync()).collect(),
                0,
            ));
            (Some(bn), None)
        }
        (None, Some(first)) => {
            let gns: Vec<&GroupNorm> = slots.iter().filter_map(|s| s.1.as_ref()).collect();
            let (Some(gamma), Some(_)) = (&first.gamma, &first.beta) else {
                unreachable!("`norm_layer` builds GroupNorm with γ and β")
            };
            let device = gamma.val().device();
            let mut gn = GroupNormConfig::new(k * first.num_groups, k * first.num_channels)
                .with_epsilon(first.epsilon)
                .init(&device);
            let part = |p: &Option<Param<Tensor<1>>>| p.as_ref().map(|p| p.val());
            gn.gamma = Some(cat(gns.iter().filter_map(|g| part(&g.gamma)).collect(), 0));
            gn.beta = Some(cat(gns.iter().filter_map(|g| part(&g.beta)).collect(), 0));
            (None, Some(gn))
        }
        (None, None) => (None, None),
    }
}

/// Model `k`'s normalization layer out of a stacked one (`channels` a model). BN's running
/// statistics are read with `value_sync`, which folds in this thread's last update (`value` would
/// not: the stale value); the stack steps and is read on one thread (the worker's, or `on_pool`'s).
fn unstack_norm(
    (bn, gn): (&Option<BatchNorm>, &Option<GroupNorm>),
    into: (&mut Option<BatchNorm>, &mut Option<GroupNorm>),
    k: usize,
    channels: usize,
) {
    let part = |t: Tensor<1>| t.narrow(0, k * channels, channels);
    if let (Some(s), Some(m)) = (bn, into.0.as_mut()) {
        m.gamma = Param::from_tensor(part(s.gamma.val()).detach());
        m.beta = Param::from_tensor(part(s.beta.val()).detach());
        m.running_mean = RunningState::new(part(s.running_mean.value_sync()));
        m.running_var = RunningState::new(part(s.running_var.value_sync()));
    }
    if let (Some(s), Some(m)) = (gn, into.1.as_mut()) {
        let p = |t: &Option<Param<Tensor<1>>>| {
            t.as_ref().map(|t| Param::from_tensor(part(t.val()).detach()))
        };
        m.gamma = p(&s.gamma);
        m.beta = p(&s.beta);
    }
}

/// The models' convolution blocks as one grouped convolution (K groups) and its normalization.
fn stack_conv(blocks: &[&ConvBlock]) -> ConvBlock {
    let k = blocks.len();
    let c = &blocks[0].conv;
    let [cout, cin, _, _] = c.weight.dims();
    let PaddingConfig2d::Explicit(top, left, bottom, right) = c.padding else {
        unreachable!("`conv` builds every convolution with explicit padding")
    };
    let device = c.weight.val().device();
    let mut conv = Conv2dConfig::new([k * cin, k * cout], [KERNEL, KERNEL])
        .with_groups(k)
        .with_padding(PaddingConfig2d::Explicit(top, left, bottom, right))
        .init(&device);
    conv.weight = cat(blocks.iter().map(|b| b.conv.weight.val()).collect(), 0);
    conv.bias = blocks[0].conv.bias.as_ref().map(|_| {
        cat(blocks.iter().filter_map(|b| b.conv.bias.as_ref().map(Param::val)).collect(), 0)
    });
    let slots: Vec<_> = blocks.iter().map(|b| (&b.bn, &b.gn)).collect();
    let (bn, gn) = stack_norm(&slots);
    ConvBlock { conv, bn, gn }
}

/// Model `k`'s convolution block out of a stacked one, written into `into`.
fn unstack_conv(s: &ConvBlock, into: &mut ConvBlock, k: usize) {
    let cout = into.conv.weight.dims()[0];
    into.conv.weight = Param::from_tensor(s.conv.weight.val().narrow(0, k * cout, cout).detach());
    if let (Some(b), Some(_)) = (&s.conv.bias, &into.conv.bias) {
        into.conv.bias = Some(Param::from_tensor(b.val().narrow(0, k * cout, cout).detach()));
    }
    unstack_norm((&s.bn, &s.gn), (&mut into.bn, &mut into.gn), k, cout);
}

/// The models' linear layers (with their normalization) as one.
fn stack_dense(
    layers: &[(&Linear, &Option<BatchNorm>, &Option<GroupNorm>)],
    relu: bool,
) -> StackedDense {
    let weight = cat(layers.iter().map(|l| l.0.weight.val().unsqueeze_dim::<3>(0)).collect(), 0);
    let bias = cat(
        layers
            .iter()
            .map(|l| l.0.bias.as_ref().expect("`linear` builds a bias").val().unsqueeze_dim::<2>(0))
            .collect(),
        0,
    );
    let slots: Vec<_> = layers.iter().map(|l| (l.1, l.2)).collect();
    let (bn, gn) = stack_norm(&slots);
    StackedDense { weight, bias, bn, gn, relu }
}

/// Model `k`'s linear layer (and normalization) out of a stacked one, written into `into`.
fn unstack_dense(
    s: &StackedDense,
    into: (&mut Linear, &mut Option<BatchNorm>, &mut Option<GroupNorm>),
    k: usize,
) {
    let [_, din, dout] = s.weight.dims();
    let w = s.weight.val().narrow(0, k, 1).reshape([din, dout]);
    into.0.weight = Param::from_tensor(w.detach());
    into.0.bias = Some(Param::from_tensor(s.bias.val().narrow(0, k, 1).reshape([dout]).detach()));
    unstack_norm((&s.bn, &s.gn), (into.1, into.2), k, dout);
}

impl StackedDense {
    /// `[K, batch, in]` → `[K, batch, out]`.
    fn forward(&self, x: Tensor<3>, mode: Mode, stats: &mut BnStats<'_>) -> Tensor<3> {
        let [k, _, out] = self.weight.dims();
        let y = x.matmul(self.weight.val()).add(self.bias.val().reshape([k, 1, out]));
        if self.bn.is_none() && self.gn.is_none() {
            return if self.relu { burn::tensor::activation::relu(y) } else { y };
        }
        // The normalization sees [batch, K·out]: model k's features are channels k·out…
        let b = y.dims()[1];
        let flat: Tensor<2> = y.swap_dims(0, 1).reshape([b, k * out]);
        let normed = norm_relu(&self.bn, &self.gn, flat, mode, stats);
        normed.reshape([b, k, out]).swap_dims(0, 1)
    }
}

impl Stack {
    /// The models as one network; they must share one shape and normalization (the same
    /// [`super::LeNetConfig`], any seeds). Their parameters are copied: training the stack leaves
    /// them as they were.
    ///
    /// # Panics
    ///
    /// If `models` is empty.
    pub fn of(models: &[&LeNet]) -> Self {
        assert!(!models.is_empty(), "a stack of no models");
        let dense = |f: fn(&LeNet) -> &DenseBlock| -> Vec<_> {
            models.iter().map(|m| (&f(m).linear, &f(m).bn, &f(m).gn)).collect()
        };
        Self {
            conv1: stack_conv(&models.iter().map(|m| &m.conv1).collect::<Vec<_>>()),
            conv2: stack_conv(&models.iter().map(|m| &m.conv2).collect::<Vec<_>>()),
            fc1: stack_dense(&dense(|m| &m.fc1), true),
            fc2: stack_dense(&dense(|m| &m.fc2), true),
            fc3: stack_dense(
                &models.iter().map(|m| (&m.fc3, &None, &None)).collect::<Vec<_>>(),
                false,
            ),
            pool: MaxPool2dConfig::new([POOL, POOL]).init(),
        }
    }

    /// How many models it holds.
    pub fn models(&self) -> usize {
        self.fc3.weight.dims()[0]
    }

    /// Model `k` as a LeNet of its own: `like`, one of the models it was made of (or any of their
    /// shape), with model `k`'s parameters and running statistics.
    pub fn model(&self, k: usize, like: LeNet) -> LeNet {
        let mut m = like;
        unstack_conv(&self.conv1, &mut m.conv1, k);
        unstack_conv(&self.conv2, &mut m.conv2, k);
        unstack_dense(&self.fc1, (&mut m.fc1.linear, &mut m.fc1.bn, &mut m.fc1.gn), k);
        unstack_dense(&self.fc2, (&mut m.fc2.linear, &mut m.fc2.bn, &mut m.fc2.gn), k);
        unstack_dense(&self.fc3, (&mut m.fc3, &mut None, &mut None), k);
        m
    }

    /// The K models' logits, `[K, batch, classes]`, for their batches side by side: `x` is
    /// `[batch, K·C, H, W]`, model k's images its channels k·C…(k+1)·C.
    pub fn forward(&self, x: Tensor<4>, mode: Mode) -> Tensor<3> {
        let (mut vars, mut group_var) = (Vec::new(), Vec::new());
        let mut stats = BnStats { vars: &mut vars, tracked: None, group_var: &mut group_var };
        let pool = |x| {
            #[cfg(feature = "flex")]
            return crate::kernels::max_pool2x2(x);
            #[allow(unreachable_code)]
            self.pool.forward(x)
        };
        let x = pool(self.conv1.forward(x, mode, &mut stats));
        let x = pool(self.conv2.forward(x, mode, &mut stats));
        let [b, kc, h, w] = x.dims();
        let k = self.models();
        let x: Tensor<3> = x.reshape([b, k, kc / k * h * w]).swap_dims(0, 1);
        let x = self.fc1.forward(x, mode, &mut stats);
        let x = self.fc2.forward(x, mode, &mut stats);
        self.fc3.forward(x, mode, &mut stats)
    }
}
