//! The paper's directions, checked on our own runs: the grid (BN vs no-BN × label noise
//! {0, 1 %, 5 %} and 5 % OOD images, all with LiRA; an SGD arm at 0 and 5 % for the mechanism; at
//! 5 % the BN model with the γ/σ regularizer at several strengths; and our question, a GroupNorm
//! model at each noise level) over several seeds, and the claims, each decided with a margin.
//!
//! Each claim is a function from one seed's reports to named numbers ([`Numbers`]) and the
//! numbers it is decided on ([`Claim::tests`]: "this number is above that bar"). A test **holds**
//! when its values over the seeds clear the bar by at least two standard errors of their mean
//! *and* more than half of all the grid's seeds clear it (a seed whose runs are missing counts
//! against); it **fails** when they fall below the bar the same way; otherwise it is
//! **inconclusive**. A claim holds when all its tests hold, did not hold when any fails. A test
//! whose number no seed has (e.g. fewer than [`MIN_FLIPPED`] flipped members) is left out; a
//! claim with none left "could not be checked". The bars are the paper's words or zero, never
//! tuned to our results; where a method is ours the claim's text says so.

use serde::{Deserialize, Serialize};

use crate::config::{Config, DatasetName, Norm, OptimizerName, Variant};
use crate::report::{EpochRecord, ModelRun, Report};

/// Label-noise levels of the grid.
pub const NOISE_LEVELS: [f64; 3] = [0.0, 0.01, 0.05];

/// The noise level of the regularizer runs, the λ sweep, the OOD arm and the mechanism claims.
pub const REG_NOISE: f64 = 0.05;

/// The OOD arm: this fraction of the members replaced by OOD images (labels clean otherwise).
pub const OOD_FRACTION: f64 = 0.05;

/// λ values of the regularizer sweep (the first is the one claim (e) reads).
pub const REG_LAMBDAS: [f64; 3] = [0.05, 0.01, 0.2];

/// The SGD arm's learning rate (momentum 0.9), our choice: a common one for LeNet on MNIST.
pub const SGD_LR: f64 = 0.01;

/// A noise level with fewer flipped members than this is not used by claim (a).
pub const MIN_FLIPPED: usize = 30;

/// The epochs the mechanism claims compare at: before either model fits a noisy sample (0 is
/// the untrained network).
pub const EARLY_EPOCHS: std::ops::RangeInclusive<usize> = 0..=2;

/// The size of the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    /// CI: 1,000 members, 4 epochs, 2 shadow models.
    Quick,
    /// This machine in well under an hour: 3,000 members, 8 epochs, 4 shadow models.
    Mid,
    /// The paper's: 30,000 members, 20 epochs, 8 shadow models.
    Full,
}

impl Size {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "quick" => Some(Self::Quick),
            "mid" => Some(Self::Mid),
            "full" => Some(Self::Full),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Quick => "quick",
            Self::Mid => "mid",
            Self::Full => "full",
        }
    }

    /// The base config of this size (no live read-outs: the claims are decided on the epoch
    /// records, and they would only cost).
    pub fn base(self) -> Config {
        match self {
            Self::Quick => Config {
                train_size: 1000,
                test_size: 1000,
                epochs: 4,
                batch_size: 50,
                probe_size: 8,
                live_points: 0,
                shadow_models: 2,
                ..Config::default()
            },
            Self::Mid => Config {
                train_size: 3000,
                test_size: 2000,
                epochs: 8,
                batch_size: 64,
                probe_size: 32,
                live_points: 0,
                shadow_models: 4,
                ..Config::default()
            },
            Self::Full => Config {
                train_size: 30_000,
                test_size: 10_000,
                epochs: 20,
                batch_size: 128,
                probe_size: 128,
                live_points: 0,
                shadow_models: 8,
                ..Config::default()
            },
        }
    }
}

/// The grid's experiments for each seed: per noise level the BN / no-BN comparison (Adam), the
/// OOD arm, the SGD arm (0 and 5 %, no attack: it is there for the mechanism), then at
/// [`REG_NOISE`] the BN model with the default regularizer at each of [`REG_LAMBDAS`], then per
/// noise level a GroupNorm model alone (Adam, with LiRA; the default groups): the same seed, so
/// the same data, initial weights and order as the comparison's.
pub fn grid(size: Size, seeds: &[u64]) -> Vec<Config> {
    let base = size.base();
    let mut out = Vec::new();
    for &seed in seeds {
        let c = Config {
            dataset: DatasetName::Mnist,
            seed,
            compare: true,
            regularizer: false,
            ..base.clone()
        };
        for noise in NOISE_LEVELS {
            out.push(Config { label_noise: noise, ..c.clone() });
        }
        out.push(Config { label_noise: 0.0, ood_fraction: OOD_FRACTION, ..c.clone() });
        for noise in [0.0, REG_NOISE] {
            out.push(Config {
                label_noise: noise,
                optimizer: OptimizerName::Sgd,
                learning_rate: SGD_LR,
                shadow_models: 0,
                ..c.clone()
            });
        }
        for lambda in REG_LAMBDAS {
            out.push(Config {
                label_noise: REG_NOISE,
                compare: false,
                norm: Norm::Batch,
                regularizer: true,
                reg_strength: lambda,
                ..c.clone()
            });
        }
        for noise in NOISE_LEVELS {
            out.push(Config { label_noise: noise, compare: false, norm: Norm::Group, ..c.clone() });
        }
    }
    out
}

/// One claim's numbers for one seed, by name, in a fixed order.
pub type Numbers = Vec<(String, f64)>;

/// A claim, by its letter: how to read our numbers and the tests. What it says, the paper's words
/// and what to keep in mind are `spotlight-i18n`'s (`paper`), by the letter.
pub struct Claim {
    pub id: char,
    /// The numbers of one seed's reports (`None`: none of them could be measured).
    pub numbers: fn(&[&Report]) -> Option<Numbers>,
    /// The numbers the claim is decided on and their bars: each must be above its bar.
    pub tests: &'static [(&'static str, f64)],
}

fn same(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// Which runs of the grid: label noise, OOD fraction, SGD or Adam.
#[derive(Clone, Copy, Debug)]
struct Arm {
    noise: f64,
    ood: f64,
    sgd: bool,
}

const fn adam(noise: f64) -> Arm {
    Arm { noise, ood: 0.0, sgd: false }
}

const fn sgd(noise: f64) -> Arm {
    Arm { noise, ood: 0.0, sgd: true }
}

const OOD: Arm = Arm { noise: 0.0, ood: OOD_FRACTION, sgd: false };

/// The run of the BN (`bn`) or no-BN model of an arm, without regularizer (or, with `lambda`,
/// the BN model with the regularizer at that λ); `None` if missing or failed.
fn find<'a>(
    reports: &[&'a Report],
    arm: Arm,
    bn: bool,
    lambda: Option<f64>,
) -> Option<&'a ModelRun> {
    match lambda {
        None => find_model(reports, arm, Variant::unregularized(bn), None),
        Some(_) => find_model(reports, arm, Variant::BnReg, lambda).filter(|_| bn),
    }
}

/// The run of model `variant` of an arm, without regularizer (or with it at λ); `None` if missing
/// or failed.
fn find_model<'a>(
    reports: &[&'a Report],
    arm: Arm,
    variant: Variant,
    lambda: Option<f64>,
) -> Option<&'a ModelRun> {
    runs_of(reports, arm, lambda).find_map(|r| r.run(variant)).filter(|run| ok(run))
}

fn ok(run: &ModelRun) -> bool {
    run.error.is_none() && run.last().is_some()
}

/// The reports of an arm, without regularizer (or with it at λ).
fn runs_of<'a, 'r>(
    reports: &'r [&'a Report],
    arm: Arm,
    lambda: Option<f64>,
) -> impl Iterator<Item = &'a Report> + 'r {
    reports
        .iter()
        .filter(move |r| {
            same(r.config.label_noise, arm.noise) && same(r.config.ood_fraction, arm.ood)
        })
        .filter(move |r| (r.config.optimizer == OptimizerName::Sgd) == arm.sgd)
        .filter(move |r| match lambda {
            None => !r.config.regularizer,
            Some(l) => r.config.regularizer && same(r.config.reg_strength, l),
        })
        .copied()
}

fn flipped_members(reports: &[&Report], noise: f64) -> usize {
    reports
        .iter()
        .find(|r| same(r.config.label_noise, noise))
        .map_or(0, |r| crate::data::transforms::count_for(noise, r.config.train_size))
}

fn get(n: &Numbers, name: &str) -> f64 {
    n.iter().find(|(k, _)| k == name).map_or(f64::NAN, |(_, v)| *v)
}

fn mean_of(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

/// Accuracy on the arm's outliers (flipped labels, or OOD images) at an epoch.
fn outlier_acc(arm: Arm, e: &EpochRecord) -> Option<f64> {
    if arm.ood > 0.0 { e.acc_ood } else { e.acc_flipped }
}

/// Mean over the trained epochs of the accuracy on the outliers.
fn mean_outlier_acc(arm: Arm, run: &ModelRun) -> Option<f64> {
    let v: Vec<f64> = run.trained().filter_map(|e| outlier_acc(arm, e)).collect();
    (!v.is_empty()).then(|| mean_of(&v))
}

fn numbers_a(r: &[&Report]) -> Option<Numbers> {
    let mut out = Vec::new();
    for (arm, tag) in [(adam(0.01), "flipped 1%"), (adam(0.05), "flipped 5%"), (OOD, "OOD 5%")] {
        if arm.ood == 0.0 && flipped_members(r, arm.noise) < MIN_FLIPPED {
            continue;
        }
        let (Some(b), Some(p)) = (find(r, arm, true, None), find(r, arm, false, None)) else {
            continue;
        };
        let (Some(mb), Some(mp)) = (mean_outlier_acc(arm, b), mean_outlier_acc(arm, p)) else {
            continue;
        };
        out.push((format!("BN {tag} (%)"), 100.0 * mb));
        out.push((format!("no-BN {tag} (%)"), 100.0 * mp));
        out.push((format!("Δ {tag} (pts)"), 100.0 * (mb - mp)));
    }
    (!out.is_empty()).then_some(out)
}

/// The accuracy on the outliers when the clean members' accuracy first reaches `level`, by linear
/// interpolation between epochs (`None` if it never does).
fn outliers_at_fit(arm: Arm, run: &ModelRun, level: f64) -> Option<f64> {
    let pts: Vec<(f64, f64)> =
        run.epochs.iter().filter_map(|e| Some((e.acc_clean?, outlier_acc(arm, e)?))).collect();
    let k = pts.iter().position(|(c, _)| *c >= level)?;
    if k == 0 {
        return Some(pts[0].1);
    }
    let ((c0, o0), (c1, o1)) = (pts[k - 1], pts[k]);
    let t = if c1 > c0 { (level - c0) / (c1 - c0) } else { 1.0 };
    Some(o0 + t.clamp(0.0, 1.0) * (o1 - o0))
}

/// Matched fit: the highest clean-member accuracy both models reach, and each model's outlier
/// accuracy when it got there.
fn matched(arm: Arm, b: &ModelRun, p: &ModelRun) -> Option<(f64, f64, f64)> {
    let best = |r: &ModelRun| r.epochs.iter().filter_map(|e| e.acc_clean).fold(f64::NAN, f64::max);
    let level = best(b).min(best(p));
    if !level.is_finite() {
        return None;
    }
    Some((level, outliers_at_fit(arm, b, level)?, outliers_at_fit(arm, p, level)?))
}

fn numbers_g(r: &[&Report]) -> Option<Numbers> {
    let mut out = Vec::new();
    for (arm, tag) in [(adam(REG_NOISE), "flipped 5%"), (OOD, "OOD 5%")] {
        let (Some(b), Some(p)) = (find(r, arm, true, None), find(r, arm, false, None)) else {
            continue;
        };
        let Some((level, ob, op)) = matched(arm, b, p) else { continue };
        out.push((format!("clean fit {tag} (%)"), 100.0 * level));
        out.push((format!("Δ {tag} at that fit (pts)"), 100.0 * (ob - op)));
    }
    (!out.is_empty()).then_some(out)
}

/// The median of a probe group, or `None` when empty.
fn med(v: &[f32]) -> Option<f64> {
    crate::report::median(v)
}

/// Mean over [`EARLY_EPOCHS`] of a per-epoch value (`None` if any of them lacks it).
fn early(run: &ModelRun, f: impl Fn(&EpochRecord) -> Option<f64>) -> Option<f64> {
    let v: Option<Vec<f64>> =
        run.epochs.iter().filter(|e| EARLY_EPOCHS.contains(&e.epoch)).map(&f).collect();
    v.filter(|v| v.len() == EARLY_EPOCHS.count()).map(|v| mean_of(&v))
}

/// Claim (b) or (h): per-step self-influence of the noisy and clean probes, BN and no-BN, at 5 %
/// on an arm, with the step of `run_step` (the run's optimizer) or plain SGD.
fn influence_numbers(r: &[&Report], arm: Arm, run_step: bool) -> Option<Numbers> {
    let (b, p) = (find(r, arm, true, None)?, find(r, arm, false, None)?);
    let pick = |e: &EpochRecord, noisy: bool| {
        let m = e.mechanism.as_ref()?;
        let g = if run_step { &m.influence_run } else { &m.influence_sgd };
        med(if noisy { &g.noisy } else { &g.clean })
    };
    let (bn_noisy, bn_clean) = (early(b, |e| pick(e, true))?, early(b, |e| pick(e, false))?);
    let (no_noisy, no_clean) = (early(p, |e| pick(e, true))?, early(p, |e| pick(e, false))?);
    let log = |x: f64, y: f64| if x > 0.0 && y > 0.0 { (x / y).log10() } else { f64::NAN };
    let auc =
        |run: &ModelRun| early(run, |e| e.mechanism.as_ref()?.scaled_grad.noisy_above_clean());
    let mut out = vec![
        ("BN noisy".into(), bn_noisy),
        ("BN clean".into(), bn_clean),
        ("no-BN noisy".into(), no_noisy),
        ("no-BN clean".into(), no_clean),
        ("log10 BN/no-BN noisy".into(), log(bn_noisy, no_noisy)),
        ("log10 noisy/clean BN − no-BN".into(), log(bn_noisy, bn_clean) - log(no_noisy, no_clean)),
    ];
    if let (Some(ab), Some(ap)) = (auc(b), auc(p)) {
        out.push(("scale-free grad AUC noisy>clean BN".into(), ab));
        out.push(("scale-free grad AUC noisy>clean no-BN".into(), ap));
    }
    Some(out)
}

fn numbers_b(r: &[&Report]) -> Option<Numbers> {
    influence_numbers(r, sgd(REG_NOISE), false)
}

fn numbers_h(r: &[&Report]) -> Option<Numbers> {
    influence_numbers(r, adam(REG_NOISE), true)
}

fn auc(r: &[&Report], arm: Arm, bn: bool) -> Option<f64> {
    find(r, arm, bn, None)?.attack.as_ref().map(|a| a.lira_online.auc)
}

fn numbers_c(r: &[&Report]) -> Option<Numbers> {
    let mut out = Vec::new();
    for (arm, tag) in [(adam(0.0), "0%"), (adam(0.01), "1%"), (adam(0.05), "5%"), (OOD, "OOD 5%")] {
        if let (Some(b), Some(p)) = (auc(r, arm, true), auc(r, arm, false)) {
            out.push((format!("Δ AUC {tag} (pts)"), 100.0 * (b - p)));
        }
    }
    let noisy = |bn| {
        find(r, adam(REG_NOISE), bn, None)?.attack.as_ref()?.lira_noisy.as_ref().map(|x| x.auc)
    };
    if let (Some(b), Some(p)) = (noisy(true), noisy(false)) {
        out.push(("noisy-only AUC BN 5%".into(), b));
        out.push(("noisy-only AUC no-BN 5%".into(), p));
    }
    (!out.is_empty()).then_some(out)
}

/// Per BN layer, the change of median γ/σ (batch σ) from epoch 1 to the last epoch.
fn gamma_sigma_change(run: &ModelRun) -> Option<Vec<(String, f64)>> {
    let first = run.trained().next()?;
    let last = run.last()?;
    let v: Vec<(String, f64)> = first
        .gamma_sigma
        .iter()
        .zip(&last.gamma_sigma)
        .map(|(a, b)| (b.layer.clone(), b.batch_median - a.batch_median))
        .collect();
    (!v.is_empty()).then_some(v)
}

fn numbers_d(r: &[&Report]) -> Option<Numbers> {
    let mut out = Vec::new();
    // Each noise level's own change (mean over layers), kept per seed in the table.
    for noise in NOISE_LEVELS {
        if let Some(c) = find(r, adam(noise), true, None).and_then(gamma_sigma_change) {
            out.push((
                format!("Adam Δγ/σ from epoch 1 at {:.0}%", 100.0 * noise),
                mean_of(&c.iter().map(|(_, v)| *v).collect::<Vec<_>>()),
            ));
        }
    }
    for (name, with, without) in
        [("Adam", adam(REG_NOISE), adam(0.0)), ("SGD", sgd(REG_NOISE), sgd(0.0))]
    {
        let (Some(w), Some(o)) = (find(r, with, true, None), find(r, without, true, None)) else {
            continue;
        };
        let (Some(cw), Some(co)) = (gamma_sigma_change(w), gamma_sigma_change(o)) else { continue };
        let diffs: Vec<f64> = cw.iter().zip(&co).map(|((_, a), (_, b))| a - b).collect();
        if name == "Adam" {
            for ((layer, a), (_, b)) in cw.iter().zip(&co) {
                out.push((format!("{layer} Δγ/σ 5% − 0%"), a - b));
            }
        }
        out.push((format!("{name} Δγ/σ 5% − 0%, mean over layers"), mean_of(&diffs)));
    }
    (!out.is_empty()).then_some(out)
}

/// The push of the noisy probes on |γ| minus the clean probes', per BN layer divided by the mean
/// |push| of all probes of that layer (so each layer counts alike), mean over layers and over the
/// trained epochs.
fn push_gap(run: &ModelRun) -> Option<f64> {
    let mut per_epoch = Vec::new();
    for e in run.trained() {
        let m = e.mechanism.as_ref()?;
        let mut layers = Vec::new();
        for p in &m.gamma_push {
            let mean =
                |v: &[f32]| v.iter().map(|&x| f64::from(x)).sum::<f64>() / v.len().max(1) as f64;
            let scale = p.noisy.iter().chain(&p.clean).map(|x| f64::from(x.abs())).sum::<f64>()
                / (p.noisy.len() + p.clean.len()).max(1) as f64;
            if p.noisy.is_empty() || p.clean.is_empty() || scale <= 0.0 {
                return None;
            }
            layers.push((mean(&p.noisy) - mean(&p.clean)) / scale);
        }
        if layers.is_empty() {
            return None;
        }
        per_epoch.push(mean_of(&layers));
    }
    (!per_epoch.is_empty()).then(|| mean_of(&per_epoch))
}

fn numbers_f(r: &[&Report]) -> Option<Numbers> {
    let mut out = Vec::new();
    for (name, arm) in [("Adam", adam(REG_NOISE)), ("SGD", sgd(REG_NOISE))] {
        if let Some(g) = find(r, arm, true, None).and_then(push_gap) {
            out.push((format!("{name} push noisy − clean (scaled)"), g));
        }
    }
    (!out.is_empty()).then_some(out)
}

fn numbers_e(r: &[&Report]) -> Option<Numbers> {
    let b = find(r, adam(REG_NOISE), true, None)?;
    let g = find(r, adam(REG_NOISE), true, Some(REG_LAMBDAS[0]))?;
    let (lb, lg) = (b.last()?, g.last()?);
    let (fb, fg) = (lb.acc_flipped?, lg.acc_flipped?);
    let mut out = vec![
        ("flipped acc BN (%)".into(), 100.0 * fb),
        ("flipped acc BN+reg (%)".into(), 100.0 * fg),
        ("drop in flipped acc (pts)".into(), 100.0 * (fb - fg)),
        ("test acc BN (%)".into(), 100.0 * lb.acc_test),
        ("test acc BN+reg (%)".into(), 100.0 * lg.acc_test),
        ("Δ test acc (pts)".into(), 100.0 * (lg.acc_test - lb.acc_test)),
    ];
    if let (Some(ab), Some(ag)) = (b.attack.as_ref(), g.attack.as_ref()) {
        out.push(("LiRA AUC BN".into(), ab.lira_online.auc));
        out.push(("LiRA AUC BN+reg".into(), ag.lira_online.auc));
    }
    Some(out)
}

/// GroupNorm against `other` (BN or no normalization), Adam, at 1 % and 5 % flipped: the mean
/// accuracy on the flipped members over the epochs and LiRA's AUC at the end (also on clean
/// data), as `first − second` in points with `gn_first` saying which comes first.
fn gn_numbers(r: &[&Report], other: Variant, gn_first: bool) -> Option<Numbers> {
    let name = if other == Variant::Bn { "BN" } else { "no-BN" };
    let pair = if gn_first { format!("GN − {name}") } else { format!("{name} − GN") };
    let sign = if gn_first { 1.0 } else { -1.0 };
    let mut out = Vec::new();
    for noise in [0.01, 0.05] {
        let arm = adam(noise);
        if flipped_members(r, noise) < MIN_FLIPPED {
            continue;
        }
        let (Some(g), Some(o)) =
            (find_model(r, arm, Variant::Gn, None), find_model(r, arm, other, None))
        else {
            continue;
        };
        if let (Some(mg), Some(mo)) = (mean_outlier_acc(arm, g), mean_outlier_acc(arm, o)) {
            let tag = format!("{:.0}%", 100.0 * noise);
            out.push((format!("GN flipped {tag} (%)"), 100.0 * mg));
            out.push((format!("Δ flipped {tag} {pair} (pts)"), sign * 100.0 * (mg - mo)));
        }
    }
    for (noise, tag) in [(0.0, "0%"), (0.05, "5%")] {
        let arm = adam(noise);
        let auc = |v| find_model(r, arm, v, None)?.attack.as_ref().map(|a| a.lira_online.auc);
        if let (Some(g), Some(o)) = (auc(Variant::Gn), auc(other)) {
            out.push((format!("GN AUC {tag}"), g));
            out.push((format!("Δ AUC {tag} {pair} (pts)"), sign * 100.0 * (g - o)));
        }
    }
    (!out.is_empty()).then_some(out)
}

fn numbers_i(r: &[&Report]) -> Option<Numbers> {
    gn_numbers(r, Variant::Bn, false)
}

fn numbers_j(r: &[&Report]) -> Option<Numbers> {
    gn_numbers(r, Variant::Plain, true)
}

/// The claims, in the table's order.
pub fn claims_list() -> Vec<Claim> {
    vec![
        Claim {
            id: 'a',
            numbers: numbers_a,
            tests: &[
                ("Δ flipped 1% (pts)", 0.0),
                ("Δ flipped 5% (pts)", 0.0),
                ("Δ OOD 5% (pts)", 0.0),
            ],
        },
        Claim {
            id: 'g',
            numbers: numbers_g,
            tests: &[("Δ flipped 5% at that fit (pts)", 0.0), ("Δ OOD 5% at that fit (pts)", 0.0)],
        },
        Claim {
            id: 'b',
            numbers: numbers_b,
            tests: &[("log10 BN/no-BN noisy", 0.0), ("log10 noisy/clean BN − no-BN", 0.0)],
        },
        Claim {
            id: 'h',
            numbers: numbers_h,
            tests: &[("log10 BN/no-BN noisy", 0.0), ("log10 noisy/clean BN − no-BN", 0.0)],
        },
        Claim {
            id: 'c',
            numbers: numbers_c,
            tests: &[("Δ AUC 0% (pts)", 0.0), ("Δ AUC 1% (pts)", 3.0), ("Δ AUC 5% (pts)", 4.0)],
        },
        Claim {
            id: 'i',
            numbers: numbers_i,
            tests: &[("Δ flipped 5% BN − GN (pts)", 0.0), ("Δ AUC 5% BN − GN (pts)", 0.0)],
        },
        Claim {
            id: 'j',
            numbers: numbers_j,
            tests: &[("Δ flipped 5% GN − no-BN (pts)", 0.0), ("Δ AUC 5% GN − no-BN (pts)", 0.0)],
        },
        Claim {
            id: 'd',
            numbers: numbers_d,
            tests: &[
                ("Adam Δγ/σ 5% − 0%, mean over layers", 0.0),
                ("SGD Δγ/σ 5% − 0%, mean over layers", 0.0),
            ],
        },
        Claim {
            id: 'f',
            numbers: numbers_f,
            tests: &[
                ("Adam push noisy − clean (scaled)", 0.0),
                ("SGD push noisy − clean (scaled)", 0.0),
            ],
        },
        Claim {
            id: 'e',
            numbers: numbers_e,
            tests: &[("drop in flipped acc (pts)", 0.0), ("Δ test acc (pts)", -1.0)],
        },
    ]
}

/// A verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Held,
    /// Below the bar by the margin.
    Failed,
    /// Neither.
    Inconclusive,
    /// No seed had the numbers.
    Unchecked,
}

/// Decides one test on its values over all the grid's seeds (`None`: the seed lacks it), against
/// `bar`: held when the mean clears the bar by two standard errors and more than half of all the
/// seeds clear it; failed the same way below; else inconclusive (always with fewer than 2 values).
pub fn decide_test(values: &[Option<f64>], bar: f64) -> Outcome {
    let d: Vec<f64> =
        values.iter().flatten().copied().filter(|v| v.is_finite()).map(|v| v - bar).collect();
    if d.is_empty() {
        return Outcome::Unchecked;
    }
    if d.len() < 2 {
        return Outcome::Inconclusive;
    }
    let n = d.len() as f64;
    let mean = d.iter().sum::<f64>() / n;
    let se = (d.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt() / n.sqrt();
    let most = |k: usize| 2 * k > values.len();
    if mean - 2.0 * se > 0.0 && most(d.iter().filter(|v| **v > 0.0).count()) {
        Outcome::Held
    } else if mean + 2.0 * se < 0.0 && most(d.iter().filter(|v| **v < 0.0).count()) {
        Outcome::Failed
    } else {
        Outcome::Inconclusive
    }
}

/// One number over the seeds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stat {
    pub name: String,
    pub mean: f64,
    /// Sample standard deviation over seeds (0 with one seed).
    pub sd: f64,
    /// Per seed, in seed order.
    pub values: Vec<f64>,
}

/// One tested number of a claim over the seeds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TestRow {
    pub name: String,
    /// The number must be above this.
    pub bar: f64,
    pub outcome: Outcome,
}

/// One claim over the seeds (its texts are `spotlight-i18n`'s, by `id`; a results file written
/// before they left the core still has them: they are ignored).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClaimRow {
    pub id: char,
    pub numbers: Vec<Stat>,
    /// The tested numbers with their verdicts (tests no seed could measure left out).
    pub tests: Vec<TestRow>,
    /// Seeds whose every tested number cleared its bar, of all the grid's seeds.
    pub seeds_held: usize,
    pub seeds_checked: usize,
    pub outcome: Outcome,
}

/// A point of the privacy–utility trade-off: the BN model at [`REG_NOISE`] with the regularizer
/// at strength `lambda` (0: without it), mean over seeds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TradeoffPoint {
    pub lambda: f64,
    pub seeds: usize,
    pub test_acc: Stat,
    pub flipped_acc: Stat,
    pub lira_auc: Option<Stat>,
}

/// One model's lenses over the epochs (epoch 0 first), mean over seeds: what the app's "what we
/// measured" panel draws (the Adam arm).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LensCurves {
    pub noise: f64,
    pub batch_norm: bool,
    /// Which model (absent in tables written before the GroupNorm arm: BN or no-BN by
    /// `batch_norm`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<Variant>,
    /// Accuracy on flipped members, %.
    pub flipped_acc: Vec<f64>,
    pub test_acc: Vec<f64>,
    /// Median per-step self-influence (the run's step, per unit learning rate), noisy and clean
    /// probes.
    #[serde(default)]
    pub influence_noisy: Vec<f64>,
    #[serde(default)]
    pub influence_clean: Vec<f64>,
    /// Per BN layer: median γ/σ (batch σ) and mean |γ| per epoch (empty without BN).
    pub gamma_sigma: Vec<Vec<f64>>,
    pub mean_gamma: Vec<Vec<f64>>,
    /// LiRA AUC at the end (mean over seeds).
    pub lira_auc: Option<f64>,
}

/// The table of the claims, over the seeds, the λ sweep and the lens curves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PaperTable {
    pub seeds: Vec<u64>,
    pub rows: Vec<ClaimRow>,
    #[serde(default)]
    pub tradeoff: Vec<TradeoffPoint>,
    #[serde(default)]
    pub curves: Vec<LensCurves>,
}

/// Per epoch index, the mean over runs of `f` (runs of unequal length: the common epochs).
fn per_epoch(runs: &[&ModelRun], f: impl Fn(&EpochRecord) -> Option<f64>) -> Vec<f64> {
    let len = runs.iter().map(|r| r.epochs.len()).min().unwrap_or(0);
    (0..len)
        .map_while(|e| {
            let v: Option<Vec<f64>> = runs.iter().map(|r| f(&r.epochs[e])).collect();
            v.map(|v| mean_of(&v))
        })
        .collect()
}

/// The lens curves of the comparison runs (Adam arm), mean over seeds.
pub fn curves(by_seed: &[Vec<&Report>]) -> Vec<LensCurves> {
    let mut out = Vec::new();
    for noise in NOISE_LEVELS {
        for variant in [Variant::Bn, Variant::Plain, Variant::Gn] {
            let runs: Vec<&ModelRun> =
                by_seed.iter().filter_map(|r| find_model(r, adam(noise), variant, None)).collect();
            if runs.is_empty() {
                continue;
            }
            let layers = runs[0].epochs.first().map_or(0, |e| e.gamma_sigma.len());
            let aucs: Vec<f64> =
                runs.iter().filter_map(|r| r.attack.as_ref().map(|a| a.lira_online.auc)).collect();
            let influence = |e: &EpochRecord, noisy: bool| {
                let g = &e.mechanism.as_ref()?.influence_run;
                med(if noisy { &g.noisy } else { &g.clean })
            };
            out.push(LensCurves {
                noise,
                batch_norm: variant.batch_norm(),
                variant: Some(variant),
                flipped_acc: per_epoch(&runs, |e| e.acc_flipped.map(|a| 100.0 * a)),
                test_acc: per_epoch(&runs, |e| Some(100.0 * e.acc_test)),
                influence_noisy: per_epoch(&runs, |e| influence(e, true)),
                influence_clean: per_epoch(&runs, |e| influence(e, false)),
                gamma_sigma: (0..layers)
                    .map(|l| per_epoch(&runs, |e| e.gamma_sigma.get(l).map(|g| g.batch_median)))
                    .collect(),
                mean_gamma: (0..layers)
                    .map(|l| per_epoch(&runs, |e| e.gamma_sigma.get(l).map(|g| g.mean_gamma)))
                    .collect(),
                lira_auc: (aucs.len() == runs.len()).then(|| mean_of(&aucs)),
            });
        }
    }
    out
}

fn stat(name: &str, values: Vec<f64>) -> Stat {
    let n = values.len().max(1) as f64;
    let mean = values.iter().sum::<f64>() / n;
    let sd = if values.len() > 1 {
        (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
    } else {
        0.0
    };
    Stat { name: name.to_string(), mean, sd, values }
}

/// The seeds present in the reports, in increasing order.
pub fn seeds_of(reports: &[Report]) -> Vec<u64> {
    let mut s: Vec<u64> = reports.iter().map(|r| r.config.seed).collect();
    s.sort_unstable();
    s.dedup();
    s
}

/// Decides one claim over the seeds' reports (every seed of the grid, those with missing runs
/// too: they count against).
pub fn decide(claim: &Claim, by_seed: &[Vec<&Report>]) -> ClaimRow {
    let per_seed: Vec<Option<Numbers>> = by_seed.iter().map(|r| (claim.numbers)(r)).collect();
    let value =
        |n: &Option<Numbers>, k: &str| n.as_ref().map(|n| get(n, k)).filter(|v| v.is_finite());
    // Every name any seed has, in the order of the first seed that has it.
    let mut names: Vec<String> = Vec::new();
    for n in per_seed.iter().flatten() {
        for (k, _) in n {
            if !names.contains(k) {
                names.push(k.clone());
            }
        }
    }
    let numbers: Vec<Stat> = names
        .iter()
        .map(|k| stat(k, per_seed.iter().filter_map(|n| value(n, k)).collect()))
        .collect();
    let tests: Vec<TestRow> = claim
        .tests
        .iter()
        .map(|(name, bar)| TestRow {
            name: name.to_string(),
            bar: *bar,
            outcome: decide_test(
                &per_seed.iter().map(|n| value(n, name)).collect::<Vec<_>>(),
                *bar,
            ),
        })
        .filter(|t| t.outcome != Outcome::Unchecked)
        .collect();
    let seeds_held = per_seed
        .iter()
        .filter(|n| {
            !tests.is_empty() && tests.iter().all(|t| value(n, &t.name).is_some_and(|v| v > t.bar))
        })
        .count();
    let outcome = if tests.is_empty() {
        Outcome::Unchecked
    } else if tests.iter().any(|t| t.outcome == Outcome::Failed) {
        Outcome::Failed
    } else if tests.iter().all(|t| t.outcome == Outcome::Held) {
        Outcome::Held
    } else {
        Outcome::Inconclusive
    };
    ClaimRow { id: claim.id, numbers, tests, seeds_held, seeds_checked: by_seed.len(), outcome }
}

/// The privacy–utility trade-off of the regularizer: λ = 0 (the plain BN model) and each λ of the
/// sweep, mean over seeds.
pub fn tradeoff(by_seed: &[Vec<&Report>]) -> Vec<TradeoffPoint> {
    let mut out = Vec::new();
    for lambda in std::iter::once(0.0).chain(REG_LAMBDAS) {
        let runs: Vec<&ModelRun> = by_seed
            .iter()
            .filter_map(|r| find(r, adam(REG_NOISE), true, (lambda > 0.0).then_some(lambda)))
            .collect();
        let (mut t, mut f, mut a) = (Vec::new(), Vec::new(), Vec::new());
        for run in &runs {
            let last = run.last().expect("find checks");
            t.push(100.0 * last.acc_test);
            f.push(100.0 * last.acc_flipped.unwrap_or(0.0));
            if let Some(x) = &run.attack {
                a.push(x.lira_online.auc);
            }
        }
        if runs.is_empty() {
            continue;
        }
        out.push(TradeoffPoint {
            lambda,
            seeds: runs.len(),
            test_acc: stat("test acc (%)", t),
            flipped_acc: stat("flipped acc (%)", f),
            lira_auc: (a.len() == runs.len()).then(|| stat("LiRA AUC", a)),
        });
    }
    out
}

/// Evaluates every claim on the grid's reports (any number of seeds).
pub fn claims(reports: &[Report]) -> PaperTable {
    let seeds = seeds_of(reports);
    let by_seed: Vec<Vec<&Report>> =
        seeds.iter().map(|s| reports.iter().filter(|r| r.config.seed == *s).collect()).collect();
    PaperTable {
        rows: claims_list().iter().map(|c| decide(c, &by_seed)).collect(),
        tradeoff: tradeoff(&by_seed),
        curves: curves(&by_seed),
        seeds,
    }
}

fn fmt_num(s: &Stat) -> String {
    if s.values.len() > 1 {
        format!("{} {:.3} ± {:.3}", s.name, s.mean, s.sd)
    } else {
        format!("{} {:.3}", s.name, s.mean)
    }
}

impl ClaimRow {
    /// Our numbers in words: mean ± sd over seeds.
    pub fn ours(&self) -> String {
        self.numbers.iter().map(fmt_num).collect::<Vec<_>>().join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::ProbeValues;

    fn all(v: &[f64]) -> Vec<Option<f64>> {
        v.iter().map(|x| Some(*x)).collect()
    }

    #[test]
    fn a_test_holds_only_two_standard_errors_clear_of_its_bar() {
        assert_eq!(decide_test(&all(&[1.0, 1.2, 0.9, 1.1, 1.0]), 0.0), Outcome::Held);
        assert_eq!(decide_test(&all(&[-1.0, -1.2, -0.9, -1.1, -1.0]), 0.0), Outcome::Failed);
        // A near tie: mean 0.07, standard error 0.045: not clear of zero either way.
        assert_eq!(decide_test(&all(&[0.1, -0.05, 0.2, 0.0, 0.1]), 0.0), Outcome::Inconclusive);
        // All positive but spread: mean 0.64, s.e. 0.37.
        assert_eq!(decide_test(&all(&[0.01, 0.02, 0.03, 0.05, 3.1]), 0.0), Outcome::Inconclusive);
        // The bar, not zero: +3.5 clears +3, not +4.
        assert_eq!(decide_test(&all(&[3.5, 3.6, 3.4, 3.5]), 3.0), Outcome::Held);
        assert_eq!(decide_test(&all(&[3.5, 3.6, 3.4, 3.5]), 4.0), Outcome::Failed);
        // A value exactly at the bar is not above it.
        assert_eq!(decide_test(&all(&[0.0, 0.0, 0.0]), 0.0), Outcome::Inconclusive);
    }

    #[test]
    fn missing_seeds_count_against_and_one_value_decides_nothing() {
        let v = |x: &[Option<f64>]| decide_test(x, 0.0);
        assert_eq!(
            v(&[Some(1.0), Some(1.1), None, None, Some(0.9)]),
            Outcome::Held,
            "3 of 5 seeds is most"
        );
        assert_eq!(
            v(&[Some(1.0), Some(1.1), None, None, None]),
            Outcome::Inconclusive,
            "2 of 5 is not"
        );
        assert_eq!(v(&[Some(1.0), Some(f64::NAN), None]), Outcome::Inconclusive);
        assert_eq!(v(&[Some(5.0)]), Outcome::Inconclusive);
        assert_eq!(v(&[None, None]), Outcome::Unchecked);
    }

    fn claim_on(values: &[Option<f64>]) -> ClaimRow {
        // A claim whose one number is the seed's learning rate − 1, tested above 0.
        fn numbers(r: &[&Report]) -> Option<Numbers> {
            Some(vec![("x".into(), r.first()?.config.learning_rate - 1.0)])
        }
        let claim = Claim { id: 'z', numbers, tests: &[("x", 0.0)] };
        let reports: Vec<Option<Report>> = values
            .iter()
            .map(|v| {
                v.map(|v| Report {
                    config: Config { learning_rate: 1.0 + v, ..Config::default() },
                    backend: String::new(),
                    runs: vec![],
                })
            })
            .collect();
        let by_seed: Vec<Vec<&Report>> = reports.iter().map(|r| r.iter().collect()).collect();
        decide(&claim, &by_seed)
    }

    #[test]
    fn a_claim_is_its_tests_over_every_seed() {
        let r = claim_on(&[Some(0.5), Some(0.4), Some(0.6)]);
        assert_eq!((r.outcome, r.seeds_held, r.seeds_checked), (Outcome::Held, 3, 3));
        assert!((r.numbers[0].mean - 0.5).abs() < 1e-9 && (r.numbers[0].sd - 0.1).abs() < 1e-9);
        assert_eq!(claim_on(&[Some(3.0), Some(-0.1), Some(-0.1)]).outcome, Outcome::Inconclusive);
        assert_eq!(claim_on(&[Some(-0.5), Some(-0.4), Some(-0.6)]).outcome, Outcome::Failed);
        // A seed without runs is in the count: 2 of 4 is not most.
        let r = claim_on(&[Some(0.5), Some(0.5001), None, None]);
        assert_eq!((r.outcome, r.seeds_held, r.seeds_checked), (Outcome::Inconclusive, 2, 4));
    }

    /// The page's results file (written when the claims' texts were still in it: they are ignored
    /// now) reads, with every claim in order.
    #[test]
    fn the_pages_results_file_reads() {
        let file: serde_json::Value =
            serde_json::from_str(include_str!("../../../results/paper-mid.json")).unwrap();
        let t: PaperTable = serde_json::from_value(file["table"].clone()).unwrap();
        let in_file: Vec<char> = t.rows.iter().map(|r| r.id).collect();
        assert_eq!(in_file, claims_list().iter().map(|c| c.id).collect::<Vec<_>>());
    }

    #[test]
    fn missing_runs_cannot_be_checked() {
        let t = claims(&[]);
        assert!(t.rows.iter().all(|r| r.outcome == Outcome::Unchecked), "{t:?}");
    }

    fn run_of(points: &[(f64, f64)]) -> ModelRun {
        let mut run = ModelRun::new(Variant::Bn);
        for (e, (clean, flipped)) in points.iter().enumerate() {
            run.epochs.push(EpochRecord {
                epoch: e,
                train_loss: 0.0,
                penalty: None,
                acc_clean: Some(*clean),
                acc_flipped: Some(*flipped),
                flipped_as_true: None,
                acc_ood: None,
                acc_test: 0.0,
                gamma_sigma: vec![],
                grad_norms: Default::default(),
                mechanism: None,
                canary: None,
            });
        }
        run
    }

    #[test]
    fn matched_fit_interpolates_where_both_models_reach() {
        let arm = adam(0.05);
        let bn = run_of(&[(0.1, 0.0), (0.8, 0.1), (0.96, 0.5)]);
        let plain = run_of(&[(0.1, 0.0), (0.7, 0.0), (0.9, 0.04)]);
        let (level, b, p) = matched(arm, &bn, &plain).unwrap();
        assert!((level - 0.9).abs() < 1e-12);
        // BN reaches 0.9 at (0.9 − 0.8) / 0.16 = 0.625 of the way from epoch 1 to epoch 2.
        assert!((b - (0.1 + 0.625 * 0.4)).abs() < 1e-12, "{b}");
        assert!((p - 0.04).abs() < 1e-12, "{p}");
        assert_eq!(outliers_at_fit(arm, &plain, 0.95), None);
    }

    #[test]
    fn noisy_above_clean_counts_pairs() {
        let p = |n: &[f32], c: &[f32]| {
            ProbeValues { noisy: n.to_vec(), clean: c.to_vec() }.noisy_above_clean()
        };
        assert_eq!(p(&[3.0, 4.0], &[1.0, 2.0]), Some(1.0));
        assert_eq!(p(&[1.0], &[1.0]), Some(0.5));
        assert_eq!(p(&[1.0, 3.0], &[2.0]), Some(0.5));
        assert_eq!(p(&[], &[2.0]), None);
    }

    /// The GroupNorm claims read the GroupNorm arm's run against the comparison's BN and no-BN
    /// runs of the same noise: (i) BN − GN, (j) GN − no-BN.
    #[test]
    fn the_groupnorm_claims_read_the_arm_against_the_comparison() {
        let at = |noise: f64, compare: bool, runs: Vec<ModelRun>| Report {
            config: Config {
                label_noise: noise,
                compare,
                norm: if compare { Norm::Batch } else { Norm::Group },
                train_size: 3000,
                ..Config::default()
            },
            backend: String::new(),
            runs,
        };
        let with = |v: Variant, flipped: f64| ModelRun {
            variant: Some(v),
            ..run_of(&[(0.5, 0.0), (0.9, flipped)])
        };
        let reports = [
            at(0.05, true, vec![with(Variant::Bn, 0.6), with(Variant::Plain, 0.1)]),
            at(0.05, false, vec![with(Variant::Gn, 0.3)]),
            at(0.01, true, vec![with(Variant::Bn, 0.5), with(Variant::Plain, 0.0)]),
        ];
        let r: Vec<&Report> = reports.iter().collect();
        let i = numbers_i(&r).unwrap();
        // The mean over the trained epochs (epoch 1 alone here), in points.
        assert!((get(&i, "GN flipped 5% (%)") - 30.0).abs() < 1e-9, "{i:?}");
        assert!((get(&i, "Δ flipped 5% BN − GN (pts)") - 30.0).abs() < 1e-9, "{i:?}");
        assert!(get(&i, "Δ flipped 1% BN − GN (pts)").is_nan(), "no GN run at 1 %");
        let j = numbers_j(&r).unwrap();
        assert!((get(&j, "Δ flipped 5% GN − no-BN (pts)") - 20.0).abs() < 1e-9, "{j:?}");
        assert!(numbers_i(&r[..1]).is_none(), "without the arm, nothing to read");
    }

    #[test]
    fn grid_has_each_arm_and_the_sweep() {
        let g = grid(Size::Quick, &[1, 2]);
        assert_eq!(g.len(), 2 * (2 * NOISE_LEVELS.len() + 1 + 2 + REG_LAMBDAS.len()));
        let gn: Vec<&Config> = g.iter().filter(|c| c.norm == Norm::Group && c.seed == 2).collect();
        assert_eq!(gn.len(), NOISE_LEVELS.len());
        assert!(gn.iter().all(|c| !c.compare && c.shadow_models > 0 && !c.regularizer));
        assert!(g.iter().all(|c| c.validate().is_ok()));
        assert_eq!(g.iter().filter(|c| c.regularizer && c.seed == 2).count(), REG_LAMBDAS.len());
        let sgd: Vec<&Config> =
            g.iter().filter(|c| c.optimizer == OptimizerName::Sgd && c.seed == 1).collect();
        assert_eq!(sgd.len(), 2);
        assert!(sgd.iter().all(|c| c.compare && c.shadow_models == 0 && c.learning_rate == SGD_LR));
        assert_eq!(
            g.iter()
                .filter(|c| c.ood_fraction > 0.0 && c.seed == 1 && c.label_noise == 0.0)
                .count(),
            1
        );
    }
}
