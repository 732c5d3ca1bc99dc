//! LeNet's convolutions, max-pooling, BatchNorm, GroupNorm and bias + ReLU on burn-flex, by
//! Spotlight's own CPU kernels (the crate `spotlight-kernels`; spotlight-core depends on it under
//! its `flex` feature and re-exports it as `spotlight_core::kernels`).
//!
//! burn-flex runs a LeNet training step mostly in its convolutions and poolings
//! (`bench/PROFILE.md`): the weight gradient is a convolution of the transposed input with the
//! output gradient as a 28×28 kernel, on one thread, and the pooling keeps and scatters indices.
//! This crate computes the same things with kernels of its own, through burn's backend
//! extension API (a [`LeNetKernels`] trait implemented for `Flex` and, with a hand-written
//! backward, for `Autodiff<Flex>`):
//!
//! * **Convolution** (stride 1, square zero padding, no bias, one group): computed directly, a
//!   vector of output pixels at a time against a block of weights held in registers
//!   (`direct.rs`: AVX-512 or AVX2 picked at run time, 4-lane vectors elsewhere and in the
//!   browser). Forward, the weight gradient (summed over a group of samples in registers) and the
//!   input gradient (gathered from the output gradient, each input pixel written once).
//! * **Max-pooling** 2×2, stride 2 (`pool.rs`): the largest of each window (the first one on
//!   ties, as PyTorch); backward sends each window's gradient to that element.
//! * **BatchNorm** on batch statistics and a layer's **bias + ReLU** (`norm.rs`), forward and
//!   backward.
//! * **GroupNorm** (LayerNorm is its one-group case) on each sample's statistics (`group.rs`, by
//!   BatchNorm's passes one sample at a time), forward and backward.
//!
//! `simd.rs` holds the vector units (the hand-written `Vector` trait and the run-time choice of
//! AVX-512, AVX2 or 4 lanes): the workspace's only SIMD `unsafe`, with `mac.rs`'s loads and stores
//! behind the off-by-default `macerator` feature (two kernels ported to macerator, compared with
//! ours by `examples/macerator.rs`; never the production path). The crate is a leaf: burn (with
//! its flex backend) and, natively, rayon; never spotlight-core.
//!
//! Samples are split across threads (rayon's pool, natively; one thread in the browser, where each
//! Web Worker is a thread). [`conv2d`], [`max_pool2x2`], [`batch_norm_train`],
//! [`group_norm_train`] and [`bias_relu`] take these paths only for f32 tensors on a burn-flex
//! device and shapes they cover; everything else (burn-ndarray, WebGPU, other options) goes through
//! burn's own ops, which the tests compare against: outputs and gradients.

#[cfg(feature = "macerator")]
#[doc(hidden)]
pub mod compare;
mod direct;
mod group;
#[cfg(feature = "macerator")]
mod mac;
mod norm;
#[cfg(not(target_arch = "wasm32"))]
mod peak;
mod pool;
mod simd;

use burn::backend::autodiff::Autodiff;
use burn::backend::autodiff::checkpoint::base::Checkpointer;
use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{Backward, Ops, OpsKind};
use burn::backend::flex::FlexTensor;
use burn::backend::tensor::FloatTensor;
use burn::backend::{
    AutodiffBackend, Dispatch, DispatchDevice, Flex, TensorMetadata, backend_extension,
};
use burn::tensor::ops::{ConvOptions, MaxPoolOptions};
use burn::tensor::{DType, Tensor, TensorData};
#[cfg(not(target_arch = "wasm32"))]
pub use peak::{PeakFlops, peak_flops};

/// The operations a LeNet training step spends most of its time in, as a burn backend extension.
#[backend_extension(Flex, Autodiff)]
pub trait LeNetKernels: burn::backend::Backend {
    /// A convolution of `x` `[B, C, H, W]` with `weight` `[O, C, k, k]`: stride 1, `padding` zeros
    /// on every side, no bias.
    fn lenet_conv(
        x: FloatTensor<Self>,
        weight: FloatTensor<Self>,
        padding: usize,
    ) -> FloatTensor<Self>;
    /// Max-pooling of `x` `[B, C, H, W]` over 2×2 windows with stride 2 (`[B, C, H/2, W/2]`,
    /// rounded down).
    fn lenet_pool(x: FloatTensor<Self>) -> FloatTensor<Self>;
    /// BatchNorm's batch statistics of `x` `[B, C, …]`: per channel the mean, then the biased
    /// variance (`[2, C]`), never tracked.
    fn lenet_bn_stats(x: FloatTensor<Self>) -> FloatTensor<Self>;
    /// BatchNorm on batch statistics: `x` `[B, C, …]` normalized by `stats` (from
    /// [`Self::lenet_bn_stats`] of the same `x`), scaled by `gamma` and shifted by `beta` `[C]`.
    /// Its gradient is the whole BatchNorm's, the statistics' dependence on `x` included. With
    /// `relu`, the ReLU after it too.
    fn lenet_bn(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        beta: FloatTensor<Self>,
        stats: FloatTensor<Self>,
        epsilon: f64,
        relu: bool,
    ) -> FloatTensor<Self>;
    /// `max(x + bias, 0)` for `x` `[B, C, …]` and `bias` `[C]`: a layer's bias and its ReLU.
    fn lenet_bias_relu(x: FloatTensor<Self>, bias: FloatTensor<Self>) -> FloatTensor<Self>;
    /// GroupNorm's statistics of `x` `[B, C, …]` in `groups` groups of C/groups channels (dividing
    /// C): per sample the groups' means, then their biased variances (`[B, 2·groups]`), never
    /// tracked.
    fn lenet_gn_stats(x: FloatTensor<Self>, groups: usize) -> FloatTensor<Self>;
    /// GroupNorm: `x` `[B, C, …]` normalized per sample and group by `stats` (from
    /// [`Self::lenet_gn_stats`] of the same `x`; its groups), scaled by `gamma` and shifted by
    /// `beta` `[C]`. Its gradient is the whole GroupNorm's, the statistics' dependence on `x`
    /// included. With `relu`, the ReLU after it too.
    fn lenet_gn(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        beta: FloatTensor<Self>,
        stats: FloatTensor<Self>,
        epsilon: f64,
        relu: bool,
    ) -> FloatTensor<Self>;
}

impl LeNetKernels for Flex {
    fn lenet_conv(x: FlexTensor, weight: FlexTensor, padding: usize) -> FlexTensor {
        conv_forward(simd::Isa::best(), &x, &weight, padding)
    }

    fn lenet_pool(x: FlexTensor) -> FlexTensor {
        pool_forward(&x)
    }

    fn lenet_bn_stats(x: FlexTensor) -> FlexTensor {
        bn_stats(&x)
    }

    fn lenet_bn(
        x: FlexTensor,
        gamma: FlexTensor,
        beta: FlexTensor,
        stats: FlexTensor,
        epsilon: f64,
        relu: bool,
    ) -> FlexTensor {
        bn_forward(&x, &gamma, &beta, &stats, epsilon, relu)
    }

    fn lenet_bias_relu(x: FlexTensor, bias: FlexTensor) -> FlexTensor {
        bias_relu_forward(&x, &bias)
    }

    fn lenet_gn_stats(x: FlexTensor, groups: usize) -> FlexTensor {
        group::stats(simd::Isa::best(), &x, groups)
    }

    fn lenet_gn(
        x: FlexTensor,
        gamma: FlexTensor,
        beta: FlexTensor,
        stats: FlexTensor,
        epsilon: f64,
        relu: bool,
    ) -> FlexTensor {
        group::forward(simd::Isa::best(), &x, (&gamma, &beta), &stats, epsilon, relu)
    }
}

impl<C: CheckpointStrategy> LeNetKernels for Autodiff<Flex, C> {
    fn lenet_conv(
        x: FloatTensor<Self>,
        weight: FloatTensor<Self>,
        padding: usize,
    ) -> FloatTensor<Self> {
        #[derive(Debug)]
        struct ConvBackward;

        impl Backward<Flex, 2> for ConvBackward {
            type State = (FlexTensor, FlexTensor, usize);

            fn backward(
                self,
                ops: Ops<Self::State, 2>,
                grads: &mut Gradients,
                _: &mut Checkpointer,
            ) {
                let [node_x, node_weight] = ops.parents;
                let grad = grads.consume::<Flex>(&ops.node);
                let (x, weight, padding) = ops.state;
                if let Some(node) = node_x {
                    grads.register::<Flex>(
                        node.id,
                        conv_input_grad(simd::Isa::best(), &x, &weight, &grad, padding),
                    );
                }
                if let Some(node) = node_weight {
                    grads.register::<Flex>(
                        node.id,
                        conv_weight_grad(simd::Isa::best(), &x, &weight, &grad, padding),
                    );
                }
            }
        }

        match ConvBackward.prepare::<C>([x.node(), weight.node()]).compute_bound().stateful() {
            OpsKind::Tracked(prep) => {
                let (x, weight) = (x.primitive().clone(), weight.primitive().clone());
                let out = conv_forward(simd::Isa::best(), &x, &weight, padding);
                prep.finish((x, weight, padding), out)
            }
            OpsKind::UnTracked(prep) => prep.finish(conv_forward(
                simd::Isa::best(),
                x.primitive(),
                weight.primitive(),
                padding,
            )),
        }
    }

    fn lenet_pool(x: FloatTensor<Self>) -> FloatTensor<Self> {
        #[derive(Debug)]
        struct PoolBackward;

        impl Backward<Flex, 1> for PoolBackward {
            type State = FlexTensor;

            fn backward(
                self,
                ops: Ops<Self::State, 1>,
                grads: &mut Gradients,
                _: &mut Checkpointer,
            ) {
                let [node_x] = ops.parents;
                let grad = grads.consume::<Flex>(&ops.node);
                if let Some(node) = node_x {
                    grads.register::<Flex>(node.id, pool_backward(&ops.state, &grad));
                }
            }
        }

        match PoolBackward.prepare::<C>([x.node()]).compute_bound().stateful() {
            OpsKind::Tracked(prep) => {
                let x = x.primitive().clone();
                let out = pool_forward(&x);
                prep.finish(x, out)
            }
            OpsKind::UnTracked(prep) => prep.finish(pool_forward(x.primitive())),
        }
    }

    fn lenet_bn_stats(x: FloatTensor<Self>) -> FloatTensor<Self> {
        <Self as AutodiffBackend>::from_inner(bn_stats(x.primitive()))
    }

    fn lenet_bn(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        beta: FloatTensor<Self>,
        stats: FloatTensor<Self>,
        epsilon: f64,
        relu: bool,
    ) -> FloatTensor<Self> {
        norm_op::<C>(BN_PASSES, [x, gamma, beta, stats], epsilon, relu)
    }

    fn lenet_bias_relu(x: FloatTensor<Self>, bias: FloatTensor<Self>) -> FloatTensor<Self> {
        #[derive(Debug)]
        struct BiasReluBackward;

        impl Backward<Flex, 2> for BiasReluBackward {
            /// The output (positive where the gradient passes).
            type State = FlexTensor;

            fn backward(
                self,
                ops: Ops<Self::State, 2>,
                grads: &mut Gradients,
                _: &mut Checkpointer,
            ) {
                let [node_x, node_bias] = ops.parents;
                let grad = grads.consume::<Flex>(&ops.node);
                let (dx, dbias) = bias_relu_backward(&ops.state, &grad);
                if let Some(node) = node_x {
                    grads.register::<Flex>(node.id, dx);
                }
                if let Some(node) = node_bias {
                    grads.register::<Flex>(node.id, dbias);
                }
            }
        }

        let out = bias_relu_forward(x.primitive(), bias.primitive());
        match BiasReluBackward.prepare::<C>([x.node(), bias.node()]).compute_bound().stateful() {
            OpsKind::Tracked(prep) => prep.finish(out.clone(), out),
            OpsKind::UnTracked(prep) => prep.finish(out),
        }
    }

    fn lenet_gn_stats(x: FloatTensor<Self>, groups: usize) -> FloatTensor<Self> {
        <Self as AutodiffBackend>::from_inner(group::stats(
            simd::Isa::best(),
            x.primitive(),
            groups,
        ))
    }

    fn lenet_gn(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        beta: FloatTensor<Self>,
        stats: FloatTensor<Self>,
        epsilon: f64,
        relu: bool,
    ) -> FloatTensor<Self> {
        norm_op::<C>(GN_PASSES, [x, gamma, beta, stats], epsilon, relu)
    }
}

/// A normalization's forward and backward passes on burn-flex's tensors, BatchNorm's or
/// GroupNorm's: x, (γ, β) or (γ, β when a ReLU follows), the statistics, ε, and the ReLU or the
/// output gradient and whether x's gradient is wanted. One autodiff op serves both ([`norm_op`]).
#[derive(Clone, Copy, Debug)]
struct NormPasses {
    forward: fn(&FlexTensor, (&FlexTensor, &FlexTensor), &FlexTensor, f64, bool) -> FlexTensor,
    #[allow(clippy::type_complexity)]
    backward: fn(
        &FlexTensor,
        (&FlexTensor, Option<&FlexTensor>),
        &FlexTensor,
        f64,
        &FlexTensor,
        bool,
    ) -> (Option<FlexTensor>, FlexTensor, FlexTensor),
}

const BN_PASSES: NormPasses = NormPasses {
    forward: |x, (gamma, beta), stats, epsilon, relu| {
        bn_forward(x, gamma, beta, stats, epsilon, relu)
    },
    backward: |x, (gamma, relu_beta), stats, epsilon, grad, want_dx| {
        bn_backward(x, gamma, relu_beta, stats, epsilon, grad, want_dx)
    },
};

const GN_PASSES: NormPasses = NormPasses {
    forward: |x, gamma_beta, stats, epsilon, relu| {
        group::forward(simd::Isa::best(), x, gamma_beta, stats, epsilon, relu)
    },
    backward: |x, gamma_relu, stats, epsilon, grad, want_dx| {
        group::backward(simd::Isa::best(), x, gamma_relu, stats, epsilon, grad, want_dx)
    },
};

impl Backward<Flex, 3> for NormPasses {
    /// x, γ, β, the statistics, ε, whether a ReLU follows.
    type State = (FlexTensor, FlexTensor, FlexTensor, FlexTensor, f64, bool);

    fn backward(self, ops: Ops<Self::State, 3>, grads: &mut Gradients, _: &mut Checkpointer) {
        let [node_x, node_gamma, node_beta] = ops.parents;
        let grad = grads.consume::<Flex>(&ops.node);
        let (x, gamma, beta, stats, epsilon, relu) = ops.state;
        let (dx, dgamma, dbeta) = (self.backward)(
            &x,
            (&gamma, relu.then_some(&beta)),
            &stats,
            epsilon,
            &grad,
            node_x.is_some(),
        );
        if let (Some(node), Some(dx)) = (node_x, dx) {
            grads.register::<Flex>(node.id, dx);
        }
        if let Some(node) = node_gamma {
            grads.register::<Flex>(node.id, dgamma);
        }
        if let Some(node) = node_beta {
            grads.register::<Flex>(node.id, dbeta);
        }
    }
}

/// A normalization (and the ReLU after it) as one autodiff op: `passes`' forward on x, γ, β and
/// the statistics (not tracked), its backward for x, γ and β.
fn norm_op<C: CheckpointStrategy>(
    passes: NormPasses,
    [x, gamma, beta, stats]: [FloatTensor<Autodiff<Flex, C>>; 4],
    epsilon: f64,
    relu: bool,
) -> FloatTensor<Autodiff<Flex, C>> {
    let prepared =
        passes.prepare::<C>([x.node(), gamma.node(), beta.node()]).compute_bound().stateful();
    let out = (passes.forward)(
        x.primitive(),
        (gamma.primitive(), beta.primitive()),
        stats.primitive(),
        epsilon,
        relu,
    );
    match prepared {
        OpsKind::Tracked(prep) => {
            let state = (
                x.primitive().clone(),
                gamma.primitive().clone(),
                beta.primitive().clone(),
                stats.primitive().clone(),
                epsilon,
                relu,
            );
            prep.finish(state, out)
        }
        OpsKind::UnTracked(prep) => prep.finish(out),
    }
}

/// Whether a tensor lives on burn-flex (with or without autodiff) and holds f32s: what the kernels
/// here take.
fn on_flex<const D: usize>(t: &Tensor<D>) -> bool {
    #[allow(unreachable_patterns)]
    let flex = match t.device().as_dispatch() {
        DispatchDevice::Flex(_) => true,
        DispatchDevice::Autodiff(inner) => matches!(**inner, DispatchDevice::Flex(_)),
        _ => false,
    };
    flex && t.dtype() == DType::F32
}

/// The vector unit Spotlight's kernels run on here (the widest this CPU has; picked when they run).
pub fn vector_unit() -> &'static str {
    simd::Isa::best().name()
}

/// burn's `conv2d` without a bias, through Spotlight's kernels where they apply (see the module
/// docs).
pub fn conv2d(x: Tensor<4>, weight: Tensor<4>, options: ConvOptions<2>) -> Tensor<4> {
    let [k1, k2] = [weight.dims()[2], weight.dims()[3]];
    let [(top, bottom), (left, right)] = options.padding;
    let plain = options.stride == [1, 1] && options.dilation == [1, 1] && options.groups == 1;
    // An output with no pixels (or no samples) is burn's to make.
    let [b, _, h, w] = x.dims();
    let some = b > 0 && h + 2 * top + 1 > k1 && w + 2 * left + 1 > k2;
    if plain
        && some
        && k1 == k2
        && top == bottom
        && left == right
        && top == left
        && on_flex(&x)
        && on_flex(&weight)
    {
        return Tensor::from_dispatch(<Dispatch as LeNetKernels>::lenet_conv(
            x.into_dispatch(),
            weight.into_dispatch(),
            top,
        ));
    }
    burn::tensor::module::conv2d(x, weight, None, options)
}

/// 2×2 max-pooling with stride 2 (no padding), through Spotlight's kernel on burn-flex and burn's
/// `max_pool2d` elsewhere.
pub fn max_pool2x2(x: Tensor<4>) -> Tensor<4> {
    if on_flex(&x) {
        return Tensor::from_dispatch(<Dispatch as LeNetKernels>::lenet_pool(x.into_dispatch()));
    }
    burn::tensor::module::max_pool2d(x, MaxPoolOptions::new([2, 2]).with_stride([2, 2]))
}

/// BatchNorm on batch statistics through Spotlight's kernel on burn-flex (see
/// [`LeNetKernels::lenet_bn`]): the output (gradient tracked as the input's), and the batch mean
/// and biased variance per channel (not tracked). `None` where the kernel does not apply (not
/// burn-flex, not f32): the caller then takes burn's ops.
pub fn batch_norm_train<const D: usize>(
    x: Tensor<D>,
    gamma: Tensor<1>,
    beta: Tensor<1>,
    epsilon: f64,
    relu: bool,
) -> Option<(Tensor<D>, Tensor<1>, Tensor<1>)> {
    if D < 2 || !(on_flex(&x) && on_flex(&gamma) && on_flex(&beta)) {
        return None;
    }
    let c = x.dims()[1];
    let stats: Tensor<1> = Tensor::from_dispatch(<Dispatch as LeNetKernels>::lenet_bn_stats(
        x.clone().into_dispatch(),
    ));
    let out = Tensor::from_dispatch(<Dispatch as LeNetKernels>::lenet_bn(
        x.into_dispatch(),
        gamma.into_dispatch(),
        beta.into_dispatch(),
        stats.clone().into_dispatch(),
        epsilon,
        relu,
    ));
    Some((out, stats.clone().slice(0..c), stats.slice(c..2 * c)))
}

/// GroupNorm through Spotlight's kernel on burn-flex (see [`LeNetKernels::lenet_gn`]; with
/// `groups` 1, LayerNorm with γ and β per channel): for `x` `[B, C, …]` and `groups` dividing C, the output (gradient tracked as
/// the input's, γ's and β's) and per sample and group the mean and biased variance, `[B, groups]`
/// each (not tracked). `None` where the kernel does not apply (not burn-flex, not f32, `groups` not
/// dividing C, no values): the caller then takes burn's ops.
pub fn group_norm_train<const D: usize>(
    x: Tensor<D>,
    gamma: Tensor<1>,
    beta: Tensor<1>,
    groups: usize,
    epsilon: f64,
    relu: bool,
) -> Option<(Tensor<D>, Tensor<2>, Tensor<2>)> {
    let dims = x.dims();
    if D < 2
        || groups == 0
        || !dims[1].is_multiple_of(groups)
        || dims.iter().product::<usize>() == 0
        || !(on_flex(&x) && on_flex(&gamma) && on_flex(&beta))
    {
        return None;
    }
    let c = dims[1];
    assert!(
        gamma.dims() == [c] && beta.dims() == [c],
        "group_norm_train: γ {:?} and β {:?} for {c} channels",
        gamma.dims(),
        beta.dims()
    );
    let stats: Tensor<2> = Tensor::from_dispatch(<Dispatch as LeNetKernels>::lenet_gn_stats(
        x.clone().into_dispatch(),
        groups,
    ));
    let out = Tensor::from_dispatch(<Dispatch as LeNetKernels>::lenet_gn(
        x.into_dispatch(),
        gamma.into_dispatch(),
        beta.into_dispatch(),
        stats.clone().into_dispatch(),
        epsilon,
        relu,
    ));
    let b = dims[0];
    Some((out, stats.clone().slice([0..b, 0..groups]), stats.slice([0..b, groups..2 * groups])))
}

/// `relu(x + bias)` with the bias per channel (`[B, C, …]` and `[C]`): one kernel on burn-flex,
/// burn's ops elsewhere.
pub fn bias_relu<const D: usize>(x: Tensor<D>, bias: Tensor<1>) -> Tensor<D> {
    if D >= 2 && on_flex(&x) && on_flex(&bias) {
        return Tensor::from_dispatch(<Dispatch as LeNetKernels>::lenet_bias_relu(
            x.into_dispatch(),
            bias.into_dispatch(),
        ));
    }
    let mut shape = [1; D];
    shape[1] = bias.dims()[0];
    burn::tensor::activation::relu(x.add(bias.reshape(shape)))
}

/// `[B, C, rest]` of a tensor `[B, C, …]`.
fn bn_dims(t: &FlexTensor) -> (usize, usize, usize) {
    let dims = t.shape().to_vec();
    (dims[0], dims.get(1).copied().unwrap_or(1), dims.iter().skip(2).product())
}

fn flat(data: Vec<f32>, shape: Vec<usize>) -> FlexTensor {
    FlexTensor::from_data(TensorData::new(data, shape))
}

/// The kernels of a forward pass, by one implementation: ours for a [`simd::Isa`] ([`direct`],
/// [`norm`]) or, with the `macerator` feature, their ports to macerator (`mac.rs`), run by the same
/// code around them for `compare`.
trait Forward: Copy + Sync {
    /// [`direct::forward`].
    fn conv(self, s: &Conv, offsets: &[usize], xp: &[f32], wt: &[f32], wide: &mut [f32]);
    /// [`norm::sums`].
    fn sums(self, x: &[f32], c: usize, s: usize, acc: &mut [f32]);
    /// [`norm::squares`].
    fn squares(self, x: &[f32], c: usize, s: usize, mean: &[f32], acc: &mut [f32]);
    /// [`norm::affine`].
    fn affine(
        self,
        x: &[f32],
        c: usize,
        s: usize,
        scale: &[f32],
        shift: &[f32],
        relu: bool,
        out: &mut [f32],
    );
}

impl Forward for simd::Isa {
    fn conv(self, s: &Conv, offsets: &[usize], xp: &[f32], wt: &[f32], wide: &mut [f32]) {
        direct::forward(self, s, offsets, xp, wt, wide);
    }

    fn sums(self, x: &[f32], c: usize, s: usize, acc: &mut [f32]) {
        norm::sums(self, x, c, s, acc);
    }

    fn squares(self, x: &[f32], c: usize, s: usize, mean: &[f32], acc: &mut [f32]) {
        norm::squares(self, x, c, s, mean, acc);
    }

    fn affine(
        self,
        x: &[f32],
        c: usize,
        s: usize,
        scale: &[f32],
        shift: &[f32],
        relu: bool,
        out: &mut [f32],
    ) {
        norm::affine(self, x, c, s, scale, shift, relu, out);
    }
}

/// Per channel, the mean and the biased variance over the batch and the rest (two passes, each
/// split over samples across threads), as `[2, C]` flattened: means, then variances.
fn bn_stats(x: &FlexTensor) -> FlexTensor {
    let (b, c, s) = bn_dims(x);
    flat(bn_stats_by(simd::Isa::best(), &values(x), b, c, s), vec![2 * c])
}

/// [`bn_stats`] of `xv` `[b, c, s]` by `kernels`.
fn bn_stats_by(kernels: impl Forward, xv: &[f32], b: usize, c: usize, s: usize) -> Vec<f32> {
    let n = (b * s) as f32;
    let samples = |range: std::ops::Range<usize>| &xv[range.start * c * s..range.end * c * s];
    let sums = sum_over_samples(b, |range| {
        let mut acc = vec![0f32; c];
        kernels.sums(samples(range), c, s, &mut acc);
        acc
    });
    let mean: Vec<f32> = sums.into_iter().map(|v| v / n).collect();
    let var = sum_over_samples(b, |range| {
        let mut acc = vec![0f32; c];
        kernels.squares(samples(range), c, s, &mean, &mut acc);
        acc
    });
    mean.iter().copied().chain(var.into_iter().map(|v| v / n)).collect()
}

/// `scale · x + shift` per channel, with `scale = γ/√(var + ε)` and `shift = β − mean · scale`.
fn bn_forward(
    x: &FlexTensor,
    gamma: &FlexTensor,
    beta: &FlexTensor,
    stats: &FlexTensor,
    epsilon: f64,
    relu: bool,
) -> FlexTensor {
    let (_, c, s) = bn_dims(x);
    let (xv, gv, bv, st) = (values(x), values(gamma), values(beta), values(stats));
    let out = bn_forward_by(simd::Isa::best(), &xv, c, s, (&gv, &bv, &st), epsilon, relu);
    flat(out, x.shape().to_vec())
}

/// [`bn_forward`] of `xv` `[…, c, s]` by `kernels`, with γ, β and the statistics.
fn bn_forward_by(
    kernels: impl Forward,
    xv: &[f32],
    c: usize,
    s: usize,
    (gv, bv, st): (&[f32], &[f32], &[f32]),
    epsilon: f64,
    relu: bool,
) -> Vec<f32> {
    let scale: Vec<f32> = (0..c).map(|ch| gv[ch] / (st[c + ch] + epsilon as f32).sqrt()).collect();
    let shift: Vec<f32> = (0..c).map(|ch| bv[ch] - st[ch] * scale[ch]).collect();
    let mut out = vec![0f32; xv.len()];
    for_samples(&mut out, c * s, |first, rows| {
        kernels.affine(&xv[first * c * s..][..rows.len()], c, s, &scale, &shift, relu, rows);
    });
    out
}

/// BatchNorm's backward on batch statistics, per channel with `x̂ = (x − mean)/σ`, `σ = √(var + ε)`
/// and `N` values: `dβ = Σ dy`, `dγ = Σ dy·x̂`, `dx = γ/σ · (dy − dβ/N − x̂ · dγ/N)` (when asked).
/// With `relu_beta` (β, when a ReLU followed), `dy` is first zeroed where the output was not positive.
fn bn_backward(
    x: &FlexTensor,
    gamma: &FlexTensor,
    relu_beta: Option<&FlexTensor>,
    stats: &FlexTensor,
    epsilon: f64,
    grad: &FlexTensor,
    want_dx: bool,
) -> (Option<FlexTensor>, FlexTensor, FlexTensor) {
    let (b, c, s) = bn_dims(x);
    let (xv, gv, st, dy) = (values(x), values(gamma), values(stats), values(grad));
    let (n, isa) = ((b * s) as f32, simd::Isa::best());
    let inv: Vec<f32> = (0..c).map(|ch| 1.0 / (st[c + ch] + epsilon as f32).sqrt()).collect();
    // The ReLU's gate: the output `x·scale + shift` was positive (all open without a ReLU).
    let (scale, shift): (Vec<f32>, Vec<f32>) = match relu_beta {
        Some(beta) => {
            let bv = values(beta);
            (0..c).map(|ch| (gv[ch] * inv[ch], bv[ch] - st[ch] * gv[ch] * inv[ch])).unzip()
        }
        None => (vec![0.0; c], vec![1.0; c]),
    };
    let gate = (&scale[..], &shift[..]);
    // Σ dy and Σ dy·(x − mean), per channel.
    let sums = sum_over_samples(b, |range| {
        let mut acc = vec![0f32; 2 * c];
        let run = range.start * c * s..range.end * c * s;
        norm::bn_grad_sums(isa, &xv[run.clone()], &dy[run], c, s, &st[..c], gate, &mut acc);
        acc
    });
    let dbeta: Vec<f32> = sums[..c].to_vec();
    let dgamma: Vec<f32> = (0..c).map(|ch| sums[c + ch] * inv[ch]).collect();
    let dx = want_dx.then(|| {
        // dx = a·dy + b·x + k per channel.
        let a: Vec<f32> = (0..c).map(|ch| gv[ch] * inv[ch]).collect();
        let bx: Vec<f32> = (0..c).map(|ch| -a[ch] * inv[ch] * dgamma[ch] / n).collect();
        let k: Vec<f32> = (0..c).map(|ch| -a[ch] * dbeta[ch] / n - bx[ch] * st[ch]).collect();
        let mut out = vec![0f32; xv.len()];
        for_samples(&mut out, c * s, |first, rows| {
            let run = first * c * s..first * c * s + rows.len();
            norm::bn_dx(isa, &xv[run.clone()], &dy[run], c, s, (&a, &bx, &k), gate, rows);
        });
        flat(out, x.shape().to_vec())
    });
    (dx, flat(dgamma, vec![c]), flat(dbeta, vec![c]))
}

/// `max(x + bias, 0)`, the bias per channel of `[B, C, …]`.
fn bias_relu_forward(x: &FlexTensor, bias: &FlexTensor) -> FlexTensor {
    let (_, c, s) = bn_dims(x);
    let (xv, bv) = (values(x), values(bias));
    let (mut out, isa, ones) = (vec![0f32; xv.len()], simd::Isa::best(), vec![1.0; c]);
    for_samples(&mut out, c * s, |first, rows| {
        // x·1 + bias is x + bias exactly.
        norm::affine(isa, &xv[first * c * s..][..rows.len()], c, s, &ones, &bv, true, rows);
    });
    flat(out, x.shape().to_vec())
}

/// The gradients of [`bias_relu_forward`] from its output: `dx = dy` where the output is positive (else
/// 0), `dbias = Σ dx` per channel.
fn bias_relu_backward(out: &FlexTensor, grad: &FlexTensor) -> (FlexTensor, FlexTensor) {
    let (b, c, s) = bn_dims(out);
    let (ov, dy, isa) = (values(out), values(grad), simd::Isa::best());
    let mut dx = vec![0f32; ov.len()];
    for_samples(&mut dx, c * s, |first, rows| {
        let run = first * c * s..first * c * s + rows.len();
        norm::relu_grad(isa, &ov[run.clone()], &dy[run], rows);
    });
    let dbias = sum_over_samples(b, |range| {
        let mut acc = vec![0f32; c];
        norm::sums(isa, &dx[range.start * c * s..range.end * c * s], c, s, &mut acc);
        acc
    });
    (flat(dx, out.shape().to_vec()), flat(dbias, vec![c]))
}

/// A tensor's f32s in row-major order (a copy only when its layout is not already that).
fn values(t: &FlexTensor) -> std::borrow::Cow<'_, [f32]> {
    match t.as_slice::<f32>() {
        Some(s) => s.into(),
        None => {
            t.to_contiguous().as_slice::<f32>().expect("a contiguous f32 tensor").to_vec().into()
        }
    }
}

fn dims4(t: &FlexTensor) -> [usize; 4] {
    let dims = t.shape().dims::<4>();
    [dims[0], dims[1], dims[2], dims[3]]
}

fn tensor(data: Vec<f32>, shape: [usize; 4]) -> FlexTensor {
    FlexTensor::from_data(TensorData::new(data, shape))
}

/// The shapes of one convolution, and the padded layout the kernels work in.
///
/// One sample is copied into a zero-padded buffer `[C, HP, WP]` (HP = H + 2·pad, WP alike) with
/// `k − 1` more zeros at its end (and a vector's more, [`simd::LANES`]). In that buffer an output pixel (y, x) and a tap (c, i, j) read
/// the element at c·HP·WP + (y + i)·WP + x + j, so for a whole tap the output pixels, taken in
/// rows of WP (the last WP − OW of each row past the image: "spill" columns, computed and
/// dropped), read one contiguous run, which [`direct`]'s kernels read a vector at a time.
#[derive(Clone, Copy, Debug)]
struct Conv {
    batch: usize,
    cin: usize,
    h: usize,
    w: usize,
    cout: usize,
    k: usize,
    pad: usize,
    oh: usize,
    ow: usize,
    hp: usize,
    wp: usize,
}

impl Conv {
    fn new(x: &FlexTensor, weight: &FlexTensor, pad: usize) -> Self {
        Self::of(dims4(x), dims4(weight), pad)
    }

    /// The convolution of an input `[B, C, H, W]` with weights `[O, C, k, k]`, padded by `pad`.
    fn of(x: [usize; 4], weight: [usize; 4], pad: usize) -> Self {
        let [batch, cin, h, w] = x;
        let [cout, wc, k, k2] = weight;
        assert!(wc == cin && k == k2, "lenet_conv: weights {weight:?} for an input {x:?}");
        let (hp, wp) = (h + 2 * pad, w + 2 * pad);
        let (oh, ow) = ((hp + 1).checked_sub(k), (wp + 1).checked_sub(k));
        let (Some(oh), Some(ow)) = (oh, ow) else {
            panic!("lenet_conv: a {k}×{k} kernel over a {h}×{w} image padded by {pad}")
        };
        Self { batch, cin, h, w, cout, k, pad, oh, ow, hp, wp }
    }

    /// The taps (C·k·k), the values of one input sample, and the padded sample's length: the
    /// spill's k − 1 zeros and a vector's more ([`simd::LANES`]) included.
    fn sizes(&self) -> (usize, usize, usize) {
        (
            self.cin * self.k * self.k,
            self.cin * self.h * self.w,
            self.cin * self.hp * self.wp + self.k - 1 + simd::LANES,
        )
    }

    /// Where tap `r` = (c, i, j) starts reading in a padded sample.
    fn tap_offset(&self, r: usize) -> usize {
        let (c, i, j) = (r / (self.k * self.k), r / self.k % self.k, r % self.k);
        (c * self.hp + i) * self.wp + j
    }

    /// Every tap's [`tap_offset`](Self::tap_offset).
    fn tap_offsets(&self) -> Vec<usize> {
        (0..self.cin * self.k * self.k).map(|r| self.tap_offset(r)).collect()
    }

    /// Copies one sample `[C, H, W]` into the padded layout (`xp`'s padding is zero already and
    /// stays so).
    fn pad_into(&self, x: &[f32], xp: &mut [f32]) {
        for (row, src) in x.chunks_exact(self.w).enumerate() {
            let (c, y) = (row / self.h, row % self.h);
            xp[(c * self.hp + y + self.pad) * self.wp + self.pad..][..self.w].copy_from_slice(src);
        }
    }

    /// One sample's output gradient `[O, OH, OW]` into rows of `row` values laid out as the
    /// forward's output run, starting `at` into each row (the spill columns and the rest of `wide`
    /// keep the zeros they were made with).
    fn widen(&self, grad: &[f32], wide: &mut [f32], row: usize, at: usize) {
        for (plane, src) in grad.chunks_exact(self.oh * self.ow).enumerate() {
            for (y, src) in src.chunks_exact(self.ow).enumerate() {
                wide[plane * row + at + y * self.wp..][..self.ow].copy_from_slice(src);
            }
        }
    }

    /// One sample's output `[O, OH, OW]` from the forward's rows `[O, run]`, the spill columns
    /// dropped.
    fn narrow(&self, wide: &[f32], out: &mut [f32]) {
        let run = self.run();
        for (plane, dst) in out.chunks_exact_mut(self.oh * self.ow).enumerate() {
            for (y, dst) in dst.chunks_exact_mut(self.ow).enumerate() {
                dst.copy_from_slice(&wide[plane * run + y * self.wp..][..self.ow]);
            }
        }
    }
}

/// `y = W ⋆ x`, one sample at a time ([`direct::forward`]), the spill columns dropped.
fn conv_forward(isa: simd::Isa, x: &FlexTensor, weight: &FlexTensor, pad: usize) -> FlexTensor {
    let s = Conv::new(x, weight, pad);
    let y = conv_forward_by(isa, &s, &values(x), &values(weight));
    tensor(y, [s.batch, s.cout, s.oh, s.ow])
}

/// [`conv_forward`] of the values `x` and `w` by `kernels`.
fn conv_forward_by(kernels: impl Forward, s: &Conv, x: &[f32], w: &[f32]) -> Vec<f32> {
    let (taps, sample, padded) = s.sizes();
    let offsets = s.tap_offsets();
    // The weights as [taps][cout]: a tap's weights for a block of output channels side by side.
    let wt: Vec<f32> = (0..taps * s.cout).map(|i| w[(i % s.cout) * taps + i / s.cout]).collect();
    let out_sample = s.cout * s.oh * s.ow;
    let mut y = vec![0.0f32; s.batch * out_sample];
    for_samples(&mut y, out_sample, |first, out| {
        let (mut xp, mut wide) = (vec![0.0; padded], vec![0.0; s.cout * s.run()]);
        for (j, out) in out.chunks_exact_mut(out_sample).enumerate() {
            s.pad_into(&x[(first + j) * sample..][..sample], &mut xp);
            kernels.conv(s, &offsets, &xp, &wt, &mut wide);
            s.narrow(&wide, out);
        }
    });
    y
}

/// `dW`, each thread summing its samples' ([`direct::weight_grad`]).
fn conv_weight_grad(
    isa: simd::Isa,
    x: &FlexTensor,
    weight: &FlexTensor,
    grad: &FlexTensor,
    pad: usize,
) -> FlexTensor {
    let s = Conv::new(x, weight, pad);
    let (x, grad) = (values(x), values(grad));
    let (taps, sample, padded) = s.sizes();
    let offsets = s.tap_offsets();
    let out_sample = s.cout * s.oh * s.ow;
    // Samples per kernel call: as many as keep their inputs and gradients within 256 KiB.
    let group = ((1 << 16) / (padded + s.cout * s.run())).max(1);
    let partial = |range: std::ops::Range<usize>| {
        let mut sums = vec![0.0f32; s.cout * taps * simd::LANES];
        let g = group.min(range.len()).max(1);
        let (mut xp, mut gw) = (vec![0.0; g * padded], vec![0.0; g * s.cout * s.run()]);
        for first in range.clone().step_by(g) {
            let n = g.min(range.end - first);
            for j in 0..n {
                let b = first + j;
                s.pad_into(&x[b * sample..][..sample], &mut xp[j * padded..][..padded]);
                s.widen(
                    &grad[b * out_sample..][..out_sample],
                    &mut gw[j * s.cout * s.run()..],
                    s.run(),
                    0,
                );
            }
            direct::weight_grad(
                isa,
                &s,
                &offsets,
                &xp,
                padded,
                &gw[..n * s.cout * s.run()],
                &mut sums,
            );
        }
        direct::lane_sums(&sums)
    };
    let dw = sum_over_samples(s.batch, partial);
    tensor(dw, [s.cout, s.cin, s.k, s.k])
}

/// `dx`, one sample at a time ([`direct::input_grad`]), the padding dropped.
fn conv_input_grad(
    isa: simd::Isa,
    x: &FlexTensor,
    weight: &FlexTensor,
    grad: &FlexTensor,
    pad: usize,
) -> FlexTensor {
    let s = Conv::new(x, weight, pad);
    let (w, grad) = (values(weight), values(grad));
    let (_, sample, _) = s.sizes();
    let (row, run) = (s.margin_row(), s.image_run());
    let out_sample = s.cout * s.oh * s.ow;
    let mut dx = vec![0.0f32; s.batch * sample];
    for_samples(&mut dx, sample, |first, out| {
        let (mut gm, mut wide) = (vec![0.0; s.cout * row], vec![0.0; s.cin * run]);
        for (j, dx) in out.chunks_exact_mut(sample).enumerate() {
            s.widen(&grad[(first + j) * out_sample..][..out_sample], &mut gm, row, s.margin());
            direct::input_grad(isa, &s, &w, &gm, &mut wide);
            for (r, dst) in dx.chunks_exact_mut(s.w).enumerate() {
                let (c, y) = (r / s.h, r % s.h);
                dst.copy_from_slice(&wide[c * run + y * s.wp + s.pad..][..s.w]);
            }
        }
    });
    tensor(dx, [s.batch, s.cin, s.h, s.w])
}

/// 2×2 max-pooling ([`pool::forward`]), the samples split across threads.
fn pool_forward(x: &FlexTensor) -> FlexTensor {
    let [b, c, h, w] = dims4(x);
    let x = values(x);
    let (oh, ow, isa) = (h / 2, w / 2, simd::Isa::best());
    let mut y = vec![0.0f32; b * c * oh * ow];
    for_samples(&mut y, c * oh * ow, |first, out| {
        let samples = out.len() / (c * oh * ow).max(1);
        pool::forward(isa, &x[first * c * h * w..][..samples * c * h * w], h, w, out);
    });
    tensor(y, [b, c, oh, ow])
}

/// The gradient of [`pool_forward`] ([`pool::backward`]), the samples split across threads.
fn pool_backward(x: &FlexTensor, grad: &FlexTensor) -> FlexTensor {
    let [b, c, h, w] = dims4(x);
    let (x, g) = (values(x), values(grad));
    let (oh, ow, isa) = (h / 2, w / 2, simd::Isa::best());
    let mut dx = vec![0.0f32; b * c * h * w];
    for_samples(&mut dx, c * h * w, |first, out| {
        let samples = out.len() / (c * h * w).max(1);
        let (x, g) = (
            &x[first * c * h * w..][..out.len()],
            &g[first * c * oh * ow..][..samples * c * oh * ow],
        );
        pool::backward(isa, x, g, h, w, out);
    });
    tensor(dx, [b, c, h, w])
}

/// Runs `f(first_sample, rows)` over `out` cut into runs of whole samples (`per_sample` values
/// each), one run per thread.
fn for_samples(out: &mut [f32], per_sample: usize, f: impl Fn(usize, &mut [f32]) + Sync) {
    let samples = out.len() / per_sample.max(1);
    #[cfg(not(target_arch = "wasm32"))]
    {
        use rayon::prelude::*;
        let per_thread = samples.div_ceil(rayon::current_num_threads()).max(1);
        if per_thread < samples {
            out.par_chunks_mut(per_thread * per_sample)
                .enumerate()
                .for_each(|(t, chunk)| f(t * per_thread, chunk));
            return;
        }
    }
    let _ = samples;
    f(0, out);
}

/// [`for_samples`] over two outputs at once, `a` with `per_a` values a sample and `b` with `per_b`
/// (both positive): `f(first_sample, a_rows, b_rows)`.
fn for_samples_pair(
    a: &mut [f32],
    per_a: usize,
    b: &mut [f32],
    per_b: usize,
    f: impl Fn(usize, &mut [f32], &mut [f32]) + Sync,
) {
    let samples = a.len() / per_a.max(1);
    #[cfg(not(target_arch = "wasm32"))]
    {
        use rayon::prelude::*;
        let per_thread = samples.div_ceil(rayon::current_num_threads()).max(1);
        if per_thread < samples {
            a.par_chunks_mut(per_thread * per_a)
                .zip(b.par_chunks_mut(per_thread * per_b))
                .enumerate()
                .for_each(|(t, (a, b))| f(t * per_thread, a, b));
            return;
        }
    }
    let _ = (samples, per_b);
    f(0, a, b);
}

/// The sum over threads of `partial(samples)`, each thread taking a run of the `batch` samples.
fn sum_over_samples(
    batch: usize,
    partial: impl Fn(std::ops::Range<usize>) -> Vec<f32> + Sync,
) -> Vec<f32> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        use rayon::prelude::*;
        let per_thread = batch.div_ceil(rayon::current_num_threads()).max(1);
        if per_thread < batch {
            let runs: Vec<_> =
                (0..batch).step_by(per_thread).map(|s| s..(s + per_thread).min(batch)).collect();
            // Added in the runs' order, whichever thread finished first: the same sums every time.
            let partials: Vec<Vec<f32>> = runs.into_par_iter().map(&partial).collect();
            return partials
                .into_iter()
                .reduce(|mut a, b| {
                    a.iter_mut().zip(&b).for_each(|(a, b)| *a += b);
                    a
                })
                .expect("a batch of at least two samples has at least two runs");
        }
    }
    partial(0..batch)
}

#[cfg(test)]
mod tests {
    use burn::tensor::ops::{ConvOptions, MaxPoolOptions};
    use burn::tensor::{Device, Distribution, Tensor, Tolerance};

    fn close<const D: usize>(ours: Tensor<D>, theirs: Tensor<D>) {
        ours.into_data()
            .assert_approx_eq::<f32>(&theirs.into_data(), Tolerance::rel_abs(1e-4, 1e-4));
    }

    /// Our convolution against burn's, forward and both gradients, at LeNet's two shapes, one with
    /// a padding wider than usual and an odd image, and a batch split across threads.
    #[test]
    fn conv_matches_burn() {
        let device = Device::flex().autodiff();
        // The fourth: more samples than one thread's share.
        for (b, cin, cout, h, w, pad) in [
            (3, 1, 6, 28, 28, 2),
            (4, 6, 16, 14, 14, 0),
            (2, 2, 3, 7, 9, 3),
            (31, 6, 16, 14, 14, 0),
        ] {
            let x = Tensor::<4>::random([b, cin, h, w], Distribution::Normal(0.0, 1.0), &device);
            let wt =
                Tensor::<4>::random([cout, cin, 5, 5], Distribution::Normal(0.0, 1.0), &device);
            let (oh, ow) = (h + 2 * pad - 4, w + 2 * pad - 4);
            let g = Tensor::<4>::random([b, cout, oh, ow], Distribution::Normal(0.0, 1.0), &device);
            let options = ConvOptions::new([1, 1], [pad, pad], [1, 1], 1);
            // The comparison means something only if our side takes our kernels.
            assert!(super::on_flex(&x.clone().require_grad()) && super::on_flex(&wt));
            let run = |fast: bool| {
                let (x, wt) =
                    (x.clone().detach().require_grad(), wt.clone().detach().require_grad());
                let y = if fast {
                    super::conv2d(x.clone(), wt.clone(), options.clone())
                } else {
                    burn::tensor::module::conv2d(x.clone(), wt.clone(), None, options.clone())
                };
                let grads = y.clone().mul(g.clone()).sum().backward();
                (y.detach(), x.grad(&grads).expect("dx"), wt.grad(&grads).expect("dw"))
            };
            let (ours, theirs) = (run(true), run(false));
            assert_eq!(ours.0.dims(), [b, cout, oh, ow]);
            // Absolute 1e-3, as below: sums of 100–3,000 products taken in another order than
            // burn's, some of them near zero, once in ~75 runs fell just past 1e-4 (an indexing
            // slip is off by O(1)).
            let near = |ours: Tensor<4>, theirs: Tensor<4>| {
                ours.into_data()
                    .assert_approx_eq::<f32>(&theirs.into_data(), Tolerance::rel_abs(1e-4, 1e-3));
            };
            near(ours.0, theirs.0);
            near(ours.1, theirs.1);
            near(ours.2, theirs.2);
        }
    }

    /// Each instruction set's convolution kernels this CPU runs (AVX-512, AVX2, plain; the
    /// training takes the widest) against burn's `conv2d` and its gradients, on FlexTensors
    /// directly: LeNet's shapes, an odd image with a padding wider than usual (windows of zeros
    /// only), 3×3 kernels, channel counts that take every block size, a single sample, and — on
    /// one thread as well as on all — a batch taken in several groups with a short last one.
    #[test]
    fn conv_kernels_match_burn_on_every_isa() {
        use burn::backend::flex::FlexTensor;
        let device = Device::flex().autodiff();
        let flex = |t: Tensor<4>| -> FlexTensor { FlexTensor::from_data(t.inner().into_data()) };
        let isas = super::simd::Isa::available();
        assert!(isas.contains(&super::simd::Isa::Plain));
        let shapes = [
            (3, 1, 6, 28, 28, 5, 2),
            (4, 6, 16, 14, 14, 5, 0),
            (2, 2, 3, 7, 9, 5, 3),
            (5, 7, 9, 6, 5, 3, 1),
            (1, 5, 4, 6, 5, 3, 3),
            (67, 6, 16, 14, 14, 5, 0),
        ];
        let one_thread =
            rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a thread pool");
        for (b, cin, cout, h, w, k, pad) in shapes {
            let x = Tensor::<4>::random([b, cin, h, w], Distribution::Normal(0.0, 1.0), &device)
                .require_grad();
            let wt =
                Tensor::<4>::random([cout, cin, k, k], Distribution::Normal(0.0, 1.0), &device)
                    .require_grad();
            let (oh, ow) = (h + 2 * pad + 1 - k, w + 2 * pad + 1 - k);
            let g = Tensor::<4>::random([b, cout, oh, ow], Distribution::Normal(0.0, 1.0), &device);
            let y = burn::tensor::module::conv2d(
                x.clone(),
                wt.clone(),
                None,
                ConvOptions::new([1, 1], [pad, pad], [1, 1], 1),
            );
            let grads = y.clone().mul(g.clone()).sum().backward();
            let (dx, dw) = (x.grad(&grads).expect("dx"), wt.grad(&grads).expect("dw"));
            let (fx, fw, fg) = (flex(x.clone()), flex(wt.clone()), flex(g.clone()));
            let runs = isas.iter().flat_map(|&isa| [(isa, false), (isa, true)]);
            for (isa, alone) in runs {
                let back = |t: FlexTensor, shape: [usize; 4]| {
                    let data = t.into_data();
                    assert_eq!(data.shape().to_vec(), shape.to_vec(), "{isa:?}");
                    Tensor::<4>::from_data(data, &Device::flex())
                };
                // Absolute 1e-3: the weight gradient of 67 samples sums ~6,700 products in another
                // order than burn (an indexing slip is off by O(1)).
                let near = |ours: Tensor<4>, theirs: Tensor<4>| {
                    ours.into_data().assert_approx_eq::<f32>(
                        &theirs.inner().into_data(),
                        Tolerance::rel_abs(1e-4, 1e-3),
                    );
                };
                let ours = || {
                    let y = super::conv_forward(isa, &fx, &fw, pad);
                    (
                        y,
                        super::conv_weight_grad(isa, &fx, &fw, &fg, pad),
                        super::conv_input_grad(isa, &fx, &fw, &fg, pad),
                    )
                };
                let (oy, odw, odx) = if alone { one_thread.install(ours) } else { ours() };
                near(back(oy, [b, cout, oh, ow]), y.clone().detach());
                near(back(odw, [cout, cin, k, k]), dw.clone());
                near(back(odx, [b, cin, h, w]), dx.clone());
            }
        }
    }

    /// Our pooling against burn's, forward and gradient, on an even and an odd image.
    #[test]
    fn pool_matches_burn() {
        let device = Device::flex().autodiff();
        for (h, w) in [(28, 28), (5, 7)] {
            let x = Tensor::<4>::random([3, 2, h, w], Distribution::Normal(0.0, 1.0), &device);
            let g =
                Tensor::<4>::random([3, 2, h / 2, w / 2], Distribution::Normal(0.0, 1.0), &device);
            let run = |fast: bool| {
                let x = x.clone().detach().require_grad();
                let y = if fast {
                    super::max_pool2x2(x.clone())
                } else {
                    burn::tensor::module::max_pool2d(
                        x.clone(),
                        MaxPoolOptions::new([2, 2]).with_stride([2, 2]),
                    )
                };
                let grads = y.clone().mul(g.clone()).sum().backward();
                (y.detach(), x.grad(&grads).expect("dx"))
            };
            let (ours, theirs) = (run(true), run(false));
            close(ours.0, theirs.0);
            close(ours.1, theirs.1);
        }
    }

    /// Other backends keep burn's ops (burn-ndarray here).
    #[test]
    #[allow(deprecated)]
    fn other_backends_keep_burns_ops() {
        let x = Tensor::<4>::random([1, 1, 4, 4], Distribution::Default, &Device::ndarray());
        assert!(!super::on_flex(&x));
        assert!(super::on_flex(&Tensor::<4>::random(
            [1, 1, 4, 4],
            Distribution::Default,
            &Device::flex()
        )));
        assert_eq!(super::max_pool2x2(x).dims(), [1, 1, 2, 2]);
    }

    /// Ties go to the first element of a window (after a ReLU most windows are all zeros), and the
    /// kernels also run without autodiff.
    #[test]
    fn pool_ties_and_plain_flex() {
        let values = [[[[0.0, 0.0, 1.0, 3.0], [0.0, 0.0, 3.0, 2.0]]]];
        let device = Device::flex();
        let x = Tensor::<4>::from_floats(values, &device);
        close(super::max_pool2x2(x), Tensor::<4>::from_floats([[[[0.0, 3.0]]]], &device));
        let x = Tensor::<4>::from_floats(values, &Device::flex().autodiff()).require_grad();
        let grads = super::max_pool2x2(x.clone()).sum().backward();
        close(
            x.grad(&grads).expect("dx"),
            Tensor::<4>::from_floats(
                [[[[1.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 0.0]]]],
                &Device::flex(),
            ),
        );
    }
    /// Our bias + ReLU against burn's add and relu: output and the gradients of x and the bias.
    #[test]
    fn bias_relu_matches_burn() {
        let device = Device::flex().autodiff();
        fn check<const D: usize>(shape: [usize; D], device: &Device) {
            let x = Tensor::<D>::random(shape, Distribution::Normal(0.0, 1.0), device);
            let bias = Tensor::<1>::random([shape[1]], Distribution::Normal(0.0, 1.0), device);
            let g = Tensor::<D>::random(shape, Distribution::Normal(0.0, 1.0), device);
            let run = |fast: bool| {
                let (x, bias) = (x.clone().require_grad(), bias.clone().require_grad());
                let y = if fast {
                    assert!(super::on_flex(&x));
                    super::bias_relu(x.clone(), bias.clone())
                } else {
                    let mut shape = [1; D];
                    shape[1] = bias.dims()[0];
                    burn::tensor::activation::relu(x.clone().add(bias.clone().reshape(shape)))
                };
                let grads = y.clone().mul(g.clone()).sum().backward();
                (y.detach(), x.grad(&grads).expect("dx"), bias.grad(&grads).expect("db"))
            };
            let (ours, theirs) = (run(true), run(false));
            close(ours.0, theirs.0);
            close(ours.1, theirs.1);
            close(ours.2, theirs.2);
        }
        check([31, 6, 14, 14], &device);
        check([9, 84], &device);
    }

    /// BatchNorm on batch statistics in burn's ops, summed along the layout `[B, C, rest]` as ours
    /// is: spotlight-core's `model::batch_norm_train`, which its tests check against burn's own
    /// `batch_norm_train` (whose sums, taken in another order, differ from ours by up to ~4e-4
    /// relative at these sizes). The output, the batch mean and the biased variance.
    fn composed_batch_norm<const D: usize>(
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

    /// Our BatchNorm against the composition of burn ops it replaces ([`composed_batch_norm`]):
    /// output, batch mean and variance, and the gradients of x, γ and β, for conv (4-D) and dense
    /// (2-D) inputs, batches split across threads; and without autodiff.
    #[test]
    fn batch_norm_matches_burn() {
        fn check<const D: usize>(shape: [usize; D], relu: bool, device: &Device) {
            let c = shape[1];
            let x = Tensor::<D>::random(shape, Distribution::Normal(0.5, 2.0), device);
            let g = Tensor::<D>::random(shape, Distribution::Normal(0.0, 1.0), device);
            let gamma = Tensor::<1>::random([c], Distribution::Uniform(0.5, 1.5), device);
            let beta = Tensor::<1>::random([c], Distribution::Normal(0.0, 1.0), device);
            let run = |fast: bool| {
                let (x, gamma, beta) = (
                    x.clone().require_grad(),
                    gamma.clone().require_grad(),
                    beta.clone().require_grad(),
                );
                let (y, mean, var) = if fast {
                    super::batch_norm_train(x.clone(), gamma.clone(), beta.clone(), 1e-5, relu)
                        .expect("on burn-flex")
                } else {
                    let (y, mean, var) =
                        composed_batch_norm(x.clone(), gamma.clone(), beta.clone(), 1e-5);
                    (if relu { burn::tensor::activation::relu(y) } else { y }, mean, var)
                };
                let grads = y.clone().mul(g.clone()).sum().backward();
                (
                    y.detach(),
                    mean.detach(),
                    var.detach(),
                    x.grad(&grads).expect("dx"),
                    gamma.grad(&grads).expect("dγ"),
                    beta.grad(&grads).expect("dβ"),
                )
            };
            let (ours, theirs) = (run(true), run(false));
            close(ours.0, theirs.0);
            close(ours.1, theirs.1);
            close(ours.2, theirs.2);
            close(ours.3, theirs.3);
            close(ours.4, theirs.4);
            close(ours.5, theirs.5);
        }
        let device = Device::flex().autodiff();
        for relu in [false, true] {
            check([8, 3, 5, 4], relu, &device);
            check([31, 6, 14, 14], relu, &device);
            check([8, 7], relu, &device);
            check([64, 120], relu, &device);
        }
        // Without autodiff: the same forward.
        let plain = Device::flex();
        let x = Tensor::<2>::random([6, 4], Distribution::Normal(0.0, 3.0), &plain);
        let (gamma, beta) = (Tensor::<1>::ones([4], &plain), Tensor::<1>::zeros([4], &plain));
        let (ours, _, _) =
            super::batch_norm_train(x.clone(), gamma.clone(), beta.clone(), 1e-5, false)
                .expect("on burn-flex");
        close(ours, composed_batch_norm(x, gamma, beta, 1e-5).0);
    }

    /// Per sample and group of `x` (`[B, C, …]` flattened, `b` samples), the mean and the biased
    /// variance by plain loops in f64: `[B, groups]` each.
    fn plain_group_stats(x: &[f32], b: usize, groups: usize) -> (Vec<f32>, Vec<f32>) {
        let n = x.len() / (b * groups);
        x.chunks_exact(n)
            .map(|v| {
                let mean = v.iter().map(|&v| f64::from(v)).sum::<f64>() / n as f64;
                let var = v.iter().map(|&v| (f64::from(v) - mean).powi(2)).sum::<f64>() / n as f64;
                (mean as f32, var as f32)
            })
            .unzip()
    }

    /// Our GroupNorm against burn's `nn::GroupNorm` (affine, γ and β random), with and without the
    /// ReLU after it: the output and the gradients of x, γ and β through
    /// [`super::group_norm_train`] (Autodiff<Flex>, the widest vector unit) and through the kernels
    /// of each vector unit this CPU runs, on FlexTensors directly, on all threads and on one (β's
    /// and γ's gradients also without x's); the statistics against plain loops. Conv (4-D) and
    /// dense (2-D) inputs, from LayerNorm's one group to one channel a group.
    #[test]
    fn group_norm_matches_burn_on_every_isa() {
        use burn::backend::flex::FlexTensor;
        use burn::module::Param;
        use burn::nn::GroupNormConfig;
        use burn::tensor::TensorData;

        /// Within `tolerance`, or a panic that says what.
        fn within(ours: TensorData, theirs: &TensorData, tolerance: f64, what: &str) {
            assert_eq!(ours.shape(), theirs.shape(), "{what}");
            let tolerance = Tolerance::rel_abs(tolerance, tolerance);
            let same = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                ours.assert_approx_eq::<f32>(theirs, tolerance);
            }));
            assert!(same.is_ok(), "{what}");
        }
        fn near(ours: TensorData, theirs: &TensorData, what: &str) {
            within(ours, theirs, 1e-4, what);
        }
        // x's gradient within 1e-3: in a group of a few values (3 in [8, 12] with 4 groups) the
        // variance can be small and 1/σ² multiplies the sums' rounding, ours and burn's (taken in
        // other orders). Against an f64 computation, ours was within 9e-5 relative (to 1 + |dx|)
        // and burn's off by up to 6e-4 absolute, over 3,000 random draws (an indexing slip is off
        // by O(1)).
        fn near_dx(ours: TensorData, theirs: &TensorData, what: &str) {
            within(ours, theirs, 1e-3, what);
        }
        fn check<const D: usize>(shape: [usize; D], groups: usize, relu: bool) {
            let device = Device::flex().autodiff();
            let (b, c) = (shape[0], shape[1]);
            let x = Tensor::<D>::random(shape, Distribution::Normal(0.5, 2.0), &device);
            let g = Tensor::<D>::random(shape, Distribution::Normal(0.0, 1.0), &device);
            let gamma = Tensor::<1>::random([c], Distribution::Uniform(0.5, 1.5), &device);
            let beta = Tensor::<1>::random([c], Distribution::Normal(0.0, 1.0), &device);
            let case = format!("{shape:?}, {groups} groups, ReLU {relu}");
            // burn's: the output, then the gradients of x, γ and β.
            let theirs: [TensorData; 4] = {
                let x = x.clone().require_grad();
                let mut gn = GroupNormConfig::new(groups, c).init(&device);
                gn.gamma = Some(Param::from_tensor(gamma.clone()));
                gn.beta = Some(Param::from_tensor(beta.clone()));
                let y = gn.forward(x.clone());
                let y = if relu { burn::tensor::activation::relu(y) } else { y };
                let grads = y.clone().mul(g.clone()).sum().backward();
                let param = |p: &Option<Param<Tensor<1>>>| {
                    p.as_ref().expect("affine").val().grad(&grads).expect("a gradient").into_data()
                };
                [
                    y.into_data(),
                    x.grad(&grads).expect("dx").into_data(),
                    param(&gn.gamma),
                    param(&gn.beta),
                ]
            };
            let xv = x.clone().into_data().try_to_vec::<f32>().expect("f32s");
            let (mean, var) = plain_group_stats(&xv, b, groups);
            let (mean, var) =
                (TensorData::new(mean, [b, groups]), TensorData::new(var, [b, groups]));

            // The public path.
            let (xg, gg, bg) = (
                x.clone().require_grad(),
                gamma.clone().require_grad(),
                beta.clone().require_grad(),
            );
            let (y, m, v) =
                super::group_norm_train(xg.clone(), gg.clone(), bg.clone(), groups, 1e-5, relu)
                    .expect("on burn-flex");
            assert!(!m.is_require_grad() && !v.is_require_grad(), "{case}: statistics tracked");
            let grads = y.clone().mul(g.clone()).sum().backward();
            let what = |name: &str| format!("{case}: {name}");
            near(y.into_data(), &theirs[0], &what("y"));
            near_dx(xg.grad(&grads).expect("dx").into_data(), &theirs[1], &what("dx"));
            near(gg.grad(&grads).expect("dγ").into_data(), &theirs[2], &what("dγ"));
            near(bg.grad(&grads).expect("dβ").into_data(), &theirs[3], &what("dβ"));
            near(m.into_data(), &mean, &what("mean"));
            near(v.into_data(), &var, &what("variance"));

            // Each vector unit's kernels.
            let flex = |t: TensorData| FlexTensor::from_data(t);
            let (fx, fg) = (flex(x.inner().into_data()), flex(g.inner().into_data()));
            let (fgamma, fbeta) = (flex(gamma.inner().into_data()), flex(beta.inner().into_data()));
            let one_thread =
                rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a thread pool");
            for isa in super::simd::Isa::available() {
                for alone in [false, true] {
                    let what = |name: &str| format!("{case}, {isa:?}, one thread {alone}: {name}");
                    let run = || {
                        let stats = super::group::stats(isa, &fx, groups);
                        let y =
                            super::group::forward(isa, &fx, (&fgamma, &fbeta), &stats, 1e-5, relu);
                        let gate = relu.then_some(&fbeta);
                        let back = |want_dx| {
                            super::group::backward(
                                isa,
                                &fx,
                                (&fgamma, gate),
                                &stats,
                                1e-5,
                                &fg,
                                want_dx,
                            )
                        };
                        let (with, without) = (back(true), back(false));
                        (stats, y, with, without)
                    };
                    let (stats, y, (dx, dgamma, dbeta), (none, dgamma2, dbeta2)) =
                        if alone { one_thread.install(run) } else { run() };
                    assert!(none.is_none(), "{}", what("dx not asked for"));
                    let sv = stats.into_data().try_to_vec::<f32>().expect("f32s");
                    let half = |i: usize| {
                        let rows = sv.chunks_exact(2 * groups);
                        let v: Vec<f32> =
                            rows.flat_map(|r| r[i * groups..][..groups].to_vec()).collect();
                        TensorData::new(v, [b, groups])
                    };
                    near(half(0), &mean, &what("mean"));
                    near(half(1), &var, &what("variance"));
                    near(y.into_data(), &theirs[0], &what("y"));
                    near_dx(dx.expect("dx").into_data(), &theirs[1], &what("dx"));
                    let dgamma = dgamma.into_data();
                    near(dgamma2.into_data(), &dgamma, &what("dγ without dx"));
                    near(dgamma, &theirs[2], &what("dγ"));
                    let dbeta = dbeta.into_data();
                    near(dbeta2.into_data(), &dbeta, &what("dβ without dx"));
                    near(dbeta, &theirs[3], &what("dβ"));
                }
            }
        }
        for relu in [false, true] {
            for groups in [1, 2, 3, 6] {
                check([8, 6, 5, 4], groups, relu);
            }
            check([3, 6, 28, 28], 3, relu);
            for groups in [1, 4] {
                check([8, 12], groups, relu);
            }
        }
    }

    /// GroupNorm without autodiff gives burn's forward; where the kernel does not apply (groups not
    /// dividing the channels, other backends) `group_norm_train` says so.
    #[test]
    #[allow(deprecated)]
    fn group_norm_plain_flex_and_fallbacks() {
        use burn::nn::GroupNormConfig;
        let plain = Device::flex();
        let x = Tensor::<4>::random([5, 6, 3, 7], Distribution::Normal(0.0, 3.0), &plain);
        let (gamma, beta) = (Tensor::<1>::ones([6], &plain), Tensor::<1>::zeros([6], &plain));
        let (ours, _, _) =
            super::group_norm_train(x.clone(), gamma.clone(), beta.clone(), 2, 1e-5, false)
                .expect("on burn-flex");
        close(ours, GroupNormConfig::new(2, 6).init(&plain).forward(x.clone()));
        assert!(super::group_norm_train(x, gamma, beta, 4, 1e-5, false).is_none());
        let ndarray = Device::ndarray();
        let x = Tensor::<2>::random([4, 6], Distribution::Default, &ndarray);
        let (gamma, beta) = (Tensor::<1>::ones([6], &ndarray), Tensor::<1>::zeros([6], &ndarray));
        assert!(super::group_norm_train(x, gamma, beta, 2, 1e-5, false).is_none());
    }

    /// Rough timings (run with `--ignored --nocapture`, release): GroupNorm's kernels (stats,
    /// forward with ReLU, backward with x's gradient) against BatchNorm's at LeNet's first layer,
    /// `[128, 6, 28, 28]`; the median of 20 runs.
    #[test]
    #[ignore]
    fn group_norm_timing() {
        use burn::backend::flex::FlexTensor;
        use std::time::Instant;
        let device = Device::flex();
        let shape = [128, 6, 28, 28];
        let flex = |t: Tensor<4>| FlexTensor::from_data(t.into_data());
        let x = flex(Tensor::random(shape, Distribution::Normal(0.5, 2.0), &device));
        let g = flex(Tensor::random(shape, Distribution::Normal(0.0, 1.0), &device));
        let gamma = FlexTensor::from_data(Tensor::<1>::ones([6], &device).into_data());
        let beta = FlexTensor::from_data(Tensor::<1>::zeros([6], &device).into_data());
        let median = |f: &dyn Fn()| {
            f();
            let mut ms: Vec<f64> = (0..20)
                .map(|_| {
                    let start = Instant::now();
                    f();
                    start.elapsed().as_secs_f64() * 1e3
                })
                .collect();
            ms.sort_by(f64::total_cmp);
            ms[ms.len() / 2]
        };
        let isa = super::simd::Isa::best();
        let bn = median(&|| {
            let stats = super::bn_stats(&x);
            let _ = super::bn_forward(&x, &gamma, &beta, &stats, 1e-5, true);
            let _ = super::bn_backward(&x, &gamma, Some(&beta), &stats, 1e-5, &g, true);
        });
        eprintln!("{shape:?}, {isa:?}, forward + backward, ReLU: BatchNorm {bn:.2} ms");
        for groups in [1, 2, 6] {
            let gn = median(&|| {
                let stats = super::group::stats(isa, &x, groups);
                let _ = super::group::forward(isa, &x, (&gamma, &beta), &stats, 1e-5, true);
                let _ =
                    super::group::backward(isa, &x, (&gamma, Some(&beta)), &stats, 1e-5, &g, true);
            });
            eprintln!("  GroupNorm, {groups} groups: {gn:.2} ms ({:.2}× BatchNorm's)", gn / bn);
        }
        // Through autodiff, with the loss `Σ y·g` around it: ours against burn's `nn::GroupNorm`.
        let device = Device::flex().autodiff();
        let x = Tensor::<4>::random(shape, Distribution::Normal(0.5, 2.0), &device);
        let g = Tensor::<4>::random(shape, Distribution::Normal(0.0, 1.0), &device);
        let gn = burn::nn::GroupNormConfig::new(2, 6).init(&device);
        let step = |fast: bool| {
            let x = x.clone().require_grad();
            let y = if fast {
                let (gamma, beta) = (gn.gamma.as_ref(), gn.beta.as_ref());
                let (gamma, beta) = (gamma.expect("γ").val(), beta.expect("β").val());
                super::group_norm_train(x.clone(), gamma, beta, 2, 1e-5, true).expect("flex").0
            } else {
                burn::tensor::activation::relu(gn.forward(x.clone()))
            };
            let grads = y.mul(g.clone()).sum().backward();
            let _ = x.grad(&grads).expect("dx").into_data();
        };
        let (ours, burns) = (median(&|| step(true)), median(&|| step(false)));
        eprintln!("  autodiff, 2 groups: ours {ours:.2} ms, burn's nn::GroupNorm {burns:.2} ms");
    }
}
