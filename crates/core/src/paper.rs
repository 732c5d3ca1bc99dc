//! The paper's directions, checked on our own runs: the preset grid (BN vs no-BN × label noise
//! {0, 1 %, 5 %} × regularizer {off, on}, with LiRA) and the five claims, each marked held or not.

use serde::{Deserialize, Serialize};

use crate::config::{Config, DatasetName};
use crate::report::{Report, median};

/// Label-noise levels of the grid.
pub const NOISE_LEVELS: [f64; 3] = [0.0, 0.01, 0.05];

/// The grid's experiments: per noise level, the BN / no-BN comparison, then the BN model with the
/// γ/σ regularizer. `quick` is the CI size.
pub fn grid(quick: bool, seed: u64) -> Vec<Config> {
    let base = if quick {
        Config { train_size: 1000, test_size: 1000, epochs: 4, batch_size: 50, probe_size: 32, shadow_models: 2, ..Config::default() }
    } else {
        Config { train_size: 30_000, test_size: 10_000, epochs: 20, batch_size: 128, probe_size: 256, shadow_models: 8, ..Config::default() }
    };
    let mut out = Vec::new();
    for noise in NOISE_LEVELS {
        let c = Config { dataset: DatasetName::Mnist, label_noise: noise, seed, ..base.clone() };
        out.push(Config { compare: true, regularizer: false, ..c.clone() });
        out.push(Config { compare: false, batch_norm: true, regularizer: true, reg_strength: 0.05, ..c });
    }
    out
}

/// One claim, our number beside the paper's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClaimRow {
    pub id: char,
    pub claim: String,
    pub paper: String,
    pub ours: String,
    /// `None` when the runs needed were missing (e.g. training diverged).
    pub held: Option<bool>,
}

/// The table of the five claims.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PaperTable {
    pub rows: Vec<ClaimRow>,
}

fn find(reports: &[Report], noise: f64, regularizer: bool, bn: bool) -> Option<&crate::report::ModelRun> {
    reports
        .iter()
        .filter(|r| (r.config.label_noise - noise).abs() < 1e-12 && r.config.regularizer == regularizer)
        .find_map(|r| r.run(bn))
        .filter(|run| run.error.is_none() && !run.epochs.is_empty())
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// Evaluates the claims on the grid's reports.
pub fn claims(reports: &[Report]) -> PaperTable {
    let mut rows = Vec::new();

    // (a) Accuracy on flipped samples, per epoch: BN above no-BN.
    let mut ours = Vec::new();
    let mut held = Some(true);
    for noise in [0.01, 0.05] {
        match (find(reports, noise, false, true), find(reports, noise, false, false)) {
            (Some(b), Some(p)) => {
                let above = b.epochs.iter().zip(&p.epochs).filter(|(x, y)| x.acc_flipped > y.acc_flipped).count();
                let (lb, lp) = (b.last().unwrap().acc_flipped.unwrap_or(0.0), p.last().unwrap().acc_flipped.unwrap_or(0.0));
                ours.push(format!("{}: BN {} vs no-BN {} at the end; BN above in {above}/{} epochs", pct(noise), pct(lb), pct(lp), b.epochs.len()));
                held = held.map(|h| h && lb > lp);
            }
            _ => held = None,
        }
    }
    rows.push(ClaimRow {
        id: 'a',
        claim: "BN fits flipped labels faster and further (accuracy on flipped samples)".into(),
        paper: "BN above no-BN at every epoch".into(),
        ours: ours.join("; "),
        held,
    });

    // (b) Median gradient norm, noisy vs clean: higher with BN.
    let ratio = |run: &crate::report::ModelRun| {
        let g = &run.last()?.grad_norms;
        Some(median(&g.noisy)? / median(&g.clean)?.max(1e-12))
    };
    let (b, p) = (find(reports, 0.05, false, true).and_then(ratio), find(reports, 0.05, false, false).and_then(ratio));
    rows.push(ClaimRow {
        id: 'b',
        claim: "Noisy samples' gradient norms shift higher than clean ones' with BN".into(),
        paper: "median ‖∇ℓ‖ noisy / clean much higher with BN".into(),
        ours: match (b, p) {
            (Some(b), Some(p)) => format!("noisy/clean median ratio at 5%: BN {b:.2}, no-BN {p:.2}"),
            _ => "missing".into(),
        },
        held: b.zip(p).map(|(b, p)| b > p),
    });

    // (c) MIA AUC BN − no-BN.
    let auc = |noise: f64, bn: bool| find(reports, noise, false, bn)?.attack.as_ref().map(|a| a.lira_online.auc);
    let mut ours = Vec::new();
    let mut held = Some(true);
    for (noise, need) in [(0.0, None), (0.01, Some(3.0)), (0.05, Some(4.0))] {
        match (auc(noise, true), auc(noise, false)) {
            (Some(b), Some(p)) => {
                let d = 100.0 * (b - p);
                ours.push(format!("{}: {:.3} − {:.3} = {d:+.1} pts", pct(noise), b, p));
                if let Some(need) = need {
                    held = held.map(|h| h && d >= need);
                }
            }
            _ => held = None,
        }
    }
    rows.push(ClaimRow {
        id: 'c',
        claim: "LiRA wins more against BN models (AUC, BN − no-BN)".into(),
        paper: "≥ +3 pts at 1%, ≥ +4 pts at 5%, positive on clean data".into(),
        ours: ours.join("; "),
        held,
    });

    // (d) γ/σ > 1 in most layers.
    let d = find(reports, 0.05, false, true).and_then(|r| r.last()).map(|e| {
        let above = e.gamma_sigma.iter().filter(|l| l.running > 1.0).count();
        (above, e.gamma_sigma.len(), e.gamma_sigma.iter().map(|l| format!("{} {:.2}", l.layer, l.running)).collect::<Vec<_>>().join(", "))
    });
    rows.push(ClaimRow {
        id: 'd',
        claim: "γ/σ > 1 in most BN layers".into(),
        paper: "γ/σ > 1 in most layers".into(),
        ours: d.as_ref().map_or("missing".into(), |(a, n, s)| format!("{a}/{n} layers above 1 at 5% ({s})")),
        held: d.map(|(a, n, _)| 2 * a > n),
    });

    // (e) The regularizer lowers flipped accuracy, clean test accuracy within ~1 point.
    let (b, r) = (find(reports, 0.05, false, true), find(reports, 0.05, true, true));
    let e = b.zip(r).and_then(|(b, r)| {
        let (b, r) = (b.last()?, r.last()?);
        Some((b.acc_flipped?, r.acc_flipped?, b.acc_test, r.acc_test))
    });
    rows.push(ClaimRow {
        id: 'e',
        claim: "The γ/σ regularizer cuts memorization, clean accuracy holds".into(),
        paper: "flipped accuracy down; test accuracy within ~1 pt".into(),
        ours: e.map_or("missing".into(), |(fb, fr, tb, tr)| {
            format!("flipped {} → {}, test {} → {} at 5%", pct(fb), pct(fr), pct(tb), pct(tr))
        }),
        held: e.map(|(fb, fr, tb, tr)| fr < fb && (tr - tb).abs() <= 0.01),
    });
    PaperTable { rows }
}

impl PaperTable {
    /// The table as text, one claim a row.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for r in &self.rows {
            let verdict = match r.held {
                Some(true) => "held",
                Some(false) => "did not hold",
                None => "could not be checked",
            };
            s.push_str(&format!("({}) {}\n    paper: {}\n    ours:  {}\n    → {}\n", r.id, r.claim, r.paper, r.ours, verdict));
        }
        s
    }
}
