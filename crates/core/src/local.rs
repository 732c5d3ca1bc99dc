//! A [`Board`]'s tasks run on this thread: the engine of every front end that has no parallel
//! workers (the CLI's `spotlight run`, the page's fallback on its own thread). The page's Web
//! Workers run the same tasks, one a worker; here a few run in turns — one training step of each,
//! then a pause for the host — so the target models' curves advance side by side, as they do in
//! the workers. The report is the board's: the same for the same config however the tasks ran.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::task::Poll;

use burn::tensor::Device;

use crate::Config;
use crate::bench::PhaseTimes;
use crate::board::{Board, Task};
use crate::data::Dataset;
use crate::experiment::shadow_keep;
use crate::experiment_data::{DeviceData, ExperimentData};
use crate::jobs::{JobProgress, JobResult, attack_of, run_job_with, run_stack_with};
use crate::report::{AttackReport, Report, RunError};

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    Finished,
    Cancelled,
}

/// A task's end.
enum Ended {
    /// Each job's index and result (one job, or a stack of shadow models).
    Trained(Vec<(usize, Result<JobResult, RunError>)>),
    Attacked(usize, Result<AttackReport, RunError>),
}

type Running<'a> = Pin<Box<dyn Future<Output = Ended> + 'a>>;

/// Runs `config`'s experiment on `data` here, [`Config::variants`]' count of tasks at a time in
/// turns (the target models side by side, then their shadows, then the attacks). After each turn
/// — a training step of every running model — it calls `on_turn` with the board and whether the
/// report grew (a target's live read-out or epoch record, or a task's end), then pauses for the host
/// ([`crate::yielder::pause`]: the browser draws). `cancelled()` is asked before every turn; a
/// cancelled run's report holds what was measured. `clock` reads seconds. Up to `stack` shadow
/// models train as one stacked network ([`Board::stacking`]; `crate::shadows::stack_size`).
/// Returns how it ended, its wall time by phase and its report.
#[allow(clippy::too_many_arguments)]
pub async fn run_here(
    config: &Config,
    data: &ExperimentData,
    device: &Device,
    backend: &str,
    stack: usize,
    clock: &dyn Fn() -> f64,
    cancelled: &dyn Fn() -> bool,
    mut on_turn: impl FnMut(&Board, bool),
) -> (Ending, PhaseTimes, Report) {
    let mut board = Board::new(config, data, backend, clock()).stacking(stack);
    let keep = shadow_keep(config, data.pool.labels.len());
    // The data on the device once, for every model (a Web Worker uploads it for its own).
    let device_data = DeviceData::new(data, device);
    let progress: RefCell<Vec<(usize, JobProgress)>> = RefCell::new(Vec::new());
    let mut running: Vec<Running<'_>> = Vec::new();
    let slots = config.variants().len();
    loop {
        if cancelled() {
            return (Ending::Cancelled, board.times(clock()), board.report());
        }
        while running.len() < slots {
            let Some(task) = board.next_task() else { break };
            running.push(match task {
                Task::Train { index, job } => {
                    let (progress, device_data) = (&progress, &device_data);
                    Box::pin(async move {
                        let on_progress = |p| progress.borrow_mut().push((index, p));
                        let r = run_job_with(&job, data, device_data, backend, clock, on_progress)
                            .await;
                        Ended::Trained(vec![(index, r)])
                    })
                }
                Task::Stack { indices, jobs } => {
                    let (progress, device_data) = (&progress, &device_data);
                    Box::pin(async move {
                        let on_progress = |p: JobProgress| {
                            let mut progress = progress.borrow_mut();
                            progress.extend(indices.iter().map(|&i| (i, p.clone())));
                        };
                        let r =
                            run_stack_with(&jobs, data, device_data, backend, clock, on_progress)
                                .await;
                        Ended::Trained(indices.into_iter().zip(r).collect())
                    })
                }
                Task::Attack { variant, target, shadow_phi } => {
                    let r = attack_of(config, data, &keep, &target, &shadow_phi)
                        .unwrap_or(Err(RunError::NothingToAttack));
                    Box::pin(std::future::ready(Ended::Attacked(variant, r)))
                }
            });
        }
        if running.is_empty() {
            // Nothing runs and nothing is ready: finished (or, should a task never come, stuck).
            let ending = if board.finished() { Ending::Finished } else { Ending::Cancelled };
            return (ending, board.times(clock()), board.report());
        }
        // One turn: every running task up to its next step. A turn in which no task stepped or
        // ended (each waits on the device, say a read-back) waits to be woken, not spins.
        let ended = std::future::poll_fn(|cx| {
            let before = progress.borrow().len();
            let mut ended = Vec::new();
            running.retain_mut(|task| match task.as_mut().poll(cx) {
                Poll::Ready(e) => {
                    ended.push(e);
                    false
                }
                Poll::Pending => true,
            });
            if ended.is_empty() && progress.borrow().len() == before {
                Poll::Pending
            } else {
                Poll::Ready(ended)
            }
        })
        .await;
        let mut measured = false;
        for (index, p) in progress.borrow_mut().drain(..) {
            measured |= p.readout.is_some();
            board.progress(index, p.steps_done, p.readout);
        }
        let now = clock();
        for e in ended {
            measured = true;
            match e {
                Ended::Trained(results) => {
                    for (index, r) in results {
                        board.job_done(index, r, now);
                    }
                }
                Ended::Attacked(variant, r) => board.attack_done(variant, r),
            }
        }
        on_turn(&board, measured);
        crate::yielder::pause().await;
    }
}

/// Builds the experiment's data and runs it here to the end (shadow models one by one), calling
/// `on_turn` after each turn (no clock, no cancellation: tests and simple callers).
pub async fn run(
    config: &Config,
    dataset: &Dataset,
    other: Option<&Dataset>,
    device: &Device,
    backend: &str,
    mut on_turn: impl FnMut(&Board),
) -> Result<Report, String> {
    let data = ExperimentData::build(config, dataset, other).map_err(|e| e.to_string())?;
    let (_, _, report) =
        run_here(config, &data, device, backend, 1, &|| 0.0, &|| false, |b, _| on_turn(b)).await;
    Ok(report)
}
