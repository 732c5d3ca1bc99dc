//! 2×2 max-pooling with stride 2, forward and backward, for each vector unit ([`super::simd`]).
//!
//! Each window's largest element is found by three comparisons in row-major order, the first of
//! equals kept (as PyTorch: after a ReLU most windows are all zeros), and chosen by selects rather
//! than branches, so that LLVM vectorizes the loops. Planes `[h, w]` are pooled to `[h/2, w/2]`
//! (rounded down: an odd last row or column is never chosen).

use super::simd::{Vector, for_each_isa};

/// The largest of a window `[a0, a1, b0, b1]` (row-major) and where it is (0–3), the first of
/// equals; a NaN in the first place stays.
#[inline(always)]
fn winner(v: [f32; 4]) -> (f32, usize) {
    let (mut best, mut at) = (v[0], 0);
    for (i, &v) in v.iter().enumerate().skip(1) {
        let more = v > best;
        best = if more { v } else { best };
        at = if more { i } else { at };
    }
    (best, at)
}

/// The window at output column `c` of the row pair `r0`, `r1`.
#[inline(always)]
fn window(r0: &[f32], r1: &[f32], c: usize) -> [f32; 4] {
    [r0[2 * c], r0[2 * c + 1], r1[2 * c], r1[2 * c + 1]]
}

for_each_isa! {
    /// Each window's largest element of the planes `x` (`[planes, h, w]`) into `out` (`[planes,
    /// h/2, w/2]`).
    forward => forward_generic(x: &[f32], h: usize, w: usize, out: &mut [f32])
}

#[inline(always)]
fn forward_generic<V: Vector>(x: &[f32], h: usize, w: usize, out: &mut [f32]) {
    let (oh, ow) = (h / 2, w / 2);
    if oh * ow == 0 {
        return;
    }
    for (plane, out) in x.chunks_exact(h * w).zip(out.chunks_exact_mut(oh * ow)) {
        for (row, out) in out.chunks_exact_mut(ow).enumerate() {
            let (r0, r1) = (&plane[2 * row * w..][..2 * ow], &plane[(2 * row + 1) * w..][..2 * ow]);
            for (c, out) in out.iter_mut().enumerate() {
                *out = winner(window(r0, r1, c)).0;
            }
        }
    }
}

for_each_isa! {
    /// The gradient of [`forward`]: each window's gradient from `g` (`[planes, h/2, w/2]`) written
    /// to its largest element of `x` and zeros to the other three, in `dx` (`[planes, h, w]`; an odd
    /// last row or column is left as it is: zero).
    backward => backward_generic(x: &[f32], g: &[f32], h: usize, w: usize, dx: &mut [f32])
}

#[inline(always)]
fn backward_generic<V: Vector>(x: &[f32], g: &[f32], h: usize, w: usize, dx: &mut [f32]) {
    let (oh, ow) = (h / 2, w / 2);
    if oh * ow == 0 {
        return;
    }
    let planes = x.chunks_exact(h * w).zip(g.chunks_exact(oh * ow)).zip(dx.chunks_exact_mut(h * w));
    for ((plane, g), dplane) in planes {
        for (row, g) in g.chunks_exact(ow).enumerate() {
            let (r0, r1) = (&plane[2 * row * w..][..2 * ow], &plane[(2 * row + 1) * w..][..2 * ow]);
            let (d0, d1) = dplane[2 * row * w..(2 * row + 2) * w].split_at_mut(w);
            let (d0, d1) = (&mut d0[..2 * ow], &mut d1[..2 * ow]);
            for (c, &gi) in g.iter().enumerate() {
                let at = winner(window(r0, r1, c)).1;
                let to = |i: usize| if at == i { gi } else { 0.0 };
                d0[2 * c] = to(0);
                d0[2 * c + 1] = to(1);
                d1[2 * c] = to(2);
                d1[2 * c + 1] = to(3);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::simd::Isa;

    /// Every instruction set this CPU runs against a scalar reference, bit for bit: windows full
    /// of ties (zeros, as after a ReLU), odd heights and widths, planes too small to pool, NaNs.
    #[test]
    fn every_isa_matches_a_scalar_reference() {
        for (planes, h, w) in [(3, 28, 28), (5, 10, 10), (2, 5, 7), (4, 3, 9), (2, 1, 3)] {
            let (oh, ow) = (h / 2, w / 2);
            let mut x: Vec<f32> =
                (0..planes * h * w).map(|i| ((i * 7919 % 13) as f32 - 6.0).max(0.0)).collect();
            x[1] = f32::NAN;
            x[planes * h * w / 2] = f32::NAN;
            let g: Vec<f32> = (0..planes * oh * ow).map(|i| i as f32 + 1.0).collect();
            let (mut y, mut dx) = (vec![0.0; planes * oh * ow], vec![0.0; planes * h * w]);
            for p in 0..planes {
                for (r, c) in (0..oh).flat_map(|r| (0..ow).map(move |c| (r, c))) {
                    let at = [(0, 0), (0, 1), (1, 0), (1, 1)]
                        .map(|(i, j)| (p * h + 2 * r + i) * w + 2 * c + j);
                    let best =
                        (1..4).fold(0, |best, i| if x[at[i]] > x[at[best]] { i } else { best });
                    y[(p * oh + r) * ow + c] = x[at[best]];
                    dx[at[best]] = g[(p * oh + r) * ow + c];
                }
            }
            let bits = |v: &[f32]| v.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            for isa in Isa::available() {
                let (mut ours, mut dours) = (vec![0.0; y.len()], vec![0.0; dx.len()]);
                super::forward(isa, &x, h, w, &mut ours);
                super::backward(isa, &x, &g, h, w, &mut dours);
                assert_eq!(bits(&ours), bits(&y), "{isa:?} forward, {planes}×{h}×{w}");
                assert_eq!(bits(&dours), bits(&dx), "{isa:?} backward, {planes}×{h}×{w}");
            }
        }
    }
}
