//! What the buttons start: one experiment — its models in Web Workers ([`pool`]), or on the page's
//! thread ([`local`]) —, and the benchmark. The
//! experiment itself is the core's; this only moves its progress into the page's signals.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use leptos::prelude::*;
use spotlight_core::Report;
use spotlight_core::Variant;
use spotlight_core::backend::BackendName;
use spotlight_core::bench::{self, BenchReport, ComparisonTime, GpuWork, PhaseTimes};
use spotlight_core::burn::tensor::Device;
use spotlight_core::config::{Config, DatasetName, OodSourceName};
use spotlight_core::experiment_data::ExperimentData;
use spotlight_core::jobs;
use spotlight_core::local::{self, Ending};
use spotlight_i18n::say::data::build_error;

use crate::backend::{self, Backend};
use crate::state::{Activity, Bar, BenchNote, Doing, Loading, Ui};
use crate::{datasets, gpu_counts, pool, web};

/// Timed training steps per model and backend in the benchmark (after the warm-up).
const BENCH_STEPS: usize = 10;

/// The benchmark's shadow models (one by one, then stacked): how many, and their batch (small: on
/// a software WebGPU adapter each round takes seconds).
pub const BENCH_SHADOWS: usize = 4;
pub const BENCH_SHADOW_BATCH: usize = 16;

/// Starts the experiment in the controls, unless something is running.
pub fn start(ui: Ui) {
    if !ui.busy() {
        leptos::task::spawn_local(async move {
            run_now(ui).await;
        });
    }
}

/// Runs the experiment in the controls (unless something is running) and waits for its end.
pub async fn run_now(ui: Ui) -> Option<ComparisonTime> {
    if ui.busy() {
        return None;
    }
    // Busy from here on, before the first await: a second click cannot start a second run.
    ui.activity.set(Activity::Loading(Loading::Starting));
    ui.ask.set(None);
    ui.runs_started.update(|n| *n += 1);
    let flag = Arc::new(AtomicBool::new(false));
    ui.cancel.set_value(flag.clone());
    ui.bar.set(Bar::default());
    ui.report.set(None);
    ui.times.set(None);
    // What a course link hides is not computed (a hidden attack trains no shadow model).
    let config = ui.course.with_value(|c| c.trim(&ui.config.get_untracked()));
    run(config, ui, flag).await
}

/// Cancels the running experiment (it stops at its next step).
pub fn stop(ui: Ui) {
    ui.cancel.get_value().store(true, Ordering::Relaxed);
}

/// Runs one experiment, updating the signals as it goes; returns its wall time by phase (also
/// when cancelled) once it has started training.
pub async fn run(config: Config, ui: Ui, cancel: Arc<AtomicBool>) -> Option<ComparisonTime> {
    web::mark("spotlight-run-pressed");
    let be = ui.backend.await;
    // On the CPU, a first run that came before the page's rehearsal has one while its dataset
    // loads, and its workers wait for it (`pool::rehearse`).
    if !be.gpu {
        pool::rehearse(config.clone(), ui);
    }
    // A failure is written in the language of the moment it happens.
    let words = || &ui.lang_now().texts().status;
    // Training workers (0: on the page's thread).
    let mut workers = 0;
    let ds = match datasets::load(config.dataset, ui).await {
        Ok(d) => d,
        Err(e) => {
            ui.activity.set(Activity::LoadFailed((words().failure.dataset)(&e)));
            return None;
        }
    };
    let other = if config.ood_fraction > 0.0 && config.ood_source == OodSourceName::Other {
        match datasets::load(config.dataset.other(), ui).await {
            Ok(d) => Some(d),
            Err(e) => {
                ui.activity.set(Activity::LoadFailed((words().failure.ood_dataset)(&e)));
                return None;
            }
        }
    } else {
        None
    };
    // A lost GPU device stops the run: every later step on it would fail.
    let stop = || {
        cancel.load(Ordering::Relaxed) || (be.gpu && ui.gpu_lost.with_untracked(Option::is_some))
    };
    // A task of its own (it reads every image of the dataset, ~30 ms in the browser): after a
    // first load the dataset's decoding just held the page, and after it the page redraws.
    web::yield_now().await;
    let data = match ExperimentData::build(&config, &ds, other.as_deref()) {
        Ok(d) => d,
        Err(e) => {
            ui.activity.set(Activity::Failed(build_error(ui.lang_now(), &e)));
            return None;
        }
    };
    web::yield_now().await;
    ui.activity.set(Activity::Training);
    web::mark("spotlight-run-start");
    // The models train in Web Workers, the page only draws — on WebGPU too, unless a worker could
    // not open a device (then, from that run on, on the page's thread).
    let mut in_workers = None;
    pool::after_rehearsal(&stop).await;
    if !be.gpu || ui.gpu_on_page.with_untracked(Option::is_none) {
        let o = pool::run(&config, &data, &be.label, be.gpu, ui, &stop).await;
        match o.no_gpu {
            Some(why) => ui.gpu_on_page.set(Some(why)),
            None => in_workers = Some(o),
        }
    }
    let (ending, times, report, failure) = match in_workers {
        Some(o) => {
            workers = o.workers;
            (o.ending, o.times, o.report, o.failure)
        }
        None => {
            let device = match backend::page_gpu(ui.gpu_lost).await {
                Ok(device) => device,
                Err(e) => {
                    ui.activity.set(Activity::Failed((words().banner.webgpu_failed)(&e)));
                    return None;
                }
            };
            let (ending, times, report) =
                train_here(&config, &data, &device, &be.label, ui, &stop).await;
            (ending, times, report, None)
        }
    };
    let finished = ending == Ending::Finished;
    let failures = report.failures();
    let flipped_gap = report.flipped_gap();
    // A destroyed or lost device makes the models' next steps fail before the browser delivers its
    // `lost` event (seen here up to 0.83 s after `destroy()`, the main thread busy): a GPU run on the
    // page that ended with errors waits up to 3 s for that event, so the lost device is reported as
    // the cause, not the errors it caused (the pool does the same for its workers' devices).
    if be.gpu && workers == 0 && failures > 0 {
        for _ in 0..60 {
            if ui.gpu_lost.with_untracked(Option::is_some) {
                break;
            }
            web::sleep_ms(50).await;
        }
    }
    // A finished CPU run in workers times this machine better than the rehearsal did.
    if finished && !be.gpu && workers > 0 && failures == 0 {
        let passes = jobs::sample_passes(&config);
        if passes > 0.0 {
            ui.pace.set(Some(times.total_s * workers as f64 / passes));
        }
    }
    if finished {
        ui.bar.update(|b| {
            b.fraction = 1.0;
            b.eta_s = 0.0;
            b.elapsed_s = times.total_s;
            b.doing = Doing::Done;
        });
    } else {
        ui.report.set(Some(report));
    }
    let f = &words().failure;
    ui.activity.set(match (finished, ui.gpu_lost.get_untracked()) {
        (_, _) if failure.is_some() => Activity::Failed((f.kept)(&failure.unwrap_or_default())),
        (_, Some(why)) if be.gpu => Activity::Failed((f.gpu_lost)(if why.is_empty() {
            words().banner.no_reason
        } else {
            &why
        })),
        (true, _) if failures > 0 => Activity::Failed((f.errors)(failures)),
        (true, _) => Activity::Done,
        (false, _) => Activity::Cancelled,
    });
    ui.times.set(Some(times.clone()));
    Some(ComparisonTime {
        backend: be.label.clone(),
        config: config.clone(),
        times,
        finished,
        workers,
        flipped_gap,
    })
}

/// Trains on the page's own thread (WebGPU that the workers do not get): the board's tasks in
/// turns, a step of each model, the page drawing between turns.
async fn train_here(
    config: &Config,
    data: &ExperimentData,
    device: &Device,
    backend: &str,
    ui: Ui,
    stop: &dyn Fn() -> bool,
) -> (Ending, PhaseTimes, Report) {
    let clock = || web::now_ms() / 1000.0;
    let started = clock();
    let batch = config.batch_size as f64;
    let (mut last_draw, mut last_report) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    let (mut changed, mut first_live) = (false, false);
    // On the GPU: shadow models stacked (fewer kernel launches).
    let stack = spotlight_core::shadows::stack_size(true);
    let (ending, times, report) =
        local::run_here(config, data, device, backend, stack, &clock, stop, |board, measured| {
            let elapsed = clock() - started;
            // The bar at most ten times a second; the charts at most four, when something was measured.
            if elapsed - last_draw > 0.1 {
                last_draw = elapsed;
                let fraction = board.fraction();
                ui.bar.set(Bar {
                    fraction,
                    doing: Doing::Board(board.doing(), 0),
                    samples_per_s: board.steps_done() as f64 * batch / elapsed.max(1e-3),
                    eta_s: if fraction > 0.0 { elapsed * (1.0 - fraction) / fraction } else { 0.0 },
                    elapsed_s: elapsed,
                });
            }
            changed |= measured;
            if changed && elapsed - last_report > 0.25 {
                (last_report, changed) = (elapsed, false);
                ui.report.set(Some(board.report()));
                if !first_live && board.steps_done() > 0 {
                    first_live = true;
                    web::mark("spotlight-first-live-point");
                }
            }
        })
        .await;
    ui.report.set(Some(report.clone()));
    (ending, times, report)
}

/// Train samples/s for each model on every backend this page has (WebGPU if it runs, then the CPU
/// backends built in: burn-flex), then the wall time of the comparison in the controls on the page's backend.
pub async fn run_bench(ui: Ui) {
    pool::end_rehearsal();
    if ui.busy() {
        return;
    }
    ui.activity.set(Activity::Benchmarking);
    ui.bench.set(BenchReport::default());
    let config = ui.config.get_untracked();
    let be = ui.backend.await;
    let mut backends = Vec::new();
    if be.gpu {
        // Count the WebGPU work of its rows (before the page's device exists).
        gpu_counts::install();
        match backend::page_gpu(ui.gpu_lost).await {
            Ok(device) => backends.push((device, be.label.clone())),
            Err(e) => ui.bench_note.set(BenchNote::NoGpu(be.label.clone(), e)),
        }
    }
    for name in [BackendName::Flex, BackendName::Ndarray].into_iter().filter(|b| b.compiled()) {
        let cpu = Backend::cpu(name, None);
        backends.extend(cpu.device.map(|d| (d, cpu.label)));
    }
    let ds = match datasets::load(DatasetName::Mnist, ui).await {
        Ok(d) => d,
        Err(e) => {
            ui.activity.set(Activity::Failed((ui.lang_now().texts().status.failure.dataset)(&e)));
            ui.bench_note.set(BenchNote::NoMnist);
            return;
        }
    };
    ui.activity.set(Activity::Benchmarking);
    let clock = || web::now_ms() / 1000.0;
    for (device, label) in &backends {
        for bn in [true, false] {
            ui.bench_note.set(BenchNote::Timing(Variant::unregularized(bn), label.clone()));
            let before = gpu_counts::counts().filter(|_| label.starts_with("WebGPU"));
            match bench::train_throughput(
                &ds,
                device,
                label,
                bn,
                config.batch_size,
                BENCH_STEPS,
                &clock,
            )
            .await
            {
                Ok(mut t) => {
                    // Per step, over the warm-up and the timed steps.
                    let per = (t.steps + bench::WARMUP) as f64;
                    t.gpu_work = before.zip(gpu_counts::counts()).map(|(a, b)| GpuWork {
                        dispatches: (b[0] - a[0]) / per,
                        submits: (b[1] - a[1]) / per,
                        readbacks: (b[2] - a[2]) / per,
                    });
                    ui.bench.update(|b| b.throughput.push(t))
                }
                Err(e) => {
                    ui.bench_note.set(BenchNote::Failed(label.clone(), e));
                    break;
                }
            }
            web::yield_now().await;
        }
    }
    // Shadow models of BN one by one, then stacked as one network, on each backend.
    for (device, label) in &backends {
        ui.bench_note.set(BenchNote::TimingShadows(label.clone()));
        let gpu = label.starts_with("WebGPU");
        for stacked in [false, true] {
            let at_start = std::cell::Cell::new(None);
            let timed = || at_start.set(gpu_counts::counts().filter(|_| gpu));
            match bench::shadows_time(
                device,
                label,
                true,
                BENCH_SHADOW_BATCH,
                BENCH_SHADOWS,
                stacked,
                &clock,
                &timed,
            )
            .await
            {
                Ok(mut t) => {
                    t.dispatches_per_sample = at_start
                        .get()
                        .zip(gpu_counts::counts())
                        .map(|(a, b)| (b[0] - a[0]) / t.samples as f64);
                    ui.bench.update(|b| b.shadows.push(t));
                }
                Err(e) => {
                    ui.bench_note.set(BenchNote::Failed(label.clone(), e));
                    break;
                }
            }
            web::yield_now().await;
        }
    }
    ui.bench_note.set(BenchNote::TimingComparison(be.label.clone()));
    // No await between these two: nothing else can start in between.
    ui.activity.set(Activity::Idle);
    let comparison = run_now(ui).await;
    ui.bench.update(|b| b.comparison = comparison);
    ui.bench_note.set(match ui.activity.get_untracked() {
        Activity::Done => BenchNote::Done,
        s => BenchNote::Unfinished(s),
    });
}
