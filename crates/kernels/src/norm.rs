//! BatchNorm's and a layer's bias + ReLU element-wise passes, for each vector unit
//! ([`super::simd`]).
//!
//! Each function takes a run of whole samples `[samples, C, S]` (S values per channel and sample)
//! and per-channel values. Sums are taken in vector lanes (a float sum one value after another
//! cannot be vectorized: the order of additions is part of its result); element-wise passes are
//! plain loops, which LLVM vectorizes for the unit they are compiled for.

use super::simd::{Vector, for_each_isa};

/// Σ values of a row, in `V`'s lanes (the rest one by one), then across the lanes.
#[inline(always)]
fn row_sum<V: Vector>(row: &[f32]) -> f32 {
    let mut acc = V::zero();
    let whole = row.len() / V::L * V::L;
    for at in (0..whole).step_by(V::L) {
        acc = acc.add(V::load(&row[at..]));
    }
    acc.sum() + row[whole..].iter().sum::<f32>()
}

/// Σ a·(b − m) over two rows, in `V`'s lanes (the rest one by one), then across the lanes.
#[inline(always)]
fn row_dot_centered<V: Vector>(a: &[f32], b: &[f32], m: f32) -> f32 {
    let (mut acc, mv) = (V::zero(), V::splat(m));
    let whole = a.len().min(b.len()) / V::L * V::L;
    for at in (0..whole).step_by(V::L) {
        acc = acc.mul_add(V::load(&a[at..]), V::load(&b[at..]).sub(mv));
    }
    acc.sum() + a[whole..].iter().zip(&b[whole..]).map(|(&a, &b)| a * (b - m)).sum::<f32>()
}

for_each_isa! {
    /// `acc[ch] += Σ x` over channel ch of each sample of `x` (`[samples, C, S]`).
    sums => sums_generic(x: &[f32], c: usize, s: usize, acc: &mut [f32])
}

#[inline(always)]
fn sums_generic<V: Vector>(x: &[f32], c: usize, s: usize, acc: &mut [f32]) {
    for (i, row) in x.chunks_exact(s.max(1)).enumerate() {
        acc[i % c] += row_sum::<V>(row);
    }
}

for_each_isa! {
    /// `acc[ch] += Σ (x − mean[ch])²` over channel ch of each sample of `x` (`[samples, C, S]`).
    squares => squares_generic(x: &[f32], c: usize, s: usize, mean: &[f32], acc: &mut [f32])
}

#[inline(always)]
fn squares_generic<V: Vector>(x: &[f32], c: usize, s: usize, mean: &[f32], acc: &mut [f32]) {
    for (i, row) in x.chunks_exact(s.max(1)).enumerate() {
        let m = mean[i % c];
        let (mut lanes, mv) = (V::zero(), V::splat(m));
        let whole = row.len() / V::L * V::L;
        for at in (0..whole).step_by(V::L) {
            let d = V::load(&row[at..]).sub(mv);
            lanes = lanes.mul_add(d, d);
        }
        acc[i % c] += lanes.sum() + row[whole..].iter().map(|&v| (v - m) * (v - m)).sum::<f32>();
    }
}

for_each_isa! {
    /// `out = x·scale[ch] + shift[ch]` per channel of `[samples, C, S]`, then `max(·, 0)` with
    /// `relu`.
    affine => affine_generic(x: &[f32], c: usize, s: usize, scale: &[f32], shift: &[f32], relu: bool, out: &mut [f32])
}

#[inline(always)]
fn affine_generic<V: Vector>(
    x: &[f32],
    c: usize,
    s: usize,
    scale: &[f32],
    shift: &[f32],
    relu: bool,
    out: &mut [f32],
) {
    for (i, (o, xs)) in out.chunks_exact_mut(s.max(1)).zip(x.chunks_exact(s.max(1))).enumerate() {
        let (sc, sh) = (scale[i % c], shift[i % c]);
        if relu {
            // A compare and select, not `f32::max`: its NaN rule kept WebAssembly's SIMD128 from
            // vectorizing this loop (about 10× slower in the browser). NaN still gives 0.
            o.iter_mut().zip(xs).for_each(|(o, &v)| {
                let y = v * sc + sh;
                *o = if 0.0 < y { y } else { 0.0 };
            });
        } else {
            o.iter_mut().zip(xs).for_each(|(o, &v)| *o = v * sc + sh);
        }
    }
}

/// `g` where `x·scale + shift > 0` (the ReLU after BatchNorm let it through), else 0.
#[inline(always)]
fn gated(g: &[f32], x: &[f32], scale: f32, shift: f32, into: &mut [f32]) {
    into.iter_mut()
        .zip(g.iter().zip(x))
        .for_each(|(d, (&g, &v))| *d = if v * scale + shift > 0.0 { g } else { 0.0 });
}

for_each_isa! {
    /// BatchNorm's backward sums per channel of `[samples, C, S]`: `acc[ch] += Σ g` and
    /// `acc[C + ch] += Σ g·(x − mean[ch])`, with `g` the output gradient `dy` zeroed where
    /// `x·gate_scale + gate_shift ≤ 0` (a ReLU's closed gate; all open with scale 0, shift 1).
    bn_grad_sums => bn_grad_sums_generic(
        x: &[f32], dy: &[f32], c: usize, s: usize, mean: &[f32], gate: (&[f32], &[f32]), acc: &mut [f32],
    )
}

#[inline(always)]
fn bn_grad_sums_generic<V: Vector>(
    x: &[f32],
    dy: &[f32],
    c: usize,
    s: usize,
    mean: &[f32],
    gate: (&[f32], &[f32]),
    acc: &mut [f32],
) {
    let mut g = vec![0.0f32; s];
    for (i, (xs, dys)) in x.chunks_exact(s.max(1)).zip(dy.chunks_exact(s.max(1))).enumerate() {
        let ch = i % c;
        gated(dys, xs, gate.0[ch], gate.1[ch], &mut g);
        acc[ch] += row_sum::<V>(&g);
        acc[c + ch] += row_dot_centered::<V>(&g, xs, mean[ch]);
    }
}

for_each_isa! {
    /// BatchNorm's input gradient per channel of `[samples, C, S]`: `out = a[ch]·g + bx[ch]·x +
    /// k[ch]`, with `g` gated as in [`bn_grad_sums`].
    bn_dx => bn_dx_generic(
        x: &[f32], dy: &[f32], c: usize, s: usize, coefficients: (&[f32], &[f32], &[f32]), gate: (&[f32], &[f32]), out: &mut [f32],
    )
}

#[inline(always)]
fn bn_dx_generic<V: Vector>(
    x: &[f32],
    dy: &[f32],
    c: usize,
    s: usize,
    (a, bx, k): (&[f32], &[f32], &[f32]),
    gate: (&[f32], &[f32]),
    out: &mut [f32],
) {
    let rows =
        out.chunks_exact_mut(s.max(1)).zip(x.chunks_exact(s.max(1)).zip(dy.chunks_exact(s.max(1))));
    for (i, (o, (xs, dys))) in rows.enumerate() {
        let ch = i % c;
        gated(dys, xs, gate.0[ch], gate.1[ch], o);
        let (a, bx, k) = (a[ch], bx[ch], k[ch]);
        o.iter_mut().zip(xs).for_each(|(o, &v)| *o = a * *o + bx * v + k);
    }
}

for_each_isa! {
    /// The input gradient of `max(x + bias, 0)` from its output `y`: `dx = dy` where `y > 0`, else 0.
    relu_grad => relu_grad_generic(y: &[f32], dy: &[f32], dx: &mut [f32])
}

#[inline(always)]
fn relu_grad_generic<V: Vector>(y: &[f32], dy: &[f32], dx: &mut [f32]) {
    dx.iter_mut()
        .zip(y.iter().zip(dy))
        .for_each(|(d, (&y, &g))| *d = if y > 0.0 { g } else { 0.0 });
}

#[cfg(test)]
mod tests {
    use super::super::simd::Isa;

    /// Close enough for sums of a few hundred values taken in another order.
    fn near(ours: &[f32], theirs: &[f32], what: &str) {
        assert_eq!(ours.len(), theirs.len(), "{what}");
        for (i, (a, b)) in ours.iter().zip(theirs).enumerate() {
            assert!((a - b).abs() <= 1e-4 * (1.0 + b.abs()), "{what}[{i}]: {a} against {b}");
        }
    }

    /// Every instruction set this CPU runs against plain scalar loops: rows longer and shorter than
    /// a vector and not a whole number of them, a channel count that is not a block's.
    #[test]
    fn every_isa_matches_scalar_loops() {
        for (samples, c, s) in [(3, 6, 784), (4, 16, 100), (2, 3, 7), (5, 2, 1)] {
            let len = samples * c * s;
            let x: Vec<f32> = (0..len).map(|i| ((i * 37 % 101) as f32 - 50.0) / 17.0).collect();
            let dy: Vec<f32> = (0..len).map(|i| ((i * 53 % 89) as f32 - 44.0) / 23.0).collect();
            let per_channel =
                |f: fn(f32) -> f32| (0..c).map(|ch| f(ch as f32)).collect::<Vec<f32>>();
            let (mean, scale, shift) = (
                per_channel(|ch| ch * 0.1 - 0.2),
                per_channel(|ch| 1.0 + ch * 0.3),
                per_channel(|ch| ch * 0.05 - 0.1),
            );
            let (k, bx): (Vec<f32>, Vec<f32>) =
                (0..c).map(|ch| (ch as f32 * 0.7 - 1.0, 0.25 - ch as f32 * 0.01)).unzip();
            let ch = |i: usize| i / s % c;
            let gate =
                |i: usize| if x[i] * scale[ch(i)] + shift[ch(i)] > 0.0 { dy[i] } else { 0.0 };
            // The scalar references.
            let mut sums = vec![0f32; c];
            let mut squares = vec![0f32; c];
            let mut grad_sums = vec![0f32; 2 * c];
            for i in 0..len {
                sums[ch(i)] += x[i];
                squares[ch(i)] += (x[i] - mean[ch(i)]) * (x[i] - mean[ch(i)]);
                grad_sums[ch(i)] += gate(i);
                grad_sums[c + ch(i)] += gate(i) * (x[i] - mean[ch(i)]);
            }
            let affine: Vec<f32> = (0..len).map(|i| x[i] * scale[ch(i)] + shift[ch(i)]).collect();
            let relu: Vec<f32> = affine.iter().map(|v| v.max(0.0)).collect();
            let dx: Vec<f32> =
                (0..len).map(|i| scale[ch(i)] * gate(i) + bx[ch(i)] * x[i] + k[ch(i)]).collect();
            let relu_grad: Vec<f32> =
                (0..len).map(|i| if relu[i] > 0.0 { dy[i] } else { 0.0 }).collect();
            for isa in Isa::available() {
                let what = |name: &str| format!("{isa:?} {name}, {samples}×{c}×{s}");
                let mut acc = vec![0f32; c];
                super::sums(isa, &x, c, s, &mut acc);
                near(&acc, &sums, &what("sums"));
                let mut acc = vec![0f32; c];
                super::squares(isa, &x, c, s, &mean, &mut acc);
                near(&acc, &squares, &what("squares"));
                let mut acc = vec![0f32; 2 * c];
                super::bn_grad_sums(isa, &x, &dy, c, s, &mean, (&scale, &shift), &mut acc);
                near(&acc, &grad_sums, &what("bn_grad_sums"));
                let mut out = vec![0f32; len];
                super::affine(isa, &x, c, s, &scale, &shift, false, &mut out);
                near(&out, &affine, &what("affine"));
                super::affine(isa, &x, c, s, &scale, &shift, true, &mut out);
                near(&out, &relu, &what("affine + ReLU"));
                super::bn_dx(isa, &x, &dy, c, s, (&scale, &bx, &k), (&scale, &shift), &mut out);
                near(&out, &dx, &what("bn_dx"));
                super::relu_grad(isa, &relu, &dy, &mut out);
                near(&out, &relu_grad, &what("relu_grad"));
            }
        }
    }
}
