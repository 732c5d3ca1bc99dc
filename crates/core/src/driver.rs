//! The one loop that drives an [`Experiment`] to its end, for every front end: one unit of work,
//! then a pause for the host (the browser draws; natively a no-op), then the progress as data — the
//! app's progress bar and the CLI's render the same [`Pace`]. Cancellation is asked for between
//! units and inside them; the wall time is kept by phase.

use std::task::Poll;

use burn::tensor::Device;

use crate::Config;
use crate::bench::{PhaseTimer, PhaseTimes};
use crate::data::Dataset;
use crate::experiment::{Experiment, Progress};
use crate::report::Report;

/// Where a run stands after a unit of work, ready to show.
#[derive(Clone, Debug, PartialEq)]
pub struct Pace {
    pub progress: Progress,
    /// Share of the experiment's work done, 0 to 1.
    pub fraction: f64,
    pub elapsed_s: f64,
    /// Training samples per second so far (every model's steps × the batch size).
    pub samples_per_s: f64,
    /// The time left at the pace so far (0 before the first unit).
    pub eta_s: f64,
    /// The wall time so far, by phase.
    pub times: PhaseTimes,
}

/// How a driven experiment ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    Finished,
    Cancelled,
}

/// Drives `exp` until it finishes or `cancelled()` says so (asked before every unit and whenever a
/// unit pauses; a cancelled experiment may stop inside a unit, so read its report, do not advance it
/// again: what a unit records, it records at its end, so the report holds whole epochs). After each
/// unit it pauses for the host ([`crate::yielder::pause`]) and calls `on_unit` with the experiment
/// and its [`Pace`]. `clock` reads seconds. Returns how it ended and the wall time by phase.
pub async fn drive(
    exp: &mut Experiment,
    clock: &dyn Fn() -> f64,
    cancelled: &dyn Fn() -> bool,
    mut on_unit: impl FnMut(&Experiment, &Pace),
) -> (Ending, PhaseTimes) {
    let started = clock();
    let mut timer = PhaseTimer::new(started);
    let total = exp.steps_total().max(1);
    let batch = exp.config().batch_size as f64;
    while !exp.finished() {
        // Cancellation is asked before every unit and at every pause inside one (a unit that
        // measures an epoch is many batches long): a cancelled unit is dropped where it stands.
        let progress = {
            let mut unit = std::pin::pin!(exp.advance());
            std::future::poll_fn(|cx| {
                if cancelled() { Poll::Ready(None) } else { unit.as_mut().poll(cx).map(Some) }
            })
            .await
        };
        let Some(progress) = progress else {
            return (Ending::Cancelled, timer.times(clock()));
        };
        let now = clock();
        timer.observe(exp.phase(), now);
        let elapsed_s = now - started;
        let fraction = progress.steps_done as f64 / total as f64;
        let pace = Pace {
            fraction,
            elapsed_s,
            samples_per_s: progress.steps_done as f64 * batch / elapsed_s.max(1e-3),
            eta_s: if fraction > 0.0 { elapsed_s * (1.0 - fraction) / fraction } else { 0.0 },
            times: timer.times(now),
            progress,
        };
        on_unit(exp, &pace);
        crate::yielder::pause().await;
    }
    (Ending::Finished, timer.times(clock()))
}

/// Builds an experiment and drives it to the end, calling `on_progress` after each unit (no clock,
/// no cancellation: tests and simple callers).
pub async fn run(
    config: &Config,
    dataset: &Dataset,
    other: Option<&Dataset>,
    device: &Device,
    backend: &str,
    mut on_progress: impl FnMut(&Progress),
) -> Result<Report, String> {
    let mut e = Experiment::new(config, dataset, other, device, backend)?;
    drive(&mut e, &|| 0.0, &|| false, |_, pace| on_progress(&pace.progress)).await;
    Ok(e.report())
}
