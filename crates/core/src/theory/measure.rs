//! The theorem's quantities on one batch that holds the outlier, from BN's parameters before the
//! step.
//!
//! With `g_i = ∂ℓ_i/∂f_i` of the BN model on the batch, the plain parameterization's `w`-step with
//! the same `g` and the same head `a` changes the outlier's margin by
//! `Δm_ref = −η·y_o·a²·Σ_i g_i·(x_i·x_o)/|B|`. BN's own `w`-step (plain SGD, lr η, everything
//! else fixed) changes it by `Δm_BN`; the theorem says `Δm_BN/Δm_ref = (γ/σ_B)²`. That holds
//! exactly when μ_B and σ_B are constants (the margin is then linear in `w`); with live statistics
//! the gradient loses its components along the batch mean and along `n`, and the ratio deviates.

use super::data::{Data, dot};
use super::model::{Model, Stats, dloss_dlogit};

/// Below this, a denominator makes no ratio.
const TINY: f64 = 1e-12;

/// `num/den`, or `None` for a vanishing denominator or a non-finite result.
pub fn ratio(num: f64, den: f64) -> Option<f64> {
    let q = num / den;
    (den.abs() > TINY && q.is_finite()).then_some(q)
}

/// The same-g comparison on one batch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SameG {
    /// σ_B of the batch.
    pub sigma: f64,
    /// The theorem's factor (γ/σ_B)².
    pub predicted: f64,
    /// `Δm_BN/Δm_ref` with μ_B and σ_B frozen (in the gradient and in the read-out): equals
    /// `predicted`.
    pub frozen: Option<f64>,
    /// `Δm_BN/Δm_ref` with live statistics (recomputed after the step, the gradient through them).
    pub live: Option<f64>,
    /// The outlier's push on γ: `−sign(γ)·∂ℓ_o/∂γ` (its own loss); above 0 it pushes |γ| up.
    pub gamma_push: f64,
}

/// The same-g comparison for the BN model `bn` on the batch `idx`, which holds the outlier `o`
/// (an index into `data`), with step size `lr`.
pub fn same_g(bn: &Model, data: &Data, idx: &[usize], o: usize, lr: f64) -> SameG {
    let p = &bn.params;
    let k = idx.len() as f64;
    let pos = idx.iter().position(|&i| i == o).expect("the batch holds the outlier");
    let x_o = &data.xs[o];
    let y_o = data.ys[o];

    let (fw, grad) = bn.gradient(data, idx, Stats::Batch);
    let g: Vec<f64> = idx.iter().zip(&fw.m).map(|(&i, &m)| dloss_dlogit(data.ys[i], m)).collect();
    let kernel: f64 = idx.iter().zip(&g).map(|(&i, gi)| gi * dot(&data.xs[i], x_o)).sum();
    let dm_ref = -lr * y_o * p.a * p.a * kernel / k;

    // Only w steps, by plain SGD with BN's gradient; the margin read out in the batch again.
    let margin_after = |grad_w: &[f64], stats: Stats| {
        let mut stepped = bn.clone();
        for (w, gw) in stepped.params.w.iter_mut().zip(grad_w) {
            *w -= lr * gw;
        }
        stepped.forward(data, idx, stats).m[pos]
    };
    let live = margin_after(&grad.w, Stats::Batch) - fw.m[pos];
    let frozen_stats = Stats::Fixed { mean: fw.mean, std: fw.std };
    let (_, frozen_grad) = bn.gradient(data, idx, frozen_stats);
    let frozen = margin_after(&frozen_grad.w, frozen_stats) - fw.m[pos];

    let gamma_sigma = p.gamma / fw.std;
    SameG {
        sigma: fw.std,
        predicted: gamma_sigma * gamma_sigma,
        frozen: ratio(frozen, dm_ref),
        live: ratio(live, dm_ref),
        gamma_push: -p.gamma.signum() * g[pos] * p.a * fw.n[pos],
    }
}
