//! [`run`]: a run and its twin without the outlier; the [`Summary`] and the table.

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::data::Point;
use super::lab::{Snapshot, StepRecord, TheoryLab};
use super::{TheoryConfig, TheoryError};
use crate::report::median_of;

/// What one run measured, beside its twin without the outlier.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TheoryReport {
    /// The run's config.
    pub config: TheoryConfig,
    /// Every sample in the signal plane with its label.
    pub points: Vec<Point>,
    /// The outlier's index in `points`.
    pub outlier: usize,
    /// The read-outs before the first step.
    pub initial: Snapshot,
    /// One record a step.
    pub steps: Vec<StepRecord>,
    /// The twin run (same seed, init and batch order, the outlier never trained on): γ after each
    /// step (empty without BN). The feedback loop is γ(with) − γ(without).
    pub twin_gamma: Vec<f64>,
    /// The twin's BN model: the outlier's margin after each step, as a held-out point (empty
    /// without BN). Memorization is margin(with) − margin(without).
    pub twin_margin_bn: Vec<f64>,
    /// The twin's plain model: the outlier's margin after each step, as a held-out point.
    pub twin_margin_plain: Vec<f64>,
    /// The headline numbers.
    pub summary: Summary,
}

/// The headline numbers of a [`TheoryReport`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The outlier's margin at the end, plain model.
    pub final_margin_plain: f64,
    /// The outlier's margin at the end, BN model.
    pub final_margin_bn: Option<f64>,
    /// The step from which on the plain model fits the outlier (margin > 0 after it and after
    /// every later step; `None` when it is not fitted at the end). Not simply the first step with
    /// margin > 0: a random init can put the outlier on the right side by chance.
    pub fitted_step_plain: Option<usize>,
    /// The same for the BN model.
    pub fitted_step_bn: Option<usize>,
    /// The outlier's margin at the end in the twin run (not trained on), plain model.
    pub twin_final_margin_plain: f64,
    /// The same, BN model.
    pub twin_final_margin_bn: Option<f64>,
    /// Clean training accuracy at the end, plain model.
    pub final_accuracy_plain: f64,
    /// Clean training accuracy at the end, BN model.
    pub final_accuracy_bn: Option<f64>,
    /// Steps whose batch held the outlier (and the BN model was trained): the measured steps.
    pub measured_steps: usize,
    /// The median over measured steps of `ratio_same_g / predicted` (1 where the theorem holds
    /// with live statistics).
    pub median_same_g_over_predicted: Option<f64>,
    /// The median over measured steps of `ratio_models / predicted`.
    pub median_models_over_predicted: Option<f64>,
    /// The median over measured steps of `ratio_models`.
    pub median_ratio_models: Option<f64>,
    /// The fraction of measured steps where `ratio_same_g > 1` (BN's step grew the outlier's margin
    /// more than the plain parameterization's would).
    pub frac_same_g_above_1: Option<f64>,
    /// The fraction of measured steps where the outlier pushes |γ| up (`gamma_push > 0`).
    pub frac_gamma_push_up: Option<f64>,
    /// γ at the end.
    pub final_gamma: Option<f64>,
    /// γ at the end of the twin run.
    pub twin_final_gamma: Option<f64>,
}

/// The step from which on `margin` (of the read-out after each step) stays above 0 through the
/// last of `steps`; `None` when it is not above 0 after the last. Not simply the first step with a
/// margin above 0: a random init can put the outlier on the right side by chance.
pub fn fitted_from(
    steps: &[StepRecord],
    margin: impl Fn(&Snapshot) -> Option<f64>,
) -> Option<usize> {
    let tail = steps.iter().rev().take_while(|r| margin(&r.after).is_some_and(|m| m > 0.0)).count();
    (tail > 0).then(|| steps[steps.len() - tail].step)
}

/// Trains a config's run and its twin without the outlier (the same run if the config already
/// has none), every configured step.
pub fn run(config: &TheoryConfig) -> Result<TheoryReport, TheoryError> {
    let mut lab = TheoryLab::new(config)?;
    let mut twin = TheoryLab::new(&TheoryConfig { outlier: false, ..config.clone() })?;
    let initial = lab.snapshot();
    let mut steps = Vec::with_capacity(config.steps);
    let mut twins = Vec::with_capacity(config.steps);
    while !lab.done() {
        steps.push(lab.step());
        twins.push(twin.step().after);
    }
    let twin_gamma: Vec<f64> = twins.iter().filter_map(|s| s.gamma).collect();
    let twin_margin_bn: Vec<f64> =
        twins.iter().filter_map(|s| s.bn.as_ref().map(|b| b.outlier_margin)).collect();
    let twin_margin_plain: Vec<f64> = twins.iter().map(|s| s.plain.outlier_margin).collect();
    let summary = Summary::of(&steps, twins.last().expect("at least one step"));
    Ok(TheoryReport {
        config: config.clone(),
        points: lab.points(),
        outlier: lab.outlier(),
        initial,
        steps,
        twin_gamma,
        twin_margin_bn,
        twin_margin_plain,
        summary,
    })
}

impl Summary {
    /// The summary of a run's records (at least one) and its twin's last read-out.
    fn of(steps: &[StepRecord], twin_last: &Snapshot) -> Self {
        let last = &steps.last().expect("at least one step").after;
        let measured: Vec<&StepRecord> = steps.iter().filter(|r| r.predicted.is_some()).collect();
        let over_predicted = |of: fn(&StepRecord) -> Option<f64>| {
            measured.iter().filter_map(|r| Some(of(r)? / r.predicted?)).collect::<Vec<f64>>()
        };
        let same_g: Vec<f64> = measured.iter().filter_map(|r| r.ratio_same_g).collect();
        let push: Vec<f64> = measured.iter().filter_map(|r| r.gamma_push).collect();
        let frac = |v: &[f64], above: f64| {
            (!v.is_empty())
                .then(|| v.iter().filter(|&&q| q > above).count() as f64 / v.len() as f64)
        };
        Self {
            final_margin_plain: last.plain.outlier_margin,
            final_margin_bn: last.bn.as_ref().map(|b| b.outlier_margin),
            fitted_step_plain: fitted_from(steps, |s| Some(s.plain.outlier_margin)),
            fitted_step_bn: fitted_from(steps, |s| s.bn.as_ref().map(|b| b.outlier_margin)),
            twin_final_margin_plain: twin_last.plain.outlier_margin,
            twin_final_margin_bn: twin_last.bn.as_ref().map(|b| b.outlier_margin),
            final_accuracy_plain: last.plain.clean_accuracy,
            final_accuracy_bn: last.bn.as_ref().map(|b| b.clean_accuracy),
            measured_steps: measured.len(),
            median_same_g_over_predicted: median_of(over_predicted(|r| r.ratio_same_g)),
            median_models_over_predicted: median_of(over_predicted(|r| r.ratio_models)),
            median_ratio_models: median_of(
                measured.iter().filter_map(|r| r.ratio_models).collect(),
            ),
            frac_same_g_above_1: frac(&same_g, 1.0),
            frac_gamma_push_up: frac(&push, 0.0),
            final_gamma: last.gamma,
            twin_final_gamma: twin_last.gamma,
        }
    }
}

/// A number with 3 decimals, or "—".
fn num(x: Option<f64>) -> String {
    x.map_or("—".into(), |v| format!("{v:.3}"))
}

impl TheoryReport {
    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a TheoryReport always serializes")
    }

    /// A markdown table of every `every`-th measured step (every `every`-th step when none was
    /// measured), then the summary.
    pub fn to_table(&self, every: usize) -> String {
        let every = every.max(1);
        let c = &self.config;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "Theory lab: {} at lr {}, batch {}, {} steps, seed {}, d = {}{}{}\n",
            c.optimizer.label(),
            c.lr,
            c.batch_size,
            c.steps,
            c.seed,
            c.dim(),
            if c.freeze_gamma { ", γ frozen" } else { "" },
            if c.outlier { "" } else { ", no outlier (read out as held-out)" },
        );
        let _ = writeln!(
            s,
            "| step | margin BN | margin plain | γ/σ_B | (γ/σ_B)² predicted | same-g frozen \
             | same-g live | BN/plain steps |"
        );
        let _ = writeln!(s, "|---:|---:|---:|---:|---:|---:|---:|---:|");
        let measured: Vec<&StepRecord> =
            self.steps.iter().filter(|r| r.predicted.is_some()).collect();
        let rows: Vec<&StepRecord> =
            if measured.is_empty() { self.steps.iter().collect() } else { measured };
        for r in rows.iter().step_by(every) {
            let _ = writeln!(
                s,
                "| {} | {} | {:.3} | {} | {} | {} | {} | {} |",
                r.step,
                num(r.after.bn.as_ref().map(|b| b.outlier_margin)),
                r.after.plain.outlier_margin,
                num(r.gamma_over_sigma),
                num(r.predicted),
                num(r.ratio_frozen),
                num(r.ratio_same_g),
                num(r.ratio_models),
            );
        }
        let m = &self.summary;
        let step = |x: Option<usize>| x.map_or("never".into(), |v| format!("step {v}"));
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "Outlier's final margin: BN {}, plain {:.3} \
             (without it in training: BN {}, plain {:.3})",
            num(m.final_margin_bn),
            m.final_margin_plain,
            num(m.twin_final_margin_bn),
            m.twin_final_margin_plain,
        );
        let _ = writeln!(
            s,
            "Fitted (margin > 0) from: BN {}, plain {}",
            if c.bn { step(m.fitted_step_bn) } else { "—".into() },
            step(m.fitted_step_plain),
        );
        let _ = writeln!(
            s,
            "Clean training accuracy: BN {}, plain {:.3}",
            num(m.final_accuracy_bn),
            m.final_accuracy_plain,
        );
        let _ = writeln!(
            s,
            "Measured steps (outlier in the batch): {}; medians: same-g live / predicted {}, \
             BN/plain steps / predicted {}, BN/plain steps {}",
            m.measured_steps,
            num(m.median_same_g_over_predicted),
            num(m.median_models_over_predicted),
            num(m.median_ratio_models),
        );
        let _ = writeln!(
            s,
            "Fraction of measured steps with same-g live > 1: {}; \
             where the outlier pushes |γ| up: {}",
            num(m.frac_same_g_above_1),
            num(m.frac_gamma_push_up),
        );
        let _ = writeln!(
            s,
            "γ at the end: {} with the outlier, {} without",
            num(m.final_gamma),
            num(m.twin_final_gamma)
        );
        s
    }
}
