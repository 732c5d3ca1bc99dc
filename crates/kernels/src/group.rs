//! GroupNorm on each sample's statistics (LayerNorm is its one-group case), forward and backward,
//! by BatchNorm's passes ([`super::norm`]) taken one sample at a time.
//!
//! In `[B, C, S]` a group's values (its `C/G` channels × S of one sample) lie side by side, so the
//! group's sums are the norm passes' per-channel sums with one "channel" of `C/G · S` values; the
//! output and the input gradient are their per-channel passes over one sample, with the group's
//! statistics spread over its channels. Every statistic belongs to one sample: the samples split
//! across threads with no sum across them, but γ's and β's gradients (added up after, in the
//! samples' order: the same sums every time).

use burn::backend::TensorMetadata;
use burn::backend::flex::FlexTensor;

use super::simd::Isa;
use super::{bn_dims, flat, for_samples, for_samples_pair, norm, values};

/// The groups of a statistics tensor `[B, 2·G]`.
fn groups_of(stats: &FlexTensor) -> usize {
    stats.shape().to_vec().get(1).copied().unwrap_or(0) / 2
}

/// Per sample and group of `x` `[B, C, S]` (`groups` dividing C), the mean and the biased variance
/// (two passes), as `[B, 2·groups]`: each sample's means, then its variances.
pub(super) fn stats(isa: Isa, x: &FlexTensor, groups: usize) -> FlexTensor {
    let (b, c, s) = bn_dims(x);
    let xv = values(x);
    let n = c / groups * s;
    let mut out = vec![0f32; b * 2 * groups];
    for_samples(&mut out, 2 * groups, |first, rows| {
        for (j, st) in rows.chunks_exact_mut(2 * groups).enumerate() {
            let xs = &xv[(first + j) * c * s..][..c * s];
            let (mean, var) = st.split_at_mut(groups);
            norm::sums(isa, xs, groups, n, mean);
            mean.iter_mut().for_each(|v| *v /= n as f32);
            norm::squares(isa, xs, groups, n, mean, var);
            var.iter_mut().for_each(|v| *v /= n as f32);
        }
    });
    flat(out, vec![b, 2 * groups])
}

/// One sample's output `x·scale + shift` per channel: `scale = γ/√(var + ε)` and
/// `shift = β − mean·scale`, from its groups' statistics `st` (`[2·G]`), into `scale` and `shift`
/// (`[C]`, the caller's, reused across its samples). The forward and the backward's ReLU gate both
/// take it, so they agree on which outputs were positive.
fn scale_shift(
    st: &[f32],
    gv: &[f32],
    bv: &[f32],
    eps: f32,
    (scale, shift): (&mut [f32], &mut [f32]),
) {
    let (groups, c) = (st.len() / 2, gv.len());
    for (ch, (sc, sh)) in scale.iter_mut().zip(shift.iter_mut()).enumerate() {
        let g = ch / (c / groups);
        *sc = gv[ch] / (st[groups + g] + eps).sqrt();
        *sh = bv[ch] - st[g] * *sc;
    }
}

/// GroupNorm's output of `x` `[B, C, S]` with its [`stats`], then `max(·, 0)` with `relu`.
pub(super) fn forward(
    isa: Isa,
    x: &FlexTensor,
    (gamma, beta): (&FlexTensor, &FlexTensor),
    stats: &FlexTensor,
    epsilon: f64,
    relu: bool,
) -> FlexTensor {
    let (_, c, s) = bn_dims(x);
    let (xv, gv, bv, st) = (values(x), values(gamma), values(beta), values(stats));
    let groups = groups_of(stats);
    let mut out = vec![0f32; xv.len()];
    for_samples(&mut out, c * s, |first, rows| {
        let (mut scale, mut shift) = (vec![0f32; c], vec![0f32; c]);
        for (j, o) in rows.chunks_exact_mut((c * s).max(1)).enumerate() {
            let n = first + j;
            let st = &st[n * 2 * groups..][..2 * groups];
            scale_shift(st, &gv, &bv, epsilon as f32, (&mut scale, &mut shift));
            norm::affine(isa, &xv[n * c * s..][..c * s], c, s, &scale, &shift, relu, o);
        }
    });
    flat(out, x.shape().to_vec())
}

/// GroupNorm's backward, per sample n and group with `x̂ = (x − mean)/σ`, `σ = √(var + ε)`, `N`
/// values in the group and `g` the output gradient (zeroed where the output was not positive when
/// `relu_beta`, β, says a ReLU followed): `dβ = Σₙ Σ g` and `dγ = Σₙ Σ g·x̂` per channel, and
/// `dx = (γ·g − mean(γ·g) − x̂·mean(γ·g·x̂))/σ` (when asked), the means over the group. Each
/// sample's per-channel sums (the norm passes' `Σ g`, `Σ g·(x − mean)`) and its `dx` are taken in
/// one go, while its values are in cache.
pub(super) fn backward(
    isa: Isa,
    x: &FlexTensor,
    (gamma, relu_beta): (&FlexTensor, Option<&FlexTensor>),
    stats: &FlexTensor,
    epsilon: f64,
    grad: &FlexTensor,
    want_dx: bool,
) -> (Option<FlexTensor>, FlexTensor, FlexTensor) {
    let (b, c, s) = bn_dims(x);
    let (xv, gv, st, dy) = (values(x), values(gamma), values(stats), values(grad));
    let bv = relu_beta.map(values);
    let groups = groups_of(stats);
    let (per_group, eps) = (c / groups, epsilon as f32);
    let n = (per_group * s) as f32;
    // Sample `i`'s `Σ g` then `Σ g·(x − mean)` per channel into `sums` (`[2·C]`, zeros), with the
    // thread's `gate`, which it leaves holding the sample's ReLU gate.
    let sample_sums = |i: usize, sums: &mut [f32], gate: &mut Gate| {
        let st = &st[i * 2 * groups..][..2 * groups];
        if let Some(bv) = &bv {
            scale_shift(st, &gv, bv, eps, (&mut gate.scale, &mut gate.shift));
        }
        gate.mean.iter_mut().enumerate().for_each(|(ch, m)| *m = st[ch / per_group]);
        let run = i * c * s..(i + 1) * c * s;
        let (x, dy) = (&xv[run.clone()], &dy[run]);
        norm::bn_grad_sums(isa, x, dy, c, s, &gate.mean, (&gate.scale, &gate.shift), sums);
    };
    let mut sums = vec![0f32; b * 2 * c];
    let dx = if want_dx {
        let mut dx = vec![0f32; xv.len()];
        for_samples_pair(&mut sums, 2 * c, &mut dx, c * s, |first, sums, dx| {
            let mut gate = Gate::new(c);
            let (mut a, mut bx, mut k) = (vec![0f32; c], vec![0f32; c], vec![0f32; c]);
            let rows = sums.chunks_exact_mut(2 * c).zip(dx.chunks_exact_mut((c * s).max(1)));
            for (j, (sums, dx)) in rows.enumerate() {
                let i = first + j;
                sample_sums(i, sums, &mut gate);
                // dx = a·g + bx·x + k per channel: a = γ/σ, bx = −mean(γ·g·x̂)/σ² and
                // k = −mean(γ·g)/σ − bx·mean, the group's values spread over its channels (each
                // sample sets every channel's).
                let st = &st[i * 2 * groups..][..2 * groups];
                for g in 0..groups {
                    let chs = g * per_group..(g + 1) * per_group;
                    let inv = 1.0 / (st[groups + g] + eps).sqrt();
                    let (mut g_sum, mut gx_sum) = (0f32, 0f32);
                    for ch in chs.clone() {
                        g_sum += gv[ch] * sums[ch];
                        gx_sum += gv[ch] * sums[c + ch];
                    }
                    let (m1, m2) = (g_sum / n, gx_sum * inv / n);
                    for ch in chs {
                        a[ch] = gv[ch] * inv;
                        bx[ch] = -inv * inv * m2;
                        k[ch] = -inv * m1 - bx[ch] * st[g];
                    }
                }
                let run = i * c * s..(i + 1) * c * s;
                norm::bn_dx(
                    isa,
                    &xv[run.clone()],
                    &dy[run],
                    c,
                    s,
                    (&a, &bx, &k),
                    (&gate.scale, &gate.shift),
                    dx,
                );
            }
        });
        Some(flat(dx, x.shape().to_vec()))
    } else {
        for_samples(&mut sums, 2 * c, |first, sums| {
            let mut gate = Gate::new(c);
            for (j, sums) in sums.chunks_exact_mut(2 * c).enumerate() {
                sample_sums(first + j, sums, &mut gate);
            }
        });
        None
    };
    // γ's and β's gradients: the samples' sums added in order (`Σ g·x̂` is `Σ g·(x − mean)/σ`).
    let (mut dgamma, mut dbeta) = (vec![0f32; c], vec![0f32; c]);
    for (i, sums) in sums.chunks_exact(2 * c).enumerate() {
        let st = &st[i * 2 * groups..][..2 * groups];
        for ch in 0..c {
            let inv = 1.0 / (st[groups + ch / per_group] + eps).sqrt();
            dbeta[ch] += sums[ch];
            dgamma[ch] += sums[c + ch] * inv;
        }
    }
    (dx, flat(dgamma, vec![c]), flat(dbeta, vec![c]))
}

/// One thread's per-channel values (`[C]` each) in [`backward`], made once and reused across its
/// samples: the ReLU's gate `scale`, `shift` (open where the output `x·scale + shift` was positive:
/// always without a ReLU, `x·0 + 1`; with one, [`scale_shift`] fills them each sample) and the
/// groups' means spread over their channels.
struct Gate {
    scale: Vec<f32>,
    shift: Vec<f32>,
    mean: Vec<f32>,
}

impl Gate {
    fn new(c: usize) -> Self {
        Self { scale: vec![0.0; c], shift: vec![1.0; c], mean: vec![0.0; c] }
    }
}
