//! Membership inference: the loss-threshold attack (Yeom et al. 2018) and LiRA (Carlini et al.
//! 2022, "Membership Inference Attacks From First Principles"), with ROC, AUC and TPR at low FPR.
//!
//! Scores are computed on the host from logits, in f64:
//! * loss ℓ = LSE(z) − z_y (cross-entropy of the label the model was trained with);
//! * confidence p_y = exp(−ℓ);
//! * LiRA's logit-scaled confidence φ = log(p_y / (1 − p_y)) = z_y − LSE_{j≠y}(z_j), which is exact
//!   for any logits (no clipping of p_y to [ε, 1 − ε]).
//!
//! LiRA: K shadow models, each trained on half of the candidate pool. Each candidate is IN for
//! exactly ⌊K/2⌋ shadows, chosen at random ([`shadow_membership`]), so every candidate has both IN
//! and OUT models for K ≥ 2. Per candidate, Gaussians are fitted to its IN and OUT φ values; the
//! **online** score is the log-likelihood ratio log N(φ; μ_in, σ_in²) − log N(φ; μ_out, σ_out²); the
//! **offline** score uses OUT only, one-sided: log Φ((φ − μ_out)/σ_out) (large when φ is above what
//! non-members reach). With fewer than [`GLOBAL_VARIANCE_BELOW`] shadow models the variances are
//! global, as the paper's reference code does for small K (see `global_vars`: within-candidate
//! variances pooled over candidates, IN and OUT together for a side that has none, e.g. K odd);
//! means are always per candidate.

use serde::{Deserialize, Serialize};

use crate::data::Rng;

/// Below this many shadow models, LiRA uses global IN and OUT variances.
pub const GLOBAL_VARIANCE_BELOW: usize = 64;

/// The FPRs at which TPR is reported.
pub const LOW_FPRS: [f64; 3] = [0.001, 0.01, 0.1];

/// Per-sample scores of a model on a set of samples.
#[derive(Clone, Debug, PartialEq)]
pub struct Scores {
    pub loss: Vec<f64>,
    pub confidence: Vec<f64>,
    pub phi: Vec<f64>,
}

/// Scores from row-major logits `[n, classes]` and labels.
pub fn scores(logits: &[f32], classes: usize, labels: &[u8]) -> Scores {
    let n = labels.len();
    assert_eq!(logits.len(), n * classes, "logits and labels disagree");
    let mut s = Scores {
        loss: Vec::with_capacity(n),
        confidence: Vec::with_capacity(n),
        phi: Vec::with_capacity(n),
    };
    for (row, &y) in logits.chunks(classes).zip(labels) {
        let z: Vec<f64> = row.iter().map(|&v| f64::from(v)).collect();
        let y = y as usize;
        let lse = log_sum_exp(z.iter().copied());
        let lse_other = log_sum_exp(z.iter().enumerate().filter(|(j, _)| *j != y).map(|(_, v)| *v));
        let loss = lse - z[y];
        s.loss.push(loss);
        s.confidence.push((-loss).exp());
        s.phi.push(z[y] - lse_other);
    }
    s
}

fn log_sum_exp(xs: impl Iterator<Item = f64> + Clone) -> f64 {
    let m = xs.clone().fold(f64::NEG_INFINITY, f64::max);
    if m == f64::NEG_INFINITY {
        return m;
    }
    m + xs.map(|x| (x - m).exp()).sum::<f64>().ln()
}

/// Which candidates each shadow model trains on: `result[k][i]` is true if candidate `i` is IN for
/// shadow `k`. Each candidate is IN for exactly ⌊K/2⌋ shadows, chosen at random.
#[allow(clippy::needless_range_loop)] // one draw per candidate, in candidate order: the seed's stream
pub fn shadow_membership(candidates: usize, shadows: usize, seed: u64) -> Vec<Vec<bool>> {
    let mut rng = Rng::derive(seed, "shadows");
    let mut keep = vec![vec![false; candidates]; shadows];
    for i in 0..candidates {
        for k in rng.sample_indices(shadows, shadows / 2) {
            keep[k][i] = true;
        }
    }
    keep
}

/// Errors of the attack metrics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttackError {
    /// No member or no non-member score.
    EmptyClass(&'static str),
    /// LiRA needs at least one IN and one OUT value per candidate.
    NotEnoughShadows { candidate: usize },
}

impl std::fmt::Display for AttackError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::EmptyClass(c) => write!(f, "no {c} scores: a ROC needs members and non-members"),
            Self::NotEnoughShadows { candidate } => {
                write!(
                    f,
                    "candidate {candidate} has no IN or no OUT shadow model: LiRA needs at least 2 shadow models"
                )
            }
        }
    }
}

impl std::error::Error for AttackError {}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// Squared deviations of the values around their own candidate's mean, summed over candidates,
/// and the degrees of freedom they carry.
fn within_ss(groups: &[Vec<f64>]) -> (f64, usize) {
    let (mut ss, mut n) = (0.0, 0usize);
    for g in groups {
        if g.len() > 1 {
            let m = mean(g);
            ss += g.iter().map(|x| (x - m).powi(2)).sum::<f64>();
            n += g.len() - 1;
        }
    }
    (ss, n)
}

/// The variance of every value of every candidate around their common mean (the reference
/// code's fixed variance, `np.std(dat_in)`); 1.0 if there are fewer than two values.
fn total_var(groups: &[Vec<f64>]) -> f64 {
    let all: Vec<f64> = groups.iter().flatten().copied().collect();
    if all.len() < 2 {
        return 1.0;
    }
    let m = mean(&all);
    (all.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (all.len() - 1) as f64).max(1e-12)
}

/// The global IN and OUT variances: each side's within-candidate variance pooled over candidates.
/// A side whose candidates have one value each (K odd: ⌊K/2⌋ = 1 IN model) has no within
/// estimate; it takes the IN+OUT pooled one. With no within estimate at all (K = 2), each side
/// takes the variance of all its values around their common mean.
fn global_vars(phi_in: &[Vec<f64>], phi_out: &[Vec<f64>]) -> (f64, f64) {
    let (ss_in, n_in) = within_ss(phi_in);
    let (ss_out, n_out) = within_ss(phi_out);
    if n_in + n_out == 0 {
        return (total_var(phi_in), total_var(phi_out));
    }
    let both = ((ss_in + ss_out) / (n_in + n_out) as f64).max(1e-12);
    let side = |ss: f64, n: usize| if n == 0 { both } else { (ss / n as f64).max(1e-12) };
    (side(ss_in, n_in), side(ss_out, n_out))
}

fn own_var(g: &[f64], fallback: f64) -> f64 {
    if g.len() < 2 {
        return fallback;
    }
    let m = mean(g);
    (g.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (g.len() - 1) as f64).max(1e-12)
}

fn log_normal_pdf(x: f64, mu: f64, var: f64) -> f64 {
    -0.5 * ((x - mu).powi(2) / var + var.ln() + (2.0 * std::f64::consts::PI).ln())
}

/// log Φ(z), accurate in both tails.
pub fn log_normal_cdf(z: f64) -> f64 {
    if z > -5.0 {
        (0.5 * erfc(-z / std::f64::consts::SQRT_2)).ln()
    } else {
        // Asymptotic series of the Mills ratio.
        let z2 = z * z;
        -0.5 * z2 - (-z).ln() - 0.5 * (2.0 * std::f64::consts::PI).ln()
            + (1.0 - 1.0 / z2 + 3.0 / (z2 * z2)).ln()
    }
}

/// The complementary error function: the Chebyshev fit of Numerical Recipes (`erfcc`), with a
/// fractional error below 1.2e-7 everywhere — ample for ranking scores.
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// LiRA scores, online and offline, of the target's φ values given each candidate's IN and OUT
/// shadow φ values.
pub fn lira(
    target_phi: &[f64],
    phi_in: &[Vec<f64>],
    phi_out: &[Vec<f64>],
    shadows: usize,
) -> Result<(Vec<f64>, Vec<f64>), AttackError> {
    let global = shadows < GLOBAL_VARIANCE_BELOW;
    let (var_in_g, var_out_g) = global_vars(phi_in, phi_out);
    let mut online = Vec::with_capacity(target_phi.len());
    let mut offline = Vec::with_capacity(target_phi.len());
    for (i, &phi) in target_phi.iter().enumerate() {
        let (ins, outs) = (&phi_in[i], &phi_out[i]);
        if ins.is_empty() || outs.is_empty() {
            return Err(AttackError::NotEnoughShadows { candidate: i });
        }
        let (mu_in, mu_out) = (mean(ins), mean(outs));
        let (var_in, var_out) = if global {
            (var_in_g, var_out_g)
        } else {
            (own_var(ins, var_in_g), own_var(outs, var_out_g))
        };
        online.push(log_normal_pdf(phi, mu_in, var_in) - log_normal_pdf(phi, mu_out, var_out));
        offline.push(log_normal_cdf((phi - mu_out) / var_out.sqrt()));
    }
    Ok((online, offline))
}

/// One attack's ROC and summary numbers. Higher scores mean "member".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Roc {
    /// Exact ROC points (fpr, tpr), from (0, 0) to (1, 1), one per distinct threshold.
    pub points: Vec<(f64, f64)>,
    pub auc: f64,
    /// max over thresholds of (TPR + TNR) / 2.
    pub balanced_accuracy: f64,
    /// TPR at FPR ≤ 0.1 %, 1 %, 10 % ([`LOW_FPRS`]).
    pub tpr_at_low_fpr: Vec<(f64, f64)>,
}

/// The ROC of member vs non-member scores. Ties between a member and a non-member count half
/// (the curve moves diagonally through a tied group).
pub fn roc(members: &[f64], non_members: &[f64]) -> Result<Roc, AttackError> {
    if members.is_empty() {
        return Err(AttackError::EmptyClass("member"));
    }
    if non_members.is_empty() {
        return Err(AttackError::EmptyClass("non-member"));
    }
    let mut all: Vec<(f64, bool)> =
        members.iter().map(|&s| (s, true)).chain(non_members.iter().map(|&s| (s, false))).collect();
    // Descending by score; NaN scores sort last (never above any threshold).
    all.sort_by(|a, b| match (a.0.is_nan(), b.0.is_nan()) {
        (true, true) => std::cmp::Ordering::Equal,
        (true, false) => std::cmp::Ordering::Greater,
        (false, true) => std::cmp::Ordering::Less,
        _ => b.0.total_cmp(&a.0),
    });
    let (p, n) = (members.len() as f64, non_members.len() as f64);
    let mut points = vec![(0.0, 0.0)];
    let (mut tp, mut fp) = (0usize, 0usize);
    let mut auc = 0.0;
    let mut best_bal: f64 = 0.5;
    let mut i = 0;
    while i < all.len() {
        let s = all[i].0;
        let (tp0, fp0) = (tp, fp);
        while i < all.len() && (all[i].0 == s || (all[i].0.is_nan() && s.is_nan())) {
            if all[i].1 {
                tp += 1
            } else {
                fp += 1
            }
            i += 1;
        }
        let (x0, y0) = (fp0 as f64 / n, tp0 as f64 / p);
        let (x1, y1) = (fp as f64 / n, tp as f64 / p);
        auc += (x1 - x0) * (y0 + y1) / 2.0;
        best_bal = best_bal.max((y1 + 1.0 - x1) / 2.0);
        points.push((x1, y1));
    }
    let tpr_at_low_fpr = LOW_FPRS
        .iter()
        .map(|&f| {
            (f, points.iter().filter(|(x, _)| *x <= f + 1e-15).map(|(_, y)| *y).fold(0.0, f64::max))
        })
        .collect();
    Ok(Roc { points, auc, balanced_accuracy: best_bal, tpr_at_low_fpr })
}

/// The AUC of member vs non-member scores where each member carries a weight: the members of a
/// stratified sample (e.g. a few noisy and a few clean members, each group weighted by how many
/// members it stands for) give the AUC the whole member set would, in expectation. A member above
/// a non-member counts 1, a tie ½, as in [`roc`]; NaN scores count as below every number.
pub fn weighted_auc(members: &[(f64, f64)], non_members: &[f64]) -> Result<f64, AttackError> {
    let total: f64 = members.iter().map(|m| m.1).sum();
    if members.is_empty() || total <= 0.0 {
        return Err(AttackError::EmptyClass("member"));
    }
    if non_members.is_empty() {
        return Err(AttackError::EmptyClass("non-member"));
    }
    let key = |s: f64| if s.is_nan() { f64::NEG_INFINITY } else { s };
    let mut sorted: Vec<f64> = non_members.iter().map(|&s| key(s)).collect();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len() as f64;
    let mut sum = 0.0;
    for &(s, w) in members {
        let s = key(s);
        let below = sorted.partition_point(|&o| o < s);
        let tied = sorted.partition_point(|&o| o <= s) - below;
        sum += w * (below as f64 + 0.5 * tied as f64) / n;
    }
    Ok(sum / total)
}

impl Roc {
    /// TPR at a reported low FPR.
    pub fn tpr_at(&self, fpr: f64) -> Option<f64> {
        self.tpr_at_low_fpr.iter().find(|(f, _)| (*f - fpr).abs() < 1e-12).map(|(_, t)| *t)
    }

    /// At most `max` of the exact points, for drawing on log-log axes: the ends, and the points
    /// nearest to log-spaced FPRs (and to evenly spaced ones, for linear axes).
    pub fn downsampled(&self, max: usize) -> Vec<(f64, f64)> {
        if self.points.len() <= max || max < 4 {
            return self.points.clone();
        }
        let mut keep = vec![0, self.points.len() - 1];
        let half = (max - 2) / 2;
        let min_fpr = self.points.iter().map(|p| p.0).filter(|&x| x > 0.0).fold(1.0, f64::min);
        for k in 0..half {
            let t = k as f64 / (half.max(2) - 1) as f64;
            let log_target = min_fpr.ln() * (1.0 - t);
            let lin_target = t;
            for target in [log_target.exp(), lin_target] {
                // The last point whose fpr does not exceed the target: the curve's value there.
                let j = self.points.partition_point(|p| p.0 <= target).saturating_sub(1);
                keep.push(j);
            }
        }
        keep.sort_unstable();
        keep.dedup();
        keep.into_iter().map(|j| self.points[j]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn near(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn weighted_auc_is_the_roc_auc_with_equal_weights_and_reweights_groups() {
        let m = [0.9, 0.4, 0.4, 0.1, f64::NAN];
        let o = [0.5, 0.4, 0.2, f64::NAN];
        let eq: Vec<(f64, f64)> = m.iter().map(|&s| (s, 1.0)).collect();
        assert!(near(weighted_auc(&eq, &o).unwrap(), roc(&m, &o).unwrap().auc));
        // Member 0.9 beats all 4 (1.0); 0.1 beats only the NaN (0.25). Weights 3 and 1:
        // (3·1.0 + 1·0.25) / 4.
        assert!(near(
            weighted_auc(&[(0.9, 3.0), (0.1, 1.0)], &[0.5, 0.4, 0.2, f64::NAN]).unwrap(),
            3.25 / 4.0
        ));
        // A tie counts half.
        assert!(near(weighted_auc(&[(0.4, 2.0)], &[0.4]).unwrap(), 0.5));
        assert!(weighted_auc(&[], &o).is_err());
        assert!(weighted_auc(&[(0.1, 0.0)], &o).is_err());
        assert!(weighted_auc(&eq, &[]).is_err());
    }

    #[test]
    fn phi_is_stable_and_matches_the_definition() {
        let s = scores(&[2.0, 0.0, -1.0], 3, &[0]);
        let p = 2f64.exp() / (2f64.exp() + 1.0 + (-1f64).exp());
        assert!(near(s.confidence[0], p));
        assert!(near(s.phi[0], (p / (1.0 - p)).ln()));
        assert!(near(s.loss[0], -p.ln()));
        // Extreme logits: p_y rounds to 1 in f64, φ stays exact and finite.
        let s = scores(&[80.0, 0.0, 0.0], 3, &[0]);
        assert!(near(s.phi[0], 80.0 - 2f64.ln()), "{}", s.phi[0]);
        let s = scores(&[-80.0, 0.0, 0.0], 3, &[0]);
        assert!(near(s.phi[0], -80.0 - 2f64.ln()));
    }

    #[test]
    fn roc_by_hand() {
        // members 0.9, 0.8, 0.4; non-members 0.7, 0.3: AUC = (1 + 1 + 1 + 1 + 0 + 1)/6 ... by pairs:
        // pairs (m > n): 0.9>{.7,.3}, 0.8>{.7,.3}, 0.4>{.3} → 5 of 6.
        let r = roc(&[0.9, 0.8, 0.4], &[0.7, 0.3]).unwrap();
        assert!(near(r.auc, 5.0 / 6.0), "{}", r.auc);
        let expect = [
            (0.0, 0.0),
            (0.0, 1.0 / 3.0),
            (0.0, 2.0 / 3.0),
            (0.5, 2.0 / 3.0),
            (0.5, 1.0),
            (1.0, 1.0),
        ];
        assert_eq!(r.points.len(), expect.len());
        for (a, b) in r.points.iter().zip(expect) {
            assert!(near(a.0, b.0) && near(a.1, b.1), "{a:?} vs {b:?}");
        }
        // Best balanced accuracy: threshold 0.8 → (2/3 + 1)/2 or 0.4 → (1 + 0.5)/2 = 0.8333.
        assert!(near(r.balanced_accuracy, 5.0 / 6.0));
        assert!(near(r.tpr_at(0.001).unwrap(), 2.0 / 3.0));
        assert!(near(r.tpr_at(0.1).unwrap(), 2.0 / 3.0));
    }

    #[test]
    fn ties_count_half() {
        // One member and one non-member tied, plus a clear pair: pairs m>n: (1.0 > 0.5): 1,
        // (1.0 > 0.0): 1, (0.5 = 0.5): 0.5, (0.5 > 0.0): 1 → 3.5 / 4.
        let r = roc(&[1.0, 0.5], &[0.5, 0.0]).unwrap();
        assert!(near(r.auc, 3.5 / 4.0), "{}", r.auc);
        assert!(r.points.contains(&(0.5, 1.0)));
    }

    #[test]
    fn degenerate_cases() {
        let r = roc(&[0.3; 10], &[0.3; 7]).unwrap();
        assert!(near(r.auc, 0.5));
        assert_eq!(r.points, vec![(0.0, 0.0), (1.0, 1.0)]);
        assert!(near(r.tpr_at(0.01).unwrap(), 0.0));
        let r = roc(&[5.0, 6.0], &[1.0, 2.0, 3.0]).unwrap();
        assert!(near(r.auc, 1.0));
        assert!(near(r.balanced_accuracy, 1.0));
        assert!(near(r.tpr_at(0.001).unwrap(), 1.0));
        let r = roc(&[1.0, 2.0], &[5.0, 6.0]).unwrap();
        assert!(near(r.auc, 0.0));
        assert_eq!(roc(&[], &[1.0]).unwrap_err(), AttackError::EmptyClass("member"));
        assert_eq!(roc(&[1.0], &[]).unwrap_err(), AttackError::EmptyClass("non-member"));
    }

    #[test]
    fn downsampling_keeps_ends_and_exact_points() {
        let m: Vec<f64> = (0..5000).map(|i| i as f64 * 1.3 % 7.0 + 0.5).collect();
        let n: Vec<f64> = (0..5000).map(|i| i as f64 * 1.7 % 7.0).collect();
        let r = roc(&m, &n).unwrap();
        let d = r.downsampled(100);
        assert!(d.len() <= 100 && d.len() > 10, "{}", d.len());
        assert_eq!(d[0], (0.0, 0.0));
        assert_eq!(*d.last().unwrap(), (1.0, 1.0));
        assert!(d.iter().all(|p| r.points.contains(p)));
    }

    #[test]
    fn log_normal_cdf_matches_known_values() {
        assert!((log_normal_cdf(0.0) - 0.5f64.ln()).abs() < 1e-6);
        assert!((log_normal_cdf(1.0) - 0.841_344_746f64.ln()).abs() < 1e-6);
        assert!((log_normal_cdf(-3.0) - 0.001_349_898f64.ln()).abs() < 1e-4);
        assert!((log_normal_cdf(-10.0) - (-53.231_285)).abs() < 1e-3);
        assert!(log_normal_cdf(-40.0).is_finite());
    }

    #[test]
    fn shadow_membership_is_balanced_per_candidate() {
        let keep = shadow_membership(500, 8, 1);
        for i in 0..500 {
            assert_eq!(keep.iter().filter(|k| k[i]).count(), 4);
        }
        let sizes: Vec<usize> = keep.iter().map(|k| k.iter().filter(|&&x| x).count()).collect();
        assert!(sizes.iter().all(|&s| (200..300).contains(&s)), "{sizes:?}");
    }

    /// LiRA on synthetic φ: IN ~ N(1, 1), OUT ~ N(0, 1). The likelihood ratio is then optimal and
    /// its AUC is Φ(Δμ / √2) = Φ(0.7071) = 0.76025. 4,000 members + 4,000 non-members, 16 shadow
    /// values per side: the AUC's sampling s.d. is about 0.006; tolerance 0.025.
    #[test]
    fn odd_shadow_counts_pool_in_and_out_variances() {
        // K = 3: one IN value per candidate (no within estimate), two OUT values each.
        let phi_in: Vec<Vec<f64>> = (0..50).map(|i| vec![i as f64]).collect();
        let phi_out: Vec<Vec<f64>> =
            (0..50).map(|i| vec![i as f64 - 1.0, i as f64 + 1.0]).collect();
        let (vi, vo) = global_vars(&phi_in, &phi_out);
        // Each OUT pair deviates ±1 around its mean: ss = 2 per candidate, 1 dof each → 2.0.
        assert!(near(vo, 2.0), "{vo}");
        assert!(near(vi, 2.0), "the IN side borrows the pooled estimate, not 1.0: {vi}");
        // K = 2: no within estimate on either side → the spread of all values.
        let one: Vec<Vec<f64>> = (0..3).map(|i| vec![2.0 * i as f64]).collect();
        let (vi, _) = global_vars(&one, &one);
        assert!(near(vi, 4.0), "{vi}");
    }

    #[test]
    fn lira_on_synthetic_gaussians_reaches_the_analytical_auc() {
        let mut rng = Rng::new(5);
        let n = 8000;
        let (mut target, mut ins, mut outs, mut member) = (vec![], vec![], vec![], vec![]);
        for i in 0..n {
            let is_member = i % 2 == 0;
            ins.push((0..16).map(|_| 1.0 + rng.normal()).collect::<Vec<_>>());
            outs.push((0..16).map(|_| rng.normal()).collect::<Vec<_>>());
            target.push(if is_member { 1.0 } else { 0.0 } + rng.normal());
            member.push(is_member);
        }
        let (online, offline) = lira(&target, &ins, &outs, 32).unwrap();
        let split = |s: &[f64]| {
            let m: Vec<f64> = s.iter().zip(&member).filter(|(_, m)| **m).map(|(x, _)| *x).collect();
            let o: Vec<f64> =
                s.iter().zip(&member).filter(|(_, m)| !**m).map(|(x, _)| *x).collect();
            roc(&m, &o).unwrap().auc
        };
        let analytical = 0.760_25;
        let (a_on, a_off) = (split(&online), split(&offline));
        assert!((a_on - analytical).abs() < 0.025, "online AUC {a_on}");
        // Offline is monotone in φ here too (equal variances), so it is just as good.
        assert!((a_off - analytical).abs() < 0.025, "offline AUC {a_off}");
        assert!(lira(&[0.0], &[vec![]], &[vec![0.0]], 2).is_err());
    }
}
