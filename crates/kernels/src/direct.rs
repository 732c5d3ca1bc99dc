//! LeNet's convolutions computed directly, a vector of output pixels at a time.
//!
//! [`super::Conv`] lays one sample out zero-padded so that, for one tap, the output pixels (taken
//! in rows of the padded width, "spill" columns included) read one contiguous run of it. Here that
//! run is read a vector at a time and multiplied, in registers, by a block of weights: output
//! channels (forward), taps × output channels (weight gradient) or input channels (input
//! gradient). What a column matrix and a general matrix product did (bench/PROFILE.md), without
//! writing the column matrix or packing operands: LeNet's products are small (6 or 16 rows), and
//! copying and packing were as much work as the arithmetic.
//!
//! Each kernel is written once over a [`Vector`] and compiled for each vector unit
//! ([`super::simd`]). Blocks of accumulators stay within the unit's registers: 16 (AVX2, SIMD128)
//! or 32 (AVX-512).

use super::Conv;
use super::simd::{LANES, Vector, for_each_isa};

impl Conv {
    /// A sample's output run, OH·WP positions, rounded up to whole vectors: the row length of the
    /// forward's output and of the weight gradient's widened output gradient.
    pub(super) fn run(&self) -> usize {
        (self.oh * self.wp).next_multiple_of(LANES)
    }

    /// The rows of the padded input the input gradient fills (the image's, `pad..pad + H`), rounded
    /// up to whole vectors.
    pub(super) fn image_run(&self) -> usize {
        (self.h * self.wp).next_multiple_of(LANES)
    }

    /// The zeros before each output channel's gradient in the input gradient's layout: a tap at
    /// (i, j) reads up to (k − 1)·WP + k − 1 positions back.
    pub(super) fn margin(&self) -> usize {
        (self.k - 1) * self.wp + self.k - 1
    }

    /// The row length of the input gradient's widened output gradient: the margin, then every
    /// position a vector reads (the output run, or the image's rows when the padding is wider).
    pub(super) fn margin_row(&self) -> usize {
        self.margin() + (self.oh * self.wp).max(self.pad * self.wp + self.image_run()) + LANES
    }
}

for_each_isa! {
    /// One sample's output `wide` `[cout][run]` (`run` = [`Conv::run`]; spill columns and the
    /// rounding computed and dropped by the caller): output position p of channel o is
    /// Σ_r w[o][r]·xp[offset(r) + p] over the taps r. `xp` is the padded sample with [`LANES`]
    /// zeros more, `offsets` each tap's [`Conv::tap_offset`], `wt` the weights `[taps][cout]`.
    forward => forward_generic(s: &Conv, offsets: &[usize], xp: &[f32], wt: &[f32], wide: &mut [f32])
}

#[inline(always)]
fn forward_generic<V: Vector>(
    s: &Conv,
    offsets: &[usize],
    xp: &[f32],
    wt: &[f32],
    wide: &mut [f32],
) {
    // Output channels × vectors per block: up to 24 accumulators where there are 32 registers, up
    // to 12 where there are 16.
    let wide_regs = V::REGS >= 32;
    let mut o = 0;
    while o < s.cout {
        let b = match s.cout - o {
            8.. => 8,
            6 | 7 => 6,
            4 | 5 => 4,
            _ => 1,
        };
        let mut p = 0;
        while p < s.run() {
            let left = (s.run() - p) / V::L;
            let args = (s, offsets, xp, wt, &mut *wide, o, p);
            p += V::L
                * match (b, wide_regs, left) {
                    (8, true, 3..) => forward_block::<V, 8, 3>(args),
                    (8, _, _) => forward_block::<V, 8, 1>(args),
                    (6, true, 4..) => forward_block::<V, 6, 4>(args),
                    (6, false, 2..) => forward_block::<V, 6, 2>(args),
                    (6, _, _) => forward_block::<V, 6, 1>(args),
                    (4, true, 4..) => forward_block::<V, 4, 4>(args),
                    (4, false, 2..) => forward_block::<V, 4, 2>(args),
                    (4, _, _) => forward_block::<V, 4, 1>(args),
                    (_, _, 2..) => forward_block::<V, 1, 2>(args),
                    _ => forward_block::<V, 1, 1>(args),
                };
        }
        o += b;
    }
}

/// [`forward`]'s arguments and the block's first output channel and position.
type ForwardBlock<'a> = (&'a Conv, &'a [usize], &'a [f32], &'a [f32], &'a mut [f32], usize, usize);

/// Output channels `o0..o0 + B` × vectors `p0..p0 + Q·L` of [`forward`]; returns Q.
#[inline(always)]
fn forward_block<V: Vector, const B: usize, const Q: usize>(
    (s, offsets, xp, wt, wide, o0, p0): ForwardBlock,
) -> usize {
    let run = s.run();
    let mut acc = [[V::zero(); Q]; B];
    for (r, &offset) in offsets.iter().enumerate() {
        let mut x = [V::zero(); Q];
        for u in 0..Q {
            x[u] = V::load(&xp[offset + p0 + u * V::L..]);
        }
        let w = &wt[r * s.cout + o0..][..B];
        for b in 0..B {
            let wb = V::splat(w[b]);
            for u in 0..Q {
                acc[b][u] = acc[b][u].mul_add(wb, x[u]);
            }
        }
    }
    for (b, acc) in acc.into_iter().enumerate() {
        for (u, acc) in acc.into_iter().enumerate() {
            acc.store(&mut wide[(o0 + b) * run + p0 + u * V::L..]);
        }
    }
    Q
}

/// How many of `left` channels a block of at most 6 takes: 6, 4 or 1 (the block sizes compiled).
#[inline(always)]
fn six_four_or_one(left: usize) -> usize {
    match left {
        6.. => 6,
        4 | 5 => 4,
        _ => 1,
    }
}

for_each_isa! {
    /// Adds the weight gradient of a group of samples to `sums` `[cout][taps][LANES]` (lanes summed
    /// by [`lane_sums`]): for output channel o and tap r, Σ over the samples and positions p of
    /// gw[o][p]·xp[offset(r) + p]. `xp` holds the samples' padded inputs one after another,
    /// `stride` values apart; `gw` their output gradients `[samples][cout][run]`, laid out as
    /// [`forward`]'s output, zero in the spill columns and the rounding.
    weight_grad => weight_grad_generic(s: &Conv, offsets: &[usize], xp: &[f32], stride: usize, gw: &[f32], sums: &mut [f32])
}

#[inline(always)]
fn weight_grad_generic<V: Vector>(
    s: &Conv,
    offsets: &[usize],
    xp: &[f32],
    stride: usize,
    gw: &[f32],
    sums: &mut [f32],
) {
    // Taps × output channels per block: 4 × 6 accumulators where there are 32 registers, 2 × 6
    // where there are 16.
    let wide = V::REGS >= 32;
    let mut r = 0;
    while r < offsets.len() {
        let taps = match offsets.len() - r {
            4.. if wide => 4,
            2.. => 2,
            _ => 1,
        };
        let mut o = 0;
        while o < s.cout {
            let b = six_four_or_one(s.cout - o);
            let args = (s, offsets, xp, stride, gw, &mut *sums, r, o);
            match (taps, b) {
                (4, 6) => weight_grad_block::<V, 4, 6>(args),
                (4, 4) => weight_grad_block::<V, 4, 4>(args),
                (4, _) => weight_grad_block::<V, 4, 1>(args),
                (2, 6) => weight_grad_block::<V, 2, 6>(args),
                (2, 4) => weight_grad_block::<V, 2, 4>(args),
                (2, _) => weight_grad_block::<V, 2, 1>(args),
                (_, 6) => weight_grad_block::<V, 1, 6>(args),
                (_, 4) => weight_grad_block::<V, 1, 4>(args),
                _ => weight_grad_block::<V, 1, 1>(args),
            }
            o += b;
        }
        r += taps;
    }
}

/// [`weight_grad`]'s arguments and the block's first tap and output channel.
type WeightGradBlock<'a> =
    (&'a Conv, &'a [usize], &'a [f32], usize, &'a [f32], &'a mut [f32], usize, usize);

/// Taps `r0..r0 + T` × output channels `o0..o0 + B` of [`weight_grad`], over every sample of the
/// group.
#[inline(always)]
fn weight_grad_block<V: Vector, const T: usize, const B: usize>(
    (s, offsets, xp, stride, gw, sums, r0, o0): WeightGradBlock,
) {
    let (run, taps) = (s.run(), offsets.len());
    let samples = gw.len() / (s.cout * run);
    let mut acc = [[V::zero(); B]; T];
    for j in 0..samples {
        let x_rows: [&[f32]; T] =
            std::array::from_fn(|t| &xp[j * stride + offsets[r0 + t]..][..run]);
        let g_rows: [&[f32]; B] =
            std::array::from_fn(|b| &gw[(j * s.cout + o0 + b) * run..][..run]);
        for p in (0..run).step_by(V::L) {
            let mut x = [V::zero(); T];
            for t in 0..T {
                x[t] = V::load(&x_rows[t][p..]);
            }
            for b in 0..B {
                let g = V::load(&g_rows[b][p..]);
                for t in 0..T {
                    acc[t][b] = acc[t][b].mul_add(x[t], g);
                }
            }
        }
    }
    for (t, acc) in acc.into_iter().enumerate() {
        for (b, acc) in acc.into_iter().enumerate() {
            let at = ((o0 + b) * taps + r0 + t) * LANES;
            V::load(&sums[at..]).add(acc).store(&mut sums[at..]);
        }
    }
}

/// The weight gradient from [`weight_grad`]'s partial sums: each weight's [`LANES`] lanes added.
pub(super) fn lane_sums(sums: &[f32]) -> Vec<f32> {
    sums.chunks_exact(LANES).map(|lanes| lanes.iter().sum()).collect()
}

for_each_isa! {
    /// One sample's input gradient `wide` `[cin][image_run]` ([`Conv::image_run`]): the padded
    /// input's rows `pad..pad + H` (the caller keeps the image's columns). At position q of
    /// channel c it is Σ over output channels o and taps (i, j) of w[o][c][i][j]·gm[o][M + q −
    /// i·WP − j], q counted from the padded plane's start, with `gm` the output gradient `[cout]
    /// [margin_row]` laid out as [`forward`]'s output after M = [`Conv::margin`] zeros, zero in the
    /// spill columns and after. `w` is the weights as stored, `[cout][cin][k][k]`.
    input_grad => input_grad_generic(s: &Conv, w: &[f32], gm: &[f32], wide: &mut [f32])
}

#[inline(always)]
fn input_grad_generic<V: Vector>(s: &Conv, w: &[f32], gm: &[f32], wide: &mut [f32]) {
    // Input channels × vectors per block: 6 × 4 accumulators where there are 32 registers, 6 × 2
    // where there are 16.
    let most = if V::REGS >= 32 { 4 } else { 2 };
    let run = s.image_run();
    let mut c = 0;
    while c < s.cin {
        let channels = six_four_or_one(s.cin - c);
        let mut q = 0;
        while q < run {
            let vectors = ((run - q) / V::L).min(most);
            let args = (s, w, gm, &mut *wide, c, q);
            match (channels, vectors) {
                (6, 4) => input_grad_block::<V, 6, 4>(args),
                (6, 2 | 3) => input_grad_block::<V, 6, 2>(args),
                (6, _) => input_grad_block::<V, 6, 1>(args),
                (4, 4) => input_grad_block::<V, 4, 4>(args),
                (4, 2 | 3) => input_grad_block::<V, 4, 2>(args),
                (4, _) => input_grad_block::<V, 4, 1>(args),
                (_, 4) => input_grad_block::<V, 1, 4>(args),
                (_, 2 | 3) => input_grad_block::<V, 1, 2>(args),
                _ => input_grad_block::<V, 1, 1>(args),
            }
            q += match vectors {
                4 => 4,
                2 | 3 => 2,
                _ => 1,
            } * V::L;
        }
        c += channels;
    }
}

/// Input channels `c0..c0 + C` × vectors `q0..q0 + Q·L` of [`input_grad`].
#[inline(always)]
fn input_grad_block<V: Vector, const C: usize, const Q: usize>(
    (s, w, gm, wide, c0, q0): (&Conv, &[f32], &[f32], &mut [f32], usize, usize),
) {
    let (k, wp, row) = (s.k, s.wp, s.margin_row());
    // The padded plane's position of q0, shifted by the margin.
    let start = s.margin() + s.pad * wp + q0;
    let mut acc = [[V::zero(); Q]; C];
    for o in 0..s.cout {
        let g_row = &gm[o * row..][..row];
        for i in 0..k {
            for j in 0..k {
                let at = start - i * wp - j;
                let mut g = [V::zero(); Q];
                for u in 0..Q {
                    g[u] = V::load(&g_row[at + u * V::L..]);
                }
                for c in 0..C {
                    let wv = V::splat(w[((o * s.cin + c0 + c) * k + i) * k + j]);
                    for u in 0..Q {
                        acc[c][u] = acc[c][u].mul_add(wv, g[u]);
                    }
                }
            }
        }
    }
    let run = s.image_run();
    for (c, acc) in acc.into_iter().enumerate() {
        for (u, acc) in acc.into_iter().enumerate() {
            acc.store(&mut wide[(c0 + c) * run + q0 + u * V::L..]);
        }
    }
}
