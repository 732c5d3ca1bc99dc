//! The paper's directions, checked on our own runs: the grid (BN vs no-BN × label noise
//! {0, 1 %, 5 %}, and at 5 % the BN model with the γ/σ regularizer at several strengths, all with
//! LiRA) over several seeds, and the claims, each decided strictly.
//!
//! Each claim is a function from one seed's reports to named numbers ([`Numbers`]) and a rule
//! ([`Claim::pass`]) on those numbers. One seed holds when its numbers pass; the claim **holds**
//! only when the numbers' means over the seeds pass *and* more than half of the seeds hold. A claim
//! whose runs are missing, or whose group is too small to mean anything (fewer than
//! [`MIN_FLIPPED`] flipped members), "could not be checked". The rules are the paper's words, not
//! tuned to our results.

use serde::{Deserialize, Serialize};

use crate::config::{Config, DatasetName};
use crate::report::{ModelRun, Report};

/// Label-noise levels of the grid.
pub const NOISE_LEVELS: [f64; 3] = [0.0, 0.01, 0.05];

/// The noise level of the regularizer runs, the λ sweep and claims (b), (d) and (e).
pub const REG_NOISE: f64 = 0.05;

/// λ values of the regularizer sweep (the first is the one claim (e) reads).
pub const REG_LAMBDAS: [f64; 3] = [0.05, 0.01, 0.2];

/// A noise level with fewer flipped members than this is not used by claim (a).
pub const MIN_FLIPPED: usize = 30;

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
                probe_size: 32,
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

/// The grid's experiments for each seed: per noise level the BN / no-BN comparison, then at
/// [`REG_NOISE`] the BN model with the default regularizer at each of [`REG_LAMBDAS`].
pub fn grid(size: Size, seeds: &[u64]) -> Vec<Config> {
    let base = size.base();
    let mut out = Vec::new();
    for &seed in seeds {
        for noise in NOISE_LEVELS {
            let c = Config { dataset: DatasetName::Mnist, label_noise: noise, seed, ..base.clone() };
            out.push(Config { compare: true, regularizer: false, ..c });
        }
        for lambda in REG_LAMBDAS {
            out.push(Config {
                dataset: DatasetName::Mnist,
                label_noise: REG_NOISE,
                seed,
                compare: false,
                batch_norm: true,
                regularizer: true,
                reg_strength: lambda,
                ..base.clone()
            });
        }
    }
    out
}

/// One claim's numbers for one seed, by name, in a fixed order.
pub type Numbers = Vec<(String, f64)>;

/// A claim: what the paper says, how to read our numbers, and the rule.
pub struct Claim {
    pub id: char,
    pub claim: &'static str,
    pub paper: &'static str,
    /// The numbers of one seed's reports (`None`: could not be checked).
    pub numbers: fn(&[&Report]) -> Option<Numbers>,
    /// The rule, on one seed's numbers or on the means over seeds.
    pub pass: fn(&Numbers) -> bool,
}

fn same(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// The run of the BN (`bn`) or no-BN model at a noise level, without regularizer (or, with
/// `lambda`, the BN model with the regularizer at that λ); `None` if missing or failed.
fn find<'a>(reports: &[&'a Report], noise: f64, bn: bool, lambda: Option<f64>) -> Option<&'a ModelRun> {
    reports
        .iter()
        .filter(|r| same(r.config.label_noise, noise))
        .filter(|r| match lambda {
            None => !r.config.regularizer,
            Some(l) => r.config.regularizer && same(r.config.reg_strength, l),
        })
        .find_map(|r| match lambda {
            None => r.run(crate::config::Variant::unregularized(bn)),
            Some(_) => r.run(crate::config::Variant::BnReg).filter(|_| bn),
        })
        .filter(|run| run.error.is_none() && run.last().is_some())
}

fn flipped_members(reports: &[&Report], noise: f64) -> usize {
    reports.iter().find(|r| same(r.config.label_noise, noise)).map_or(0, |r| crate::data::transforms::count_for(noise, r.config.train_size))
}

fn get(n: &Numbers, name: &str) -> f64 {
    n.iter().find(|(k, _)| k == name).map_or(f64::NAN, |(_, v)| *v)
}

fn mean_flipped(run: &ModelRun) -> Option<f64> {
    let v: Vec<f64> = run.trained().filter_map(|e| e.acc_flipped).collect();
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

fn numbers_a(r: &[&Report]) -> Option<Numbers> {
    let mut out = Vec::new();
    for noise in [0.01, 0.05] {
        if flipped_members(r, noise) < MIN_FLIPPED {
            continue;
        }
        let (b, p) = (find(r, noise, true, None)?, find(r, noise, false, None)?);
        let above = b.trained().zip(p.trained()).filter(|(x, y)| x.acc_flipped > y.acc_flipped).count();
        let n = b.trained().count().max(1);
        let tag = format!("{:.0}%", 100.0 * noise);
        out.push((format!("Δ mean flipped acc {tag} (pts)"), 100.0 * (mean_flipped(b)? - mean_flipped(p)?)));
        out.push((format!("epochs BN above {tag} (%)"), 100.0 * above as f64 / n as f64));
    }
    (!out.is_empty()).then_some(out)
}

fn pass_a(n: &Numbers) -> bool {
    n.iter().filter(|(k, _)| k.starts_with('Δ')).all(|(_, v)| *v > 0.0)
}

fn numbers_b(r: &[&Report]) -> Option<Numbers> {
    let b = find(r, REG_NOISE, true, None)?.grad_norm_summary()?;
    let p = find(r, REG_NOISE, false, None)?.grad_norm_summary()?;
    Some(vec![
        ("BN noisy".into(), b.noisy),
        ("BN clean".into(), b.clean),
        ("no-BN noisy".into(), p.noisy),
        ("no-BN clean".into(), p.clean),
        ("BN noisy/clean".into(), b.ratio()),
        ("no-BN noisy/clean".into(), p.ratio()),
    ])
}

fn pass_b(n: &Numbers) -> bool {
    get(n, "BN noisy/clean") > get(n, "no-BN noisy/clean") && get(n, "BN noisy") > get(n, "no-BN noisy")
}

fn auc(r: &[&Report], noise: f64, bn: bool) -> Option<f64> {
    find(r, noise, bn, None)?.attack.as_ref().map(|a| a.lira_online.auc)
}

fn numbers_c(r: &[&Report]) -> Option<Numbers> {
    let mut out = Vec::new();
    for noise in NOISE_LEVELS {
        let d = 100.0 * (auc(r, noise, true)? - auc(r, noise, false)?);
        out.push((format!("Δ AUC {:.0}% (pts)", 100.0 * noise), d));
    }
    let noisy = |bn| find(r, REG_NOISE, bn, None)?.attack.as_ref()?.lira_noisy.as_ref().map(|x| x.auc);
    if let (Some(b), Some(p)) = (noisy(true), noisy(false)) {
        out.push(("noisy-only AUC BN 5%".into(), b));
        out.push(("noisy-only AUC no-BN 5%".into(), p));
    }
    Some(out)
}

fn pass_c(n: &Numbers) -> bool {
    get(n, "Δ AUC 0% (pts)") > 0.0 && get(n, "Δ AUC 1% (pts)") >= 3.0 && get(n, "Δ AUC 5% (pts)") >= 4.0
}

fn numbers_d(r: &[&Report]) -> Option<Numbers> {
    let run = find(r, REG_NOISE, true, None)?;
    let (first, last) = (run.initial()?, run.last()?);
    let mut out = Vec::new();
    for (l0, l1) in first.gamma_sigma.iter().zip(&last.gamma_sigma) {
        out.push((format!("{} median γ/σ", l1.layer), l1.batch_median));
        out.push((format!("{} at init", l0.layer), l0.batch_median));
    }
    (!out.is_empty()).then_some(out)
}

fn pass_d(n: &Numbers) -> bool {
    let finals: Vec<f64> = n.iter().filter(|(k, _)| k.ends_with("median γ/σ")).map(|(_, v)| *v).collect();
    2 * finals.iter().filter(|&&v| v > 1.0).count() > finals.len()
}

fn gamma_growth(run: &ModelRun) -> Option<f64> {
    let (first, last) = (run.initial()?, run.last()?);
    let d: Vec<f64> = first.gamma_sigma.iter().zip(&last.gamma_sigma).map(|(a, b)| b.mean_gamma - a.mean_gamma).collect();
    (!d.is_empty()).then(|| d.iter().sum::<f64>() / d.len() as f64)
}

fn numbers_f(r: &[&Report]) -> Option<Numbers> {
    let mut out = Vec::new();
    for noise in NOISE_LEVELS {
        out.push((format!("Δ mean |γ| {:.0}%", 100.0 * noise), gamma_growth(find(r, noise, true, None)?)?));
    }
    Some(out)
}

fn pass_f(n: &Numbers) -> bool {
    get(n, "Δ mean |γ| 5%") > get(n, "Δ mean |γ| 0%")
}

fn numbers_e(r: &[&Report]) -> Option<Numbers> {
    let b = find(r, REG_NOISE, true, None)?;
    let g = find(r, REG_NOISE, true, Some(REG_LAMBDAS[0]))?;
    let (lb, lg) = (b.last()?, g.last()?);
    let (fb, fg) = (lb.acc_flipped?, lg.acc_flipped?);
    let n = flipped_members(r, REG_NOISE).max(1) as f64;
    let mut out = vec![
        ("flipped acc BN (%)".into(), 100.0 * fb),
        ("flipped acc BN+reg (%)".into(), 100.0 * fg),
        ("test acc BN (%)".into(), 100.0 * lb.acc_test),
        ("test acc BN+reg (%)".into(), 100.0 * lg.acc_test),
        // Two binomial standard errors of the BN model's flipped accuracy: a drop smaller than
        // this is within what another draw of the same flipped samples could give.
        ("noise floor (pts)".into(), 100.0 * 2.0 * (fb * (1.0 - fb) / n).sqrt()),
    ];
    if let (Some(ab), Some(ag)) = (b.attack.as_ref(), g.attack.as_ref()) {
        out.push(("LiRA AUC BN".into(), ab.lira_online.auc));
        out.push(("LiRA AUC BN+reg".into(), ag.lira_online.auc));
    }
    Some(out)
}

fn pass_e(n: &Numbers) -> bool {
    let drop = get(n, "flipped acc BN (%)") - get(n, "flipped acc BN+reg (%)");
    drop >= get(n, "noise floor (pts)").max(1.0) && get(n, "test acc BN+reg (%)") >= get(n, "test acc BN (%)") - 1.0
}

/// The claims, in the table's order.
pub fn claims_list() -> Vec<Claim> {
    vec![
        Claim {
            id: 'a',
            claim: "BN fits flipped labels faster and further (accuracy on flipped members)",
            paper: "BN above no-BN at every epoch; here: mean over epochs higher, at each noise level with ≥ 30 flipped members",
            numbers: numbers_a,
            pass: pass_a,
        },
        Claim {
            id: 'b',
            claim: "With BN, noisy samples' gradient norms shift higher than clean ones' and than noisy ones' without BN",
            paper: "at 5 %: BN's noisy/clean ratio above no-BN's, and BN's noisy norm above no-BN's (medians in a batch, mean over epochs)",
            numbers: numbers_b,
            pass: pass_b,
        },
        Claim {
            id: 'c',
            claim: "LiRA wins more against BN models (AUC, BN − no-BN)",
            paper: "positive on clean data, ≥ +3 pts at 1 %, ≥ +4 pts at 5 %",
            numbers: numbers_c,
            pass: pass_c,
        },
        Claim {
            id: 'd',
            claim: "γ/σ > 1 in most BN layers (median over channels, batch σ, at 5 %)",
            paper: "γ/σ > 1 in most layers; the value at initialization is shown beside it",
            numbers: numbers_d,
            pass: pass_d,
        },
        Claim {
            id: 'f',
            claim: "Outliers push γ up: the feedback loop (growth of mean |γ| from initialization)",
            paper: "γ grows more with outliers: growth at 5 % above growth at 0 %",
            numbers: numbers_f,
            pass: pass_f,
        },
        Claim {
            id: 'e',
            claim: "The γ/σ regularizer cuts memorization while clean accuracy holds (at 5 %, first λ of the sweep)",
            paper: "flipped accuracy down by more than noise (≥ 2 binomial s.e., ≥ 1 pt); test accuracy no more than 1 pt lower",
            numbers: numbers_e,
            pass: pass_e,
        },
    ]
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

/// One claim over the seeds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClaimRow {
    pub id: char,
    pub claim: String,
    pub paper: String,
    pub numbers: Vec<Stat>,
    /// Seeds whose numbers passed, of the seeds that could be checked.
    pub seeds_held: usize,
    pub seeds_checked: usize,
    /// `None`: could not be checked.
    pub held: Option<bool>,
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
/// measured" panel draws.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LensCurves {
    pub noise: f64,
    pub batch_norm: bool,
    /// Accuracy on flipped members, %.
    pub flipped_acc: Vec<f64>,
    pub test_acc: Vec<f64>,
    /// Median per-sample gradient norm (in a batch), noisy and clean probes.
    pub grad_noisy: Vec<f64>,
    pub grad_clean: Vec<f64>,
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

fn mean_of(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

/// Per epoch index, the mean over runs of `f` (runs of unequal length: the common epochs).
fn per_epoch(runs: &[&ModelRun], f: impl Fn(&crate::report::EpochRecord) -> Option<f64>) -> Vec<f64> {
    let len = runs.iter().map(|r| r.epochs.len()).min().unwrap_or(0);
    (0..len)
        .map_while(|e| {
            let v: Option<Vec<f64>> = runs.iter().map(|r| f(&r.epochs[e])).collect();
            v.map(|v| mean_of(&v))
        })
        .collect()
}

/// The lens curves of the comparison runs, mean over seeds.
pub fn curves(by_seed: &[Vec<&Report>]) -> Vec<LensCurves> {
    let mut out = Vec::new();
    for noise in NOISE_LEVELS {
        for bn in [true, false] {
            let runs: Vec<&ModelRun> = by_seed.iter().filter_map(|r| find(r, noise, bn, None)).collect();
            if runs.is_empty() {
                continue;
            }
            let layers = runs[0].epochs.first().map_or(0, |e| e.gamma_sigma.len());
            let aucs: Vec<f64> = runs.iter().filter_map(|r| r.attack.as_ref().map(|a| a.lira_online.auc)).collect();
            out.push(LensCurves {
                noise,
                batch_norm: bn,
                flipped_acc: per_epoch(&runs, |e| e.acc_flipped.map(|a| 100.0 * a)),
                test_acc: per_epoch(&runs, |e| Some(100.0 * e.acc_test)),
                grad_noisy: per_epoch(&runs, |e| crate::report::median(&e.grad_norms.noisy)),
                grad_clean: per_epoch(&runs, |e| crate::report::median(&e.grad_norms.clean)),
                gamma_sigma: (0..layers).map(|l| per_epoch(&runs, |e| e.gamma_sigma.get(l).map(|g| g.batch_median))).collect(),
                mean_gamma: (0..layers).map(|l| per_epoch(&runs, |e| e.gamma_sigma.get(l).map(|g| g.mean_gamma))).collect(),
                lira_auc: (aucs.len() == runs.len()).then(|| mean_of(&aucs)),
            });
        }
    }
    out
}

fn stat(name: &str, values: Vec<f64>) -> Stat {
    let n = values.len().max(1) as f64;
    let mean = values.iter().sum::<f64>() / n;
    let sd = if values.len() > 1 { (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt() } else { 0.0 };
    Stat { name: name.to_string(), mean, sd, values }
}

/// The seeds present in the reports, in increasing order.
pub fn seeds_of(reports: &[Report]) -> Vec<u64> {
    let mut s: Vec<u64> = reports.iter().map(|r| r.config.seed).collect();
    s.sort_unstable();
    s.dedup();
    s
}

/// Decides one claim over the seeds' reports.
pub fn decide(claim: &Claim, by_seed: &[Vec<&Report>]) -> ClaimRow {
    let per_seed: Vec<Numbers> = by_seed.iter().filter_map(|r| (claim.numbers)(r)).collect();
    let seeds_held = per_seed.iter().filter(|n| (claim.pass)(n)).count();
    // The numbers every checked seed has, in the first seed's order.
    let names: Vec<String> = per_seed
        .first()
        .map(|f| f.iter().map(|(k, _)| k.clone()).filter(|k| per_seed.iter().all(|n| n.iter().any(|(j, _)| j == k))).collect())
        .unwrap_or_default();
    let numbers: Vec<Stat> = names.iter().map(|k| stat(k, per_seed.iter().map(|n| get(n, k)).collect())).collect();
    let means: Numbers = numbers.iter().map(|s| (s.name.clone(), s.mean)).collect();
    let held = (!per_seed.is_empty()).then(|| (claim.pass)(&means) && 2 * seeds_held > per_seed.len());
    ClaimRow {
        id: claim.id,
        claim: claim.claim.into(),
        paper: claim.paper.into(),
        numbers,
        seeds_held,
        seeds_checked: per_seed.len(),
        held,
    }
}

/// The privacy–utility trade-off of the regularizer: λ = 0 (the plain BN model) and each λ of the
/// sweep, mean over seeds.
pub fn tradeoff(by_seed: &[Vec<&Report>]) -> Vec<TradeoffPoint> {
    let mut out = Vec::new();
    for lambda in std::iter::once(0.0).chain(REG_LAMBDAS) {
        let runs: Vec<&ModelRun> = by_seed.iter().filter_map(|r| find(r, REG_NOISE, true, (lambda > 0.0).then_some(lambda))).collect();
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
    let by_seed: Vec<Vec<&Report>> = seeds.iter().map(|s| reports.iter().filter(|r| r.config.seed == *s).collect()).collect();
    PaperTable {
        rows: claims_list().iter().map(|c| decide(c, &by_seed)).collect(),
        tradeoff: tradeoff(&by_seed),
        curves: curves(&by_seed),
        seeds,
    }
}

fn fmt_num(s: &Stat) -> String {
    if s.values.len() > 1 { format!("{} {:.3} ± {:.3}", s.name, s.mean, s.sd) } else { format!("{} {:.3}", s.name, s.mean) }
}

impl ClaimRow {
    /// "held", "did not hold" or "could not be checked".
    pub fn verdict(&self) -> &'static str {
        match self.held {
            Some(true) => "held",
            Some(false) => "did not hold",
            None => "could not be checked",
        }
    }

    /// Our numbers in words: mean ± sd over seeds.
    pub fn ours(&self) -> String {
        self.numbers.iter().map(fmt_num).collect::<Vec<_>>().join("; ")
    }
}

impl PaperTable {
    /// The table as text, one claim a block.
    pub fn to_text(&self) -> String {
        let mut s = format!("seeds: {:?} (numbers: mean ± sd over seeds)\n", self.seeds);
        for r in &self.rows {
            s.push_str(&format!(
                "({}) {}\n    paper: {}\n    ours:  {}\n    → {} ({}/{} seeds)\n",
                r.id,
                r.claim,
                r.paper,
                r.ours(),
                r.verdict(),
                r.seeds_held,
                r.seeds_checked
            ));
        }
        if !self.tradeoff.is_empty() {
            s.push_str(&format!("λ sweep at {:.0}% (BN, regularizer {}):\n", 100.0 * REG_NOISE, Config::default().reg_kind.name()));
            for p in &self.tradeoff {
                s.push_str(&format!(
                    "    λ = {:<5} test {:.1} ± {:.1} %, flipped {:.1} ± {:.1} %{}\n",
                    p.lambda,
                    p.test_acc.mean,
                    p.test_acc.sd,
                    p.flipped_acc.mean,
                    p.flipped_acc.sd,
                    p.lira_auc.as_ref().map_or(String::new(), |a| format!(", LiRA AUC {:.3} ± {:.3}", a.mean, a.sd))
                ));
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(pairs: &[(&str, f64)]) -> Numbers {
        pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }

    #[test]
    fn a_needs_every_level_positive() {
        assert!(pass_a(&n(&[("Δ mean flipped acc 5% (pts)", 3.0), ("epochs BN above 5% (%)", 50.0)])));
        assert!(!pass_a(&n(&[("Δ mean flipped acc 1% (pts)", 2.0), ("Δ mean flipped acc 5% (pts)", -0.1)])));
        assert!(!pass_a(&n(&[("Δ mean flipped acc 5% (pts)", 0.0)])), "a tie is not 'above'");
    }

    #[test]
    fn b_needs_both_the_ratio_and_the_absolute_norm() {
        let base = [("BN noisy", 2.0), ("no-BN noisy", 1.0), ("BN noisy/clean", 3.0), ("no-BN noisy/clean", 2.0)];
        assert!(pass_b(&n(&base)));
        let mut lower_ratio = base;
        lower_ratio[2].1 = 1.5;
        assert!(!pass_b(&n(&lower_ratio)));
        let mut lower_norm = base;
        lower_norm[0].1 = 0.5;
        assert!(!pass_b(&n(&lower_norm)));
    }

    #[test]
    fn c_uses_the_papers_bars_and_clean_data() {
        let ok = [("Δ AUC 0% (pts)", 0.5), ("Δ AUC 1% (pts)", 3.0), ("Δ AUC 5% (pts)", 4.0)];
        assert!(pass_c(&n(&ok)));
        for (i, v) in [(0, 0.0), (1, 2.9), (2, 3.9)] {
            let mut bad = ok;
            bad[i].1 = v;
            assert!(!pass_c(&n(&bad)), "{bad:?}");
        }
    }

    #[test]
    fn d_counts_layers_by_median() {
        let layers = |v: [f64; 4]| {
            n(&[
                ("conv1 median γ/σ", v[0]),
                ("conv1 at init", 9.0),
                ("conv2 median γ/σ", v[1]),
                ("fc1 median γ/σ", v[2]),
                ("fc2 median γ/σ", v[3]),
            ])
        };
        assert!(pass_d(&layers([1.2, 1.1, 1.3, 0.5])));
        assert!(!pass_d(&layers([1.2, 1.1, 0.9, 0.5])), "2 of 4 is not most");
        assert!(!pass_d(&layers([0.9, 0.8, 0.7, 0.6])), "the init values do not count");
    }

    #[test]
    fn f_compares_growth_with_and_without_noise() {
        assert!(pass_f(&n(&[("Δ mean |γ| 0%", 0.1), ("Δ mean |γ| 5%", 0.2)])));
        assert!(!pass_f(&n(&[("Δ mean |γ| 0%", 0.2), ("Δ mean |γ| 5%", 0.2)])));
    }

    #[test]
    fn e_is_one_sided_on_test_and_needs_a_drop_beyond_noise() {
        let e = |fb: f64, fr: f64, tb: f64, tr: f64, floor: f64| {
            pass_e(&n(&[
                ("flipped acc BN (%)", fb),
                ("flipped acc BN+reg (%)", fr),
                ("test acc BN (%)", tb),
                ("test acc BN+reg (%)", tr),
                ("noise floor (pts)", floor),
            ]))
        };
        assert!(e(30.0, 20.0, 95.0, 95.5, 5.0), "a better test accuracy is fine");
        assert!(e(30.0, 20.0, 95.0, 94.0, 5.0), "one point lower is allowed");
        assert!(!e(30.0, 20.0, 95.0, 93.9, 5.0), "more than one point lower is not");
        assert!(!e(30.0, 26.0, 95.0, 95.0, 5.0), "a drop within the noise floor is not");
        assert!(!e(30.0, 29.5, 95.0, 95.0, 0.1), "and never below one point");
        assert!(!e(30.0, 35.0, 95.0, 95.0, 1.0));
    }

    fn claim_on(values: &[f64]) -> ClaimRow {
        // A claim whose one number is the seed's value and which passes above 0.
        fn numbers(r: &[&Report]) -> Option<Numbers> {
            Some(vec![("x".into(), r[0].config.learning_rate - 1.0)])
        }
        fn pass(n: &Numbers) -> bool {
            get(n, "x") > 0.0
        }
        let claim = Claim { id: 'z', claim: "", paper: "", numbers, pass };
        let reports: Vec<Report> = values
            .iter()
            .map(|v| Report { config: Config { learning_rate: 1.0 + v, ..Config::default() }, backend: String::new(), runs: vec![] })
            .collect();
        let by_seed: Vec<Vec<&Report>> = reports.iter().map(|r| vec![r]).collect();
        decide(&claim, &by_seed)
    }

    #[test]
    fn a_claim_holds_only_on_the_mean_and_most_seeds() {
        let r = claim_on(&[0.5, 0.4, 0.6]);
        assert_eq!((r.held, r.seeds_held, r.seeds_checked), (Some(true), 3, 3));
        assert!((r.numbers[0].mean - 0.5).abs() < 1e-9 && (r.numbers[0].sd - 0.1).abs() < 1e-9);
        // The mean clears the bar, but only one seed of three does.
        assert_eq!(claim_on(&[3.0, -0.1, -0.1]).held, Some(false));
        // Two of three seeds pass, but the mean does not.
        assert_eq!(claim_on(&[0.1, 0.1, -5.0]).held, Some(false));
        // Half is not most.
        assert_eq!(claim_on(&[0.5, -0.1]).held, Some(false));
    }

    #[test]
    fn missing_runs_cannot_be_checked() {
        let t = claims(&[]);
        assert!(t.rows.iter().all(|r| r.held.is_none()), "{t:?}");
    }

    #[test]
    fn grid_has_each_seed_and_the_sweep() {
        let g = grid(Size::Quick, &[1, 2]);
        assert_eq!(g.len(), 2 * (NOISE_LEVELS.len() + REG_LAMBDAS.len()));
        assert!(g.iter().all(|c| c.validate().is_ok()));
        assert_eq!(g.iter().filter(|c| c.regularizer && c.seed == 2).count(), REG_LAMBDAS.len());
    }
}
