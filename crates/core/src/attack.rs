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
//!
//! The shadow-count curve ([`budget_curve`]) re-scores the attack with the first k of the trained
//! shadow models, k = 2..=K, with both variance choices ([`Variance`]).

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

/// Errors of the attack metrics. Its `Display` is the only English of these errors: the attack
/// (`experiment::attack_report`) hands it on as text, which a report keeps as `RunError::Other` and
/// the page and the CLI show as it is.
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

/// How LiRA estimates the variances of a candidate's IN and OUT Gaussians (the means are always
/// per candidate).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Variance {
    /// One IN and one OUT variance for all candidates, pooled over candidates (`global_vars`):
    /// the paper's "fixed variance", what [`lira`] uses below [`GLOBAL_VARIANCE_BELOW`] shadows.
    Global,
    /// Each candidate's own sample variance on each side. A side with a single value has none:
    /// it falls back to the pooled (global) variance of that side.
    PerSample,
}

/// The variance choice [`lira`] makes for `shadows` shadow models.
pub fn variance_for(shadows: usize) -> Variance {
    if shadows < GLOBAL_VARIANCE_BELOW { Variance::Global } else { Variance::PerSample }
}

/// LiRA scores, online and offline, of the target's φ values given each candidate's IN and OUT
/// shadow φ values, with the variance choice of [`variance_for`]`(shadows)`.
pub fn lira(
    target_phi: &[f64],
    phi_in: &[Vec<f64>],
    phi_out: &[Vec<f64>],
    shadows: usize,
) -> Result<(Vec<f64>, Vec<f64>), AttackError> {
    if let Some(candidate) =
        (0..target_phi.len()).find(|&i| phi_in[i].is_empty() || phi_out[i].is_empty())
    {
        return Err(AttackError::NotEnoughShadows { candidate });
    }
    let (online, offline) = lira_scores(target_phi, phi_in, phi_out, variance_for(shadows));
    let all = |v: Vec<Option<f64>>| v.into_iter().map(|s| s.expect("checked above")).collect();
    Ok((all(online), all(offline)))
}

/// The two Gaussians LiRA fits to one candidate's shadow φ values: the IN and OUT means (its own)
/// and variances (by the variance choice). Its [`online`](Self::online) and
/// [`offline`](Self::offline) scores are the attack's, for the target's φ.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fitted {
    /// `None` without an IN value.
    pub mu_in: Option<f64>,
    pub var_in: f64,
    pub mu_out: f64,
    pub var_out: f64,
}

impl Fitted {
    /// The online score: log N(φ; μ_in, σ_in²) − log N(φ; μ_out, σ_out²) (`None` without IN).
    pub fn online(&self, phi: f64) -> Option<f64> {
        self.mu_in.map(|mu| {
            log_normal_pdf(phi, mu, self.var_in) - log_normal_pdf(phi, self.mu_out, self.var_out)
        })
    }

    /// The offline score: log Φ((φ − μ_out)/σ_out).
    pub fn offline(&self, phi: f64) -> f64 {
        log_normal_cdf((phi - self.mu_out) / self.var_out.sqrt())
    }
}

/// Candidate `i`'s Gaussians (`None` without an OUT value), given the global variances.
fn fit(ins: &[f64], outs: &[f64], variance: Variance, global: (f64, f64)) -> Option<Fitted> {
    if outs.is_empty() {
        return None;
    }
    let (var_in, var_out) = match variance {
        Variance::Global => global,
        Variance::PerSample => (own_var(ins, global.0), own_var(outs, global.1)),
    };
    Some(Fitted {
        mu_in: (!ins.is_empty()).then(|| mean(ins)),
        var_in,
        mu_out: mean(outs),
        var_out,
    })
}

/// The Gaussians LiRA fitted to the candidates `which`, with the variance choice of
/// [`variance_for`]`(shadows)`: the attack's own (the page's per-sample view draws them). `None`
/// for a candidate without an OUT value.
pub fn fitted(
    phi_in: &[Vec<f64>],
    phi_out: &[Vec<f64>],
    shadows: usize,
    which: &[usize],
) -> Vec<Option<Fitted>> {
    let global = global_vars(phi_in, phi_out);
    which.iter().map(|&i| fit(&phi_in[i], &phi_out[i], variance_for(shadows), global)).collect()
}

/// LiRA scores with the variance choice as a parameter, for candidates that may lack IN or OUT
/// values: online is `None` for a candidate without an IN or an OUT value, offline `None` for one
/// without an OUT value. The global variances pool every value present, scored or not.
fn lira_scores(
    target_phi: &[f64],
    phi_in: &[Vec<f64>],
    phi_out: &[Vec<f64>],
    variance: Variance,
) -> (Vec<Option<f64>>, Vec<Option<f64>>) {
    let global = global_vars(phi_in, phi_out);
    target_phi
        .iter()
        .enumerate()
        .map(|(i, &phi)| match fit(&phi_in[i], &phi_out[i], variance, global) {
            Some(f) => (f.online(phi), Some(f.offline(phi))),
            None => (None, None),
        })
        .unzip()
}

/// TPR at 0.1 % FPR is reported only with at least this many non-members (below, 0.1 % of them
/// is less than one false positive: "too few candidates").
pub const TPR_01_MIN_NON_MEMBERS: usize = 1000;

/// One point of the shadow-count curve: one attack scored with the first `shadows` shadow models.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BudgetPoint {
    /// k: the first k shadow models were considered.
    pub shadows: usize,
    /// How many of those k did not diverge (only those give φ values).
    pub used: usize,
    /// Candidates scored: those with an IN and an OUT value (online) or an OUT value (offline)
    /// among the `used` shadows. The ROC is over these.
    pub scored: usize,
    pub auc: f64,
    /// TPR at 1 % FPR.
    pub tpr_1: f64,
    /// TPR at 0.1 % FPR; `None` with fewer than [`TPR_01_MIN_NON_MEMBERS`] scored non-members.
    pub tpr_01: Option<f64>,
}

/// The shadow-count curve ("the attack's budget"): LiRA's AUC and low-FPR TPR as the number of
/// shadow models grows from 2 to K, one series per attack (online / offline) and variance choice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BudgetCurve {
    pub online_global: Vec<BudgetPoint>,
    pub online_per_sample: Vec<BudgetPoint>,
    pub offline_global: Vec<BudgetPoint>,
    pub offline_per_sample: Vec<BudgetPoint>,
}

impl BudgetCurve {
    /// One series.
    pub fn series(&self, online: bool, variance: Variance) -> &[BudgetPoint] {
        match (online, variance) {
            (true, Variance::Global) => &self.online_global,
            (true, Variance::PerSample) => &self.online_per_sample,
            (false, Variance::Global) => &self.offline_global,
            (false, Variance::PerSample) => &self.offline_per_sample,
        }
    }
}

/// The shadow-count curve, from the shadow models already trained (nothing is trained): for each
/// k in 2..=K (K = `shadow_phi.len()`), the first k shadows — less those that diverged (`None`) —
/// give each candidate its IN and OUT φ values (IN where `keep[k][i]`), and online and offline
/// LiRA are scored with global and with per-sample variances (both, whatever K; see [`Variance`]:
/// per-sample falls back to the side's pooled variance where a candidate has a single value on
/// that side). With a subset some candidates lack an IN or an OUT value: online LiRA scores only
/// candidates with both, offline those with an OUT value; each point says how many it scored.
/// Members and non-members are by `is_member`, over the scored candidates. A point whose scored
/// candidates lack members or non-members (e.g. a single usable shadow, online) is left out, so a
/// series may have fewer than K − 1 points when shadows diverged.
pub fn budget_curve(
    target_phi: &[f64],
    shadow_phi: &[Option<Vec<f64>>],
    keep: &[Vec<bool>],
    is_member: &[bool],
) -> BudgetCurve {
    let n = target_phi.len();
    assert_eq!(is_member.len(), n, "is_member and target φ disagree");
    assert!(keep.len() >= shadow_phi.len(), "keep has fewer shadows than shadow φ");
    let mut curve = BudgetCurve {
        online_global: Vec::new(),
        online_per_sample: Vec::new(),
        offline_global: Vec::new(),
        offline_per_sample: Vec::new(),
    };
    let mut phi_in = vec![Vec::new(); n];
    let mut phi_out = vec![Vec::new(); n];
    let mut used = 0;
    for (k, phi) in shadow_phi.iter().enumerate() {
        if let Some(phi) = phi {
            assert_eq!(phi.len(), n, "shadow {k}'s φ and target φ disagree");
            assert_eq!(keep[k].len(), n, "keep[{k}] and target φ disagree");
            for (i, &v) in phi.iter().enumerate() {
                if keep[k][i] { phi_in[i].push(v) } else { phi_out[i].push(v) }
            }
            used += 1;
        }
        let shadows = k + 1;
        if shadows < 2 {
            continue;
        }
        for variance in [Variance::Global, Variance::PerSample] {
            let (online, offline) = lira_scores(target_phi, &phi_in, &phi_out, variance);
            for (scores, is_online) in [(online, true), (offline, false)] {
                let Some(point) = budget_point(&scores, is_member, shadows, used) else { continue };
                match (is_online, variance) {
                    (true, Variance::Global) => curve.online_global.push(point),
                    (true, Variance::PerSample) => curve.online_per_sample.push(point),
                    (false, Variance::Global) => curve.offline_global.push(point),
                    (false, Variance::PerSample) => curve.offline_per_sample.push(point),
                }
            }
        }
    }
    curve
}

fn budget_point(
    scores: &[Option<f64>],
    is_member: &[bool],
    shadows: usize,
    used: usize,
) -> Option<BudgetPoint> {
    let (mut m, mut o) = (Vec::new(), Vec::new());
    for (s, &member) in scores.iter().zip(is_member) {
        if let Some(s) = *s {
            if member { m.push(s) } else { o.push(s) }
        }
    }
    let r = roc(&m, &o).ok()?;
    Some(BudgetPoint {
        shadows,
        used,
        scored: m.len() + o.len(),
        auc: r.auc,
        tpr_1: r.tpr_at(0.01)?,
        tpr_01: if o.len() >= TPR_01_MIN_NON_MEMBERS { r.tpr_at(0.001) } else { None },
    })
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

    /// A synthetic LiRA setting: candidate i has a difficulty d_i ~ N(0, 1); a shadow's φ is
    /// d_i + `signal` if it trains on i, plus N(0, `noise`²); the target's likewise for members
    /// (every other candidate). Returns (target φ, shadow φ, keep, is_member).
    #[allow(clippy::type_complexity)]
    fn synthetic(
        n: usize,
        shadows: usize,
        signal: f64,
        noise: f64,
        seed: u64,
    ) -> (Vec<f64>, Vec<Option<Vec<f64>>>, Vec<Vec<bool>>, Vec<bool>) {
        let mut rng = Rng::new(seed);
        let keep = shadow_membership(n, shadows, seed);
        let difficulty: Vec<f64> = (0..n).map(|_| rng.normal()).collect();
        let is_member: Vec<bool> = (0..n).map(|i| i % 2 == 0).collect();
        let mut phi = |i: usize, trained: bool| {
            difficulty[i] + if trained { signal } else { 0.0 } + noise * rng.normal()
        };
        let target = (0..n).map(|i| phi(i, is_member[i])).collect();
        let shadow_phi =
            keep.iter().map(|kp| Some((0..n).map(|i| phi(i, kp[i])).collect())).collect();
        (target, shadow_phi, keep, is_member)
    }

    /// The full attack as `experiment::attack_report` computes it, with `shadows` passed to
    /// [`lira`]: (online, offline) ROCs.
    fn full_attack(
        target: &[f64],
        shadow_phi: &[Option<Vec<f64>>],
        keep: &[Vec<bool>],
        is_member: &[bool],
        shadows: usize,
    ) -> (Roc, Roc) {
        let n = target.len();
        let (mut phi_in, mut phi_out) = (vec![Vec::new(); n], vec![Vec::new(); n]);
        for (k, phi) in shadow_phi.iter().enumerate() {
            let Some(phi) = phi else { continue };
            for (i, &v) in phi.iter().enumerate() {
                if keep[k][i] { phi_in[i].push(v) } else { phi_out[i].push(v) }
            }
        }
        let (online, offline) = lira(target, &phi_in, &phi_out, shadows).unwrap();
        let split = |s: &[f64]| {
            let m: Vec<f64> = (0..n).filter(|&i| is_member[i]).map(|i| s[i]).collect();
            let o: Vec<f64> = (0..n).filter(|&i| !is_member[i]).map(|i| s[i]).collect();
            roc(&m, &o).unwrap()
        };
        (split(&online), split(&offline))
    }

    fn same_point(p: &BudgetPoint, r: &Roc, n: usize) {
        assert_eq!(p.scored, n);
        assert!(near(p.auc, r.auc), "{} vs {}", p.auc, r.auc);
        assert!(near(p.tpr_1, r.tpr_at(0.01).unwrap()), "{} vs {:?}", p.tpr_1, r.tpr_at(0.01));
    }

    #[test]
    fn budget_curve_at_k_equals_the_full_attack() {
        for shadows in [4, 6] {
            let n = 300;
            let (target, shadow_phi, keep, member) =
                synthetic(n, shadows, 0.7, 1.0, shadows as u64);
            let curve = budget_curve(&target, &shadow_phi, &keep, &member);
            // The choice `lira` makes for K (global here), and per-sample (what `lira` does from
            // GLOBAL_VARIANCE_BELOW shadows on).
            assert_eq!(variance_for(shadows), Variance::Global);
            for (variance, as_if) in
                [(variance_for(shadows), shadows), (Variance::PerSample, GLOBAL_VARIANCE_BELOW)]
            {
                let (on, off) = full_attack(&target, &shadow_phi, &keep, &member, as_if);
                let last = |online| curve.series(online, variance).last().unwrap();
                assert_eq!(last(true).shadows, shadows);
                same_point(last(true), &on, n);
                same_point(last(false), &off, n);
            }
            // The two variance choices are different attacks.
            assert!(
                curve.online_global.last().unwrap().auc
                    != curve.online_per_sample.last().unwrap().auc
            );
        }
    }

    #[test]
    fn budget_curve_has_one_point_per_k_and_a_strong_signal_shows() {
        let shadows = 6;
        let (target, shadow_phi, keep, member) = synthetic(400, shadows, 3.0, 0.3, 11);
        let curve = budget_curve(&target, &shadow_phi, &keep, &member);
        for series in [
            &curve.online_global,
            &curve.online_per_sample,
            &curve.offline_global,
            &curve.offline_per_sample,
        ] {
            let ks: Vec<usize> = series.iter().map(|p| p.shadows).collect();
            assert_eq!(ks, (2..=shadows).collect::<Vec<_>>());
            assert!(series.iter().all(|p| p.used == p.shadows));
            let last = series.last().unwrap();
            assert!(last.auc > 0.9, "{last:?}");
            assert_eq!(last.scored, 400);
        }
    }

    #[test]
    fn budget_curve_scores_only_candidates_with_the_values_it_needs() {
        let n = 300;
        let (target, shadow_phi, keep, member) = synthetic(n, 4, 0.7, 1.0, 3);
        let curve = budget_curve(&target, &shadow_phi, &keep, &member);
        // k = 2: online needs one IN and one OUT among shadows 0 and 1, offline one OUT.
        let both = (0..n).filter(|&i| keep[0][i] != keep[1][i]).count();
        let some_out = (0..n).filter(|&i| !(keep[0][i] && keep[1][i])).count();
        assert!(both < some_out && some_out < n, "{both} {some_out}");
        for v in [Variance::Global, Variance::PerSample] {
            assert_eq!(curve.series(true, v)[0].scored, both);
            assert_eq!(curve.series(false, v)[0].scored, some_out);
            // k = 3: each candidate is IN for 2 of 4; only those IN for 0, 1, 2 (none) or OUT
            // for all three lack a side.
            let k3 = (0..n).filter(|&i| (0..3).any(|k| keep[k][i]) && (0..3).any(|k| !keep[k][i]));
            assert_eq!(curve.series(true, v)[1].scored, k3.count());
        }
        // The k = 2 online points are the ROC of exactly those candidates' scores.
        let (mut phi_in, mut phi_out) = (vec![Vec::new(); n], vec![Vec::new(); n]);
        for k in 0..2 {
            for i in 0..n {
                let v = shadow_phi[k].as_ref().unwrap()[i];
                if keep[k][i] { phi_in[i].push(v) } else { phi_out[i].push(v) }
            }
        }
        let (online, _) = lira_scores(&target, &phi_in, &phi_out, Variance::Global);
        let m: Vec<f64> = (0..n).filter(|&i| member[i]).filter_map(|i| online[i]).collect();
        let o: Vec<f64> = (0..n).filter(|&i| !member[i]).filter_map(|i| online[i]).collect();
        assert_eq!(m.len() + o.len(), both);
        assert!(near(curve.online_global[0].auc, roc(&m, &o).unwrap().auc));
    }

    #[test]
    fn budget_curve_skips_diverged_shadows() {
        let n = 300;
        let (target, mut shadow_phi, keep, member) = synthetic(n, 6, 0.7, 1.0, 9);
        let whole = budget_curve(&target, &shadow_phi, &keep, &member);
        shadow_phi[2] = None;
        let curve = budget_curve(&target, &shadow_phi, &keep, &member);
        for v in [Variance::Global, Variance::PerSample] {
            for online in [true, false] {
                let (s, w) = (curve.series(online, v), whole.series(online, v));
                assert_eq!(s.len(), 5);
                // k = 2 is untouched; k = 3 adds nothing (shadow 2 diverged): the same attack.
                assert_eq!(s[0], w[0]);
                assert_eq!(s[1], BudgetPoint { shadows: 3, ..s[0].clone() });
                assert_eq!(s[4].used, 5);
                assert!(s[4] != w[4]);
            }
        }
        // At K it is the full attack, which skips the diverged shadow too.
        let (on, off) = full_attack(&target, &shadow_phi, &keep, &member, 6);
        same_point(curve.online_global.last().unwrap(), &on, n);
        same_point(curve.offline_global.last().unwrap(), &off, n);
        // One usable shadow: nothing has both IN and OUT, online has no points; offline scores
        // the candidates that shadow leaves out.
        let only_first: Vec<Option<Vec<f64>>> = shadow_phi
            .iter()
            .enumerate()
            .map(|(k, p)| if k == 0 { p.clone() } else { None })
            .collect();
        let curve = budget_curve(&target, &only_first, &keep, &member);
        assert!(curve.online_global.is_empty() && curve.online_per_sample.is_empty());
        assert_eq!(curve.offline_global.len(), 5);
        let outs = (0..n).filter(|&i| !keep[0][i]).count();
        assert!(curve.offline_global.iter().all(|p| p.used == 1 && p.scored == outs));
    }

    #[test]
    fn tpr_at_a_tenth_of_a_percent_needs_a_thousand_non_members() {
        // K = 2: the two shadows are complementary, every candidate is scored.
        for (non_members, some) in [(999, false), (1000, true)] {
            let n = 1000 + non_members;
            let (target, shadow_phi, keep, _) = synthetic(n, 2, 1.0, 1.0, 4);
            let member: Vec<bool> = (0..n).map(|i| i < 1000).collect();
            let curve = budget_curve(&target, &shadow_phi, &keep, &member);
            for v in [Variance::Global, Variance::PerSample] {
                for online in [true, false] {
                    let p = &curve.series(online, v)[0];
                    assert_eq!(p.scored, n);
                    assert_eq!(p.tpr_01.is_some(), some, "{p:?}");
                }
            }
        }
    }
}
