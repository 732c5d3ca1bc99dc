//! The model: a filter `h = w·x` (one channel), BN or not, a head `f = a·z + c`, the logistic loss
//! on the margin `m = y·f`; the forward pass and every gradient, by hand.
//!
//! * BN: `μ_B = mean h`, `σ_B = sqrt(var_B + ε)` (biased variance), `n = (h − μ_B)/σ_B`,
//!   `z = γ·n + β`;
//! * plain: `z = h` (γ and β are unused and never move).
//!
//! The loss is `ℓ = softplus(−m)`, its mean over the batch.

use serde::{Deserialize, Serialize};

use super::data::{Data, dot};

/// The parameters of either model (the plain model leaves `gamma` and `beta` alone). Also the
/// shape of a gradient and of Adam's moments.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Params {
    /// The filter.
    pub w: Vec<f64>,
    /// BN's scale γ.
    pub gamma: f64,
    /// BN's shift β.
    pub beta: f64,
    /// The head's weight.
    pub a: f64,
    /// The head's bias.
    pub c: f64,
}

impl Params {
    /// All zeros, for a filter of `dim` coordinates.
    pub fn zeros(dim: usize) -> Self {
        Self { w: vec![0.0; dim], gamma: 0.0, beta: 0.0, a: 0.0, c: 0.0 }
    }

    /// Every scalar: `w`, then γ, β, a, c.
    pub fn values(&self) -> impl Iterator<Item = &f64> {
        self.w.iter().chain([&self.gamma, &self.beta, &self.a, &self.c])
    }

    /// Every scalar, mutably, in the order of [`values`](Self::values).
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut f64> {
        self.w.iter_mut().chain([&mut self.gamma, &mut self.beta, &mut self.a, &mut self.c])
    }
}

/// Which mean and standard deviation BN normalizes with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stats {
    /// The batch's own, live: gradients flow through them.
    Batch,
    /// Constants (a batch's frozen, or the training set's population statistics).
    Fixed {
        /// μ.
        mean: f64,
        /// σ, ε already inside: sqrt(var + ε).
        std: f64,
    },
}

/// A forward pass over a batch.
#[derive(Clone, Debug, PartialEq)]
pub struct Forward {
    /// `w·x_i`.
    pub h: Vec<f64>,
    /// The normalized `(h_i − μ)/σ` (BN; `h_i` for the plain model).
    pub n: Vec<f64>,
    /// The head's input: `γ·n_i + β` (BN) or `h_i` (plain).
    pub z: Vec<f64>,
    /// The margins `y_i·f_i`.
    pub m: Vec<f64>,
    /// The mean loss.
    pub loss: f64,
    /// The μ used (0 for the plain model).
    pub mean: f64,
    /// The σ used (1 for the plain model).
    pub std: f64,
}

/// The logit's restriction to the signal plane (noise coordinates at 0): `f = w0·x + w1·y + b`.
/// Its zero set is the decision boundary.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Line {
    /// The coefficient of x.
    pub w0: f64,
    /// The coefficient of y.
    pub w1: f64,
    /// The constant.
    pub b: f64,
}

impl Line {
    /// The logit at `(x, y)` in the plane.
    pub fn logit(&self, x: f64, y: f64) -> f64 {
        self.w0 * x + self.w1 * y + self.b
    }
}

/// `softplus(t) = ln(1 + eᵗ)`, stable for any `t`.
pub fn softplus(t: f64) -> f64 {
    t.max(0.0) + (-t.abs()).exp().ln_1p()
}

/// `1/(1 + e⁻ᵗ)`, stable for any `t`.
pub fn sigmoid(t: f64) -> f64 {
    if t >= 0.0 {
        1.0 / (1.0 + (-t).exp())
    } else {
        let e = t.exp();
        e / (1.0 + e)
    }
}

/// `∂ℓ/∂f` for one sample: `−y·σ(−m)`.
pub fn dloss_dlogit(y: f64, m: f64) -> f64 {
    -y * sigmoid(-m)
}

/// One model: its parameters and whether it normalizes.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The parameters.
    pub params: Params,
    /// BN (`true`) or plain.
    pub bn: bool,
    /// BN's ε.
    pub eps: f64,
}

impl Model {
    /// The batch's statistics `(μ_B, σ_B)` of `h`.
    fn batch_stats(&self, h: &[f64]) -> (f64, f64) {
        let k = h.len() as f64;
        let mean = h.iter().sum::<f64>() / k;
        let var = h.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / k;
        (mean, (var + self.eps).sqrt())
    }

    /// The forward pass over the samples `idx` of `data`.
    pub fn forward(&self, data: &Data, idx: &[usize], stats: Stats) -> Forward {
        let p = &self.params;
        let h: Vec<f64> = idx.iter().map(|&i| dot(&p.w, &data.xs[i])).collect();
        let (mean, std) = match (self.bn, stats) {
            (false, _) => (0.0, 1.0),
            (true, Stats::Batch) => self.batch_stats(&h),
            (true, Stats::Fixed { mean, std }) => (mean, std),
        };
        let n: Vec<f64> =
            if self.bn { h.iter().map(|v| (v - mean) / std).collect() } else { h.clone() };
        let z: Vec<f64> =
            if self.bn { n.iter().map(|v| p.gamma * v + p.beta).collect() } else { h.clone() };
        let m: Vec<f64> =
            idx.iter().zip(&z).map(|(&i, zi)| data.ys[i] * (p.a * zi + p.c)).collect();
        let loss = m.iter().map(|mi| softplus(-mi)).sum::<f64>() / idx.len() as f64;
        Forward { h, n, z, m, loss, mean, std }
    }

    /// The forward pass and the gradient of its mean loss with respect to every parameter. With
    /// [`Stats::Batch`] the gradient goes through μ_B and σ_B; with [`Stats::Fixed`] they are
    /// constants.
    pub fn gradient(&self, data: &Data, idx: &[usize], stats: Stats) -> (Forward, Params) {
        let p = &self.params;
        let fw = self.forward(data, idx, stats);
        let k = idx.len() as f64;
        // ∂L/∂f_i (the mean's 1/|B| included).
        let df: Vec<f64> =
            idx.iter().zip(&fw.m).map(|(&i, &m)| dloss_dlogit(data.ys[i], m) / k).collect();
        let mut grad = Params::zeros(p.w.len());
        grad.c = df.iter().sum();
        grad.a = df.iter().zip(&fw.z).map(|(d, z)| d * z).sum();
        let dz: Vec<f64> = df.iter().map(|d| d * p.a).collect();
        let dh: Vec<f64> = if self.bn {
            grad.beta = dz.iter().sum();
            grad.gamma = dz.iter().zip(&fw.n).map(|(d, n)| d * n).sum();
            let dn: Vec<f64> = dz.iter().map(|d| d * p.gamma).collect();
            match stats {
                Stats::Batch => {
                    // Through μ_B and σ_B: ∂n_i/∂h_j = (δ_ij − 1/|B| − n_i·n_j/|B|)/σ_B.
                    let mean_dn = dn.iter().sum::<f64>() / k;
                    let mean_dn_n = dn.iter().zip(&fw.n).map(|(d, n)| d * n).sum::<f64>() / k;
                    dn.iter()
                        .zip(&fw.n)
                        .map(|(d, n)| (d - mean_dn - n * mean_dn_n) / fw.std)
                        .collect()
                }
                Stats::Fixed { .. } => dn.iter().map(|d| d / fw.std).collect(),
            }
        } else {
            dz
        };
        for (&i, d) in idx.iter().zip(&dh) {
            for (g, x) in grad.w.iter_mut().zip(&data.xs[i]) {
                *g += d * x;
            }
        }
        (fw, grad)
    }

    /// The logit of one input with fixed statistics (ignored by the plain model).
    pub fn logit(&self, x: &[f64], mean: f64, std: f64) -> f64 {
        let p = &self.params;
        let h = dot(&p.w, x);
        let z = if self.bn { p.gamma * (h - mean) / std + p.beta } else { h };
        p.a * z + p.c
    }

    /// The population statistics `(μ, σ)` of `h` over the samples `idx` (the training set); for
    /// the plain model (0, 1).
    pub fn population(&self, data: &Data, idx: &[usize]) -> (f64, f64) {
        if !self.bn {
            return (0.0, 1.0);
        }
        let h: Vec<f64> = idx.iter().map(|&i| dot(&self.params.w, &data.xs[i])).collect();
        self.batch_stats(&h)
    }

    /// The decision boundary in the signal plane with fixed statistics: for BN
    /// `f = a·(γ·(w0·x + w1·y − μ)/σ + β) + c`, for the plain model `f = a·(w0·x + w1·y) + c`.
    pub fn line(&self, mean: f64, std: f64) -> Line {
        let p = &self.params;
        let (scale, shift) =
            if self.bn { (p.gamma / std, p.beta - p.gamma * mean / std) } else { (1.0, 0.0) };
        Line { w0: p.a * scale * p.w[0], w1: p.a * scale * p.w[1], b: p.a * shift + p.c }
    }
}
