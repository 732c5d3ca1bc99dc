//! Our kernels against their macerator ports (`mac.rs`), on plain f32 slices, for
//! `examples/macerator.rs` (feature `macerator`; not an API: hidden from the docs).
//!
//! Each function runs the same code as the production op around the kernels (the padded layout,
//! the samples split across rayon's current pool, the statistics' two passes), with either
//! implementation of the kernels inside.

use super::{Conv, bn_forward_by, bn_stats_by, conv_forward_by, mac::Macerator, simd::Isa};

/// Which kernels run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernels {
    /// Ours, for the widest instruction set this CPU has ([`super::vector_unit`]).
    Ours,
    /// The macerator ports, for the instruction set macerator picks ([`macerator_picks`]).
    Macerator,
}

/// The instruction set macerator picks here and its f32 lanes.
pub fn macerator_picks() -> String {
    super::mac::picked()
}

/// The convolution's forward (stride 1, `pad` zeros, no bias): `x` `[B, C, H, W]` and `w`
/// `[O, C, k, k]` (row-major values) to `[B, O, OH, OW]`.
pub fn conv_forward(
    kernels: Kernels,
    x: &[f32],
    x_dims: [usize; 4],
    w: &[f32],
    w_dims: [usize; 4],
    pad: usize,
) -> Vec<f32> {
    let s = Conv::of(x_dims, w_dims, pad);
    assert_eq!((x.len(), w.len()), (x_dims.iter().product(), w_dims.iter().product()));
    match kernels {
        Kernels::Ours => conv_forward_by(Isa::best(), &s, x, w),
        Kernels::Macerator => conv_forward_by(Macerator, &s, x, w),
    }
}

/// BatchNorm's forward on batch statistics, as the training step runs it: the statistics of `x`
/// `[b, c, s]` (per channel the mean, then the biased variance: `[2, c]`), then `x` normalized,
/// scaled by `gamma`, shifted by `beta` (and a ReLU with `relu`). Returns the output and the
/// statistics.
pub fn bn_forward(
    kernels: Kernels,
    x: &[f32],
    [b, c, s]: [usize; 3],
    gamma: &[f32],
    beta: &[f32],
    epsilon: f64,
    relu: bool,
) -> (Vec<f32>, Vec<f32>) {
    assert_eq!((x.len(), gamma.len(), beta.len()), (b * c * s, c, c));
    match kernels {
        Kernels::Ours => {
            let stats = bn_stats_by(Isa::best(), x, b, c, s);
            (bn_forward_by(Isa::best(), x, c, s, (gamma, beta, &stats), epsilon, relu), stats)
        }
        Kernels::Macerator => {
            let stats = bn_stats_by(Macerator, x, b, c, s);
            (bn_forward_by(Macerator, x, c, s, (gamma, beta, &stats), epsilon, relu), stats)
        }
    }
}

/// `work` on a rayon pool of `threads` threads natively (the kernels split each op across the
/// pool they run on); here in the browser, where there is one.
pub fn on_threads<R: Send>(threads: usize, work: impl FnOnce() -> R + Send) -> R {
    #[cfg(not(target_arch = "wasm32"))]
    {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool")
            .install(work)
    }
    #[cfg(target_arch = "wasm32")]
    {
        let _ = threads;
        work()
    }
}
