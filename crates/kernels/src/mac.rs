//! Two hot kernels ported to macerator's portable vectors (feature `macerator`), for `compare` and
//! `examples/macerator.rs` only: the direct convolution's forward ([`super::direct`]'s `forward`,
//! the same blocks of output channels × vectors in registers) and BatchNorm's forward passes
//! ([`super::norm`]'s `sums`, `squares` and `affine`; the sums in vector lanes, the affine pass in
//! explicit vectors where ours leaves it to LLVM).
//!
//! macerator picks its instruction set at run time too (`#[with_simd]`: x86-64 v4 = AVX-512, v3 =
//! AVX2 + FMA, v2 = SSE4.2, else scalar; NEON; on wasm32 SIMD128 when built with `+simd128`, there
//! being no detection) and its lane count is a function of it rather than a constant, which
//! inlining folds. What it does not spare us: loads and stores of a slice are `unsafe` (raw
//! pointers), hence the two functions below, which check the slice's length first.

use macerator::{Scalar, Simd, Vector, vload_unaligned, vstore_unaligned, with_simd};

use super::{Conv, Forward};

/// The kernels of [`Forward`] by macerator.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Macerator;

impl Forward for Macerator {
    fn conv(self, s: &Conv, offsets: &[usize], xp: &[f32], wt: &[f32], wide: &mut [f32]) {
        conv_forward(s, offsets, xp, wt, wide);
    }

    fn sums(self, x: &[f32], c: usize, s: usize, acc: &mut [f32]) {
        sums(x, c, s, acc);
    }

    fn squares(self, x: &[f32], c: usize, s: usize, mean: &[f32], acc: &mut [f32]) {
        squares(x, c, s, mean, acc);
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
        affine(x, c, s, scale, shift, relu, out);
    }
}

/// The instruction set macerator picks here and its f32 lanes, as the comparison prints them.
pub(crate) fn picked() -> String {
    format!("{:?}, {} lanes", macerator::Arch::detect(), lanes())
}

#[with_simd]
fn lanes<S: Simd>() -> usize {
    f32::lanes::<S>()
}

/// The first lanes of `s`.
#[inline(always)]
fn load<S: Simd>(s: &[f32]) -> Vector<S, f32> {
    let s = &s[..f32::lanes::<S>()];
    #[allow(unsafe_code)]
    // SAFETY: `s` holds a whole vector (its length checked on the line above); the load is
    // unaligned.
    unsafe {
        vload_unaligned(s.as_ptr())
    }
}

/// `v` into the first lanes of `s`.
#[inline(always)]
fn store<S: Simd>(v: Vector<S, f32>, s: &mut [f32]) {
    let s = &mut s[..f32::lanes::<S>()];
    #[allow(unsafe_code)]
    // SAFETY: `s` has room for a whole vector (its length checked on the line above); the store is
    // unaligned.
    unsafe {
        vstore_unaligned(s.as_mut_ptr(), v)
    }
}

#[inline(always)]
fn zero<S: Simd>() -> Vector<S, f32> {
    0.0f32.splat::<S>()
}

/// [`super::direct`]'s `forward`: one sample's output `wide` `[cout][run]` from the padded sample
/// `xp`, the taps' `offsets` and the weights `wt` `[taps][cout]`.
#[with_simd]
fn conv_forward<S: Simd>(s: &Conv, offsets: &[usize], xp: &[f32], wt: &[f32], wide: &mut [f32]) {
    let l = f32::lanes::<S>();
    // AVX-512's 16 lanes come with 32 registers; 16 elsewhere (as ours: `Vector::REGS`).
    let wide_regs = l >= 16;
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
            let left = (s.run() - p) / l;
            let args = (s, offsets, xp, wt, &mut *wide, o, p);
            p += l * match (b, wide_regs, left) {
                (8, true, 3..) => forward_block::<S, 8, 3>(args),
                (8, _, _) => forward_block::<S, 8, 1>(args),
                (6, true, 4..) => forward_block::<S, 6, 4>(args),
                (6, false, 2..) => forward_block::<S, 6, 2>(args),
                (6, _, _) => forward_block::<S, 6, 1>(args),
                (4, true, 4..) => forward_block::<S, 4, 4>(args),
                (4, false, 2..) => forward_block::<S, 4, 2>(args),
                (4, _, _) => forward_block::<S, 4, 1>(args),
                (_, _, 2..) => forward_block::<S, 1, 2>(args),
                _ => forward_block::<S, 1, 1>(args),
            };
        }
        o += b;
    }
}

/// [`conv_forward`]'s arguments and the block's first output channel and position.
type ForwardBlock<'a> = (&'a Conv, &'a [usize], &'a [f32], &'a [f32], &'a mut [f32], usize, usize);

/// Output channels `o0..o0 + B` × vectors `p0..p0 + Q·L` of [`conv_forward`]; returns Q.
#[inline(always)]
fn forward_block<S: Simd, const B: usize, const Q: usize>(
    (s, offsets, xp, wt, wide, o0, p0): ForwardBlock,
) -> usize {
    let (run, l) = (s.run(), f32::lanes::<S>());
    let mut acc = [[zero::<S>(); Q]; B];
    for (r, &offset) in offsets.iter().enumerate() {
        let mut x = [zero::<S>(); Q];
        for u in 0..Q {
            x[u] = load::<S>(&xp[offset + p0 + u * l..]);
        }
        let w = &wt[r * s.cout + o0..][..B];
        for b in 0..B {
            let wb = w[b].splat::<S>();
            for u in 0..Q {
                acc[b][u] = wb.mul_add(x[u], acc[b][u]);
            }
        }
    }
    for (b, acc) in acc.into_iter().enumerate() {
        for (u, acc) in acc.into_iter().enumerate() {
            store::<S>(acc, &mut wide[(o0 + b) * run + p0 + u * l..]);
        }
    }
    Q
}

/// `acc[ch] += Σ x` over channel ch of each sample of `x` (`[samples, C, S]`).
#[with_simd]
fn sums<S: Simd>(x: &[f32], c: usize, s: usize, acc: &mut [f32]) {
    let l = f32::lanes::<S>();
    for (i, row) in x.chunks_exact(s.max(1)).enumerate() {
        let mut lanes = zero::<S>();
        let whole = row.len() / l * l;
        for at in (0..whole).step_by(l) {
            lanes += load::<S>(&row[at..]);
        }
        acc[i % c] += lanes.reduce_add() + row[whole..].iter().sum::<f32>();
    }
}

/// `acc[ch] += Σ (x − mean[ch])²` over channel ch of each sample of `x` (`[samples, C, S]`).
#[with_simd]
fn squares<S: Simd>(x: &[f32], c: usize, s: usize, mean: &[f32], acc: &mut [f32]) {
    let l = f32::lanes::<S>();
    for (i, row) in x.chunks_exact(s.max(1)).enumerate() {
        let m = mean[i % c];
        let (mut lanes, mv) = (zero::<S>(), m.splat::<S>());
        let whole = row.len() / l * l;
        for at in (0..whole).step_by(l) {
            let d = load::<S>(&row[at..]) - mv;
            lanes = d.mul_add(d, lanes);
        }
        acc[i % c] +=
            lanes.reduce_add() + row[whole..].iter().map(|&v| (v - m) * (v - m)).sum::<f32>();
    }
}

/// `out = x·scale[ch] + shift[ch]` per channel of `[samples, C, S]`, then `max(·, 0)` with `relu`:
/// a multiply then an add, as ours (not fused: the same values to the bit).
#[with_simd]
fn affine<S: Simd>(
    x: &[f32],
    c: usize,
    s: usize,
    scale: &[f32],
    shift: &[f32],
    relu: bool,
    out: &mut [f32],
) {
    let l = f32::lanes::<S>();
    for (i, (o, xs)) in out.chunks_exact_mut(s.max(1)).zip(x.chunks_exact(s.max(1))).enumerate() {
        let (sc, sh) = (scale[i % c], shift[i % c]);
        let (scv, shv, floor) = (sc.splat::<S>(), sh.splat::<S>(), zero::<S>());
        let whole = xs.len() / l * l;
        for at in (0..whole).step_by(l) {
            let y = load::<S>(&xs[at..]) * scv + shv;
            store::<S>(if relu { y.max(floor) } else { y }, &mut o[at..]);
        }
        for (o, &v) in o[whole..].iter_mut().zip(&xs[whole..]) {
            *o = if relu { (v * sc + sh).max(0.0) } else { v * sc + sh };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Conv, Forward, conv_forward_by, simd::Isa};
    use super::Macerator;

    /// Values that are not round, from a seed.
    fn values(n: usize, seed: usize) -> Vec<f32> {
        (0..n).map(|i| ((i * 7919 + seed * 104_729) % 2003) as f32 / 1001.0 - 1.0).collect()
    }

    /// macerator's ports against ours (the widest instruction set here): the convolution's forward
    /// at LeNet's two shapes and an odd one; BatchNorm's three passes on rows that are and are not
    /// whole vectors.
    #[test]
    fn macerator_matches_ours() {
        let isa = Isa::best();
        for (x, w, pad) in [
            ([3, 1, 28, 28], [6, 1, 5, 5], 2),
            ([4, 6, 14, 14], [16, 6, 5, 5], 0),
            ([2, 2, 7, 9], [3, 2, 3, 3], 3),
        ] {
            let s = Conv::of(x, w, pad);
            let (xv, wv) = (values(x.iter().product(), 1), values(w.iter().product(), 2));
            let (ours, theirs) =
                (conv_forward_by(isa, &s, &xv, &wv), conv_forward_by(Macerator, &s, &xv, &wv));
            for (a, b) in ours.iter().zip(&theirs) {
                assert!((a - b).abs() <= 1e-5 * (1.0 + a.abs()), "conv {x:?}: {a} against {b}");
            }
        }
        for (samples, c, s) in [(3, 6, 784), (4, 16, 100), (2, 3, 7), (5, 120, 1)] {
            let x = values(samples * c * s, 3);
            let (mean, scale, shift) = (values(c, 4), values(c, 5), values(c, 6));
            let (mut ours, mut theirs) = (vec![0.0; c], vec![0.0; c]);
            isa.sums(&x, c, s, &mut ours);
            Macerator.sums(&x, c, s, &mut theirs);
            for (a, b) in ours.iter().zip(&theirs) {
                assert!((a - b).abs() <= 1e-4 * (1.0 + a.abs()), "sums: {a} against {b}");
            }
            let (mut ours, mut theirs) = (vec![0.0; c], vec![0.0; c]);
            isa.squares(&x, c, s, &mean, &mut ours);
            Macerator.squares(&x, c, s, &mean, &mut theirs);
            for (a, b) in ours.iter().zip(&theirs) {
                assert!((a - b).abs() <= 1e-4 * (1.0 + a.abs()), "squares: {a} against {b}");
            }
            for relu in [false, true] {
                let (mut ours, mut theirs) = (vec![0.0; x.len()], vec![0.0; x.len()]);
                isa.affine(&x, c, s, &scale, &shift, relu, &mut ours);
                Macerator.affine(&x, c, s, &scale, &shift, relu, &mut theirs);
                assert_eq!(ours, theirs, "affine, relu {relu}");
            }
        }
    }
}
