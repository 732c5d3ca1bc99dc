//! Training off the page's thread: a pool of dedicated Web Workers, each running this same wasm
//! module (`worker.rs`), fed by the core's [`Board`] — the target models side by side, then the
//! shadow models as workers come free, then the attacks. On WebGPU each worker opens its own
//! device. The page only draws: it reads the workers' messages a few times a second. Cancel (and
//! the end of a run) terminates every worker, and with it its device.
//!
//! The plumbing is `web_sys::Worker` and JSON messages (serde). gloo-worker was evaluated: its
//! bridge cannot terminate a busy worker (Cancel would wait for the step to end and for the worker
//! to read a message it never reads while training) and it reports no worker error to the page.
//! trunk's `data-type="worker"` builds a worker as a binary of its own: a second wasm to download
//! and compile, where these workers get the module the page already compiled.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use leptos::prelude::*;
use spotlight_core::bench::PhaseTimes;
use spotlight_core::board::{Board, Task};
use spotlight_core::config::Config;
use spotlight_core::experiment_data::ExperimentData;
use spotlight_core::local::Ending;
use spotlight_core::report::Report;
use spotlight_i18n::say::run::run_error;
use spotlight_i18n::status::{Failure, Status};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};

use crate::state::{Bar, Doing, Ui};
use crate::web;
use crate::worker::{FromWorker, ToWorker, Trouble, data_parts};

/// The script that starts a worker (copied next to the page by trunk; relative, so the page
/// works under a sub-path).
const WORKER_SCRIPT: &str = "./spotlight-worker.js";

thread_local! {
    // The wasm memory each live worker last reported (for the page's memory probe).
    static MEMORY: RefCell<Vec<f64>> = const { RefCell::new(Vec::new()) };
    // The live workers (for `lose_gpu`).
    static LIVE: RefCell<Vec<Worker>> = const { RefCell::new(Vec::new()) };
    // The page's one rehearsal.
    static REHEARSAL: RefCell<Rehearsal> = const { RefCell::new(Rehearsal::NotYet) };
}

/// Where the page's rehearsal stands.
enum Rehearsal {
    NotYet,
    /// Its worker, at work.
    Running(Started),
    /// Done, failed, or cut short.
    Over,
}

/// The longest a run waits for a rehearsal to end (then it ends it and starts).
const REHEARSAL_WAIT_MS: f64 = 3000.0;

/// Rehearses `config`'s run in a worker of its own, once per page, if it was not yet
/// (`jobs::rehearse`: every step of a run at a toy size; about a second of one core on a 2-core
/// machine): a second after the page opened, and at a first Run that came before. The browser
/// compiles the training code as it first runs, and optimizes it once it is hot; without a
/// rehearsal it does so in the first run's first second, on the cores the run's workers hold, and
/// the page's frame waits (0.5–0.9 s on two cores). Workers share the compiled module, so what a
/// rehearsal compiled serves every later worker: a run waits for it ([`after_rehearsal`]), while
/// its dataset loads. It ends with a performance mark, `spotlight-rehearsed` or, with a warning in
/// the console, `spotlight-rehearsal-failed`: a failure costs nothing but the head start (a run that
/// fails the same way shows it on the page).
pub fn rehearse(config: Config, ui: Ui) {
    if REHEARSAL.with(|r| !matches!(*r.borrow(), Rehearsal::NotYet)) {
        return;
    }
    let status = &ui.lang_now().texts().status;
    let f = &status.failure;
    let inbox: Inbox = Rc::default();
    let worker = match glue_url(f).and_then(|glue| start(0, &glue, &inbox, f)) {
        Ok(s) => {
            let w = s.0.clone();
            REHEARSAL.with(|r| *r.borrow_mut() = Rehearsal::Running(s));
            w
        }
        Err(e) => {
            REHEARSAL.with(|r| *r.borrow_mut() = Rehearsal::Over);
            return rehearsal_failed(&e);
        }
    };
    let msg = ToWorker::Rehearse { config };
    leptos::task::spawn_local(async move {
        let running = || REHEARSAL.with(|r| matches!(*r.borrow(), Rehearsal::Running(_)));
        let end = one_task(&worker, &inbox, &msg, running, |m| match m {
            FromWorker::Rehearsed(r) => Some(r.map_err(|e| e.to_string())),
            FromWorker::Failed(why) => Some(Err(why.describe(status))),
            _ => None,
        })
        .await;
        let Some(end) = end else { return }; // cut short
        end_rehearsal();
        match end.and_then(|r| r) {
            Ok(r) => {
                if ui.pace.get_untracked().is_none() {
                    ui.pace.set(r.seconds_per_pass);
                }
                web::mark("spotlight-rehearsed");
            }
            Err(e) => rehearsal_failed(&e),
        }
    });
}

/// A lone worker's one task: posts `msg` once the worker is ready, then hands each of its messages
/// to `answer` until that returns the end, polling every 50 ms. `None` once `go_on()` is false
/// (asked before each wait: what came during the last one is still read); `Some(Err)` if the
/// message could not be posted.
async fn one_task<T>(
    worker: &Worker,
    inbox: &Inbox,
    msg: &ToWorker,
    go_on: impl Fn() -> bool,
    mut answer: impl FnMut(FromWorker) -> Option<T>,
) -> Option<Result<T, String>> {
    let text = serde_json::to_string(msg).map_err(|e| e.to_string());
    loop {
        if !go_on() {
            return None;
        }
        web::sleep_ms(50).await;
        let messages: Vec<FromWorker> = inbox.borrow_mut().drain(..).map(|(_, m)| m).collect();
        for m in messages {
            if matches!(m, FromWorker::Ready) {
                let posted = text
                    .clone()
                    .and_then(|t| worker.post_message(&t.into()).map_err(|e| format!("{e:?}")));
                if let Err(e) = posted {
                    return Some(Err(e));
                }
            } else if let Some(end) = answer(m) {
                return Some(Ok(end));
            }
        }
    }
}

/// Waits for a running rehearsal to end — at most [`REHEARSAL_WAIT_MS`], or until `stop()` —
/// then ends it if it still runs: a run's workers start on compiled code, with the processor to
/// themselves.
pub async fn after_rehearsal(stop: impl Fn() -> bool) {
    let t0 = web::now_ms();
    while REHEARSAL.with(|r| matches!(*r.borrow(), Rehearsal::Running(_)))
        && web::now_ms() - t0 < REHEARSAL_WAIT_MS
        && !stop()
    {
        web::sleep_ms(50).await;
    }
    end_rehearsal();
}

/// Ends the rehearsal if it runs, or keeps it from starting (the benchmark times cold code).
pub fn end_rehearsal() {
    let was = REHEARSAL.with(|r| std::mem::replace(&mut *r.borrow_mut(), Rehearsal::Over));
    if let Rehearsal::Running((w, _)) = was {
        w.terminate();
    }
}

fn rehearsal_failed(why: &str) {
    web_sys::console::warn_1(
        &format!("Spotlight: the rehearsal failed (the first run starts cold): {why}").into(),
    );
    web::mark("spotlight-rehearsal-failed");
}

/// The longest a backend measurement may take (a worker starting, a WebGPU device opening and its
/// kernels compiling, the steps): past it the backend counts as unmeasured.
pub const MEASURE_WAIT_S: u64 = 60;

/// Why a backend could not be timed.
pub enum Unmeasured {
    /// The worker could not open a WebGPU device (a browser may offer WebGPU only to the page):
    /// burn's error.
    NoGpuInWorkers(String),
    /// Why, in the page's language.
    Because(String),
}

impl Unmeasured {
    pub fn describe(self, status: &Status) -> String {
        match self {
            Self::NoGpuInWorkers(why) => (status.banner.no_gpu_in_workers)(&why),
            Self::Because(why) => why,
        }
    }
}

/// How fast `config`'s first model trains on WebGPU (`gpu`) or on burn-flex, timed in a worker of
/// its own (`bench::step_rate`), which then ends: samples per second, or why it could not tell
/// (in `status`' language). The page's thread only waits.
pub async fn measure(config: &Config, gpu: bool, status: &Status) -> Result<f64, Unmeasured> {
    let f = &status.failure;
    let because = Unmeasured::Because;
    let inbox: Inbox = Rc::default();
    let (worker, _handlers) =
        start(0, &glue_url(f).map_err(because)?, &inbox, f).map_err(because)?;
    let msg = ToWorker::Measure { config: config.clone(), gpu };
    let t0 = web::now_ms();
    let in_time = || web::now_ms() - t0 <= 1000.0 * MEASURE_WAIT_S as f64;
    let end = one_task(&worker, &inbox, &msg, in_time, |m| match m {
        FromWorker::Measured(r) => Some(r.map_err(|e| because(run_error(status, &e)))),
        FromWorker::NoGpu(why) => Some(Err(Unmeasured::NoGpuInWorkers(why))),
        FromWorker::GpuLost(why) => Some(Err(because((status.banner.lost)(&why)))),
        FromWorker::Failed(why) => Some(Err(because(why.describe(status)))),
        _ => None,
    })
    .await;
    worker.terminate();
    match end {
        Some(Ok(result)) => result,
        Some(Err(e)) => Err(because(e)),
        None => Err(because((status.banner.no_answer)(MEASURE_WAIT_S))),
    }
}

/// Asks every live worker to destroy its WebGPU device (`spotlightLoseGpu()`, for the browser
/// tests); returns how many were asked.
pub fn lose_gpu() -> usize {
    LIVE.with(|l| {
        let text = serde_json::to_string(&ToWorker::LoseGpu).unwrap_or_default();
        l.borrow().iter().filter(|w| w.post_message(&text.clone().into()).is_ok()).count()
    })
}

/// The live workers' wasm memory, in bytes, as they last reported it.
pub fn workers_memory() -> f64 {
    MEMORY.with(|m| m.borrow().iter().sum())
}

/// How many training workers are alive now.
pub fn live_workers() -> usize {
    MEMORY.with(|m| m.borrow().len())
}

/// How many workers a run gets: one per logical core the browser reports, at least two (the two
/// target models side by side), at most eight, and no more than it has jobs. On WebGPU two: the
/// targets side by side, each with a device of its own, the shadows after them on the same two.
pub fn worker_count(jobs: usize, gpu: bool) -> usize {
    let cores = web_sys::window().map_or(2.0, |w| w.navigator().hardware_concurrency());
    let most = if gpu { 2 } else { 8 };
    (cores as usize).clamp(2, most).min(jobs.max(1))
}

#[derive(Clone, Copy, PartialEq)]
enum Slot {
    Starting,
    Idle,
    Busy,
}

/// The workers of one run; dropping it terminates them.
struct Pool {
    workers: Vec<Worker>,
    inbox: Inbox,
    _handlers: Vec<Closure<dyn Fn(JsValue)>>,
}

impl Drop for Pool {
    fn drop(&mut self) {
        for w in &self.workers {
            w.terminate();
        }
        MEMORY.with(|m| m.borrow_mut().clear());
        LIVE.with(|l| l.borrow_mut().clear());
    }
}

/// Messages from a run's workers, with the index of the worker that sent each.
type Inbox = Rc<RefCell<VecDeque<(usize, FromWorker)>>>;

/// A started worker and the handlers that feed its messages into an [`Inbox`].
type Started = (Worker, [Closure<dyn Fn(JsValue)>; 2]);

/// Starts worker `i` on the page's module (`glue`: [`glue_url`]): its messages, and the errors
/// that escape it, go to `inbox`.
fn start(i: usize, glue: &str, inbox: &Inbox, f: &Failure) -> Result<Started, String> {
    let opts = WorkerOptions::new();
    opts.set_type(WorkerType::Module);
    let w = Worker::new_with_options(WORKER_SCRIPT, &opts)
        .map_err(|e| (f.worker_start)(&format!("{e:?}")))?;
    let inbox_msg = inbox.clone();
    let on_message = Closure::<dyn Fn(JsValue)>::new(move |e: JsValue| {
        let data = e.unchecked_into::<MessageEvent>().data();
        let msg = data
            .as_string()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_else(|| FromWorker::Failed(Trouble::PageCannotRead(format!("{data:?}"))));
        inbox_msg.borrow_mut().push_back((i, msg));
    });
    let inbox_err = inbox.clone();
    // An error that escapes the worker (a trap in its wasm, a script that did not load).
    let on_error = Closure::<dyn Fn(JsValue)>::new(move |e: JsValue| {
        let text = js_sys::Reflect::get(&e, &"message".into()).ok().and_then(|m| m.as_string());
        inbox_err
            .borrow_mut()
            .push_back((i, FromWorker::Failed(Trouble::Escaped(text.filter(|t| !t.is_empty())))));
    });
    w.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    w.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    w.set_onmessageerror(Some(on_error.as_ref().unchecked_ref()));
    // The first message: where the module's JS is, and the module the page compiled.
    let init = js_sys::Array::of2(&glue.into(), &wasm_bindgen::module());
    if let Err(e) = w.post_message(&init) {
        w.terminate();
        return Err((f.worker_started)(&format!("{e:?}")));
    }
    Ok((w, [on_message, on_error]))
}

impl Pool {
    fn spawn(n: usize, f: &Failure) -> Result<Self, String> {
        let glue = glue_url(f)?;
        let inbox: Inbox = Rc::default();
        let mut pool = Self { workers: Vec::new(), inbox: inbox.clone(), _handlers: Vec::new() };
        MEMORY.with(|m| *m.borrow_mut() = vec![0.0; n]);
        for i in 0..n {
            let (w, handlers) = start(i, &glue, &inbox, f)?;
            LIVE.with(|l| l.borrow_mut().push(w.clone()));
            pool.workers.push(w);
            pool._handlers.extend(handlers);
        }
        Ok(pool)
    }

    fn post(&self, i: usize, msg: &ToWorker) -> Result<(), String> {
        let text = serde_json::to_string(msg).map_err(|e| e.to_string())?;
        self.workers[i].post_message(&text.into()).map_err(|e| format!("{e:?}"))
    }

    fn post_data(&self, i: usize, data: &ExperimentData) -> Result<(), String> {
        let (json, pool, test) = data_parts(data);
        let parts = js_sys::Array::of3(
            &json.into(),
            &js_sys::Uint8Array::from(pool),
            &js_sys::Uint8Array::from(test),
        );
        self.workers[i].post_message(&parts).map_err(|e| format!("{e:?}"))
    }
}

/// The URL of the page's wasm-bindgen JS (trunk preloads it with a `modulepreload` link).
fn glue_url(f: &Failure) -> Result<String, String> {
    let doc = web_sys::window().and_then(|w| w.document()).ok_or(f.no_document)?;
    let link = doc
        .query_selector("link[rel=modulepreload][href$='.js']")
        .ok()
        .flatten()
        .and_then(|l| l.get_attribute("href"))
        .ok_or(f.no_module)?;
    let base = doc.base_uri().ok().flatten().unwrap_or_default();
    web_sys::Url::new_with_base(&link, &base).map(|u| u.href()).map_err(|e| format!("{e:?}"))
}

/// How a run in the workers ended: its ending, wall time by phase, report, and the failure that
/// stopped it, if one did (what was measured until then is in the report).
pub struct Outcome {
    pub ending: Ending,
    pub times: PhaseTimes,
    pub report: Report,
    pub failure: Option<String>,
    pub workers: usize,
    /// On WebGPU: why a worker could not open a device (nothing trained; train on the page).
    pub no_gpu: Option<String>,
}

/// Runs `config`'s experiment on `data` in a pool of workers — on WebGPU when `gpu`, else on the
/// CPU backend — showing its progress and its report as they come; `stop()` is asked a few times a
/// second. A worker's lost GPU device sets `ui.gpu_lost` and stops the run.
pub async fn run(
    config: &Config,
    data: &ExperimentData,
    backend: &str,
    gpu: bool,
    ui: Ui,
    stop: impl Fn() -> bool,
) -> Outcome {
    let clock = || web::now_ms() / 1000.0;
    let started = clock();
    // On WebGPU the shadow models train stacked (fewer kernel launches; measured by `bench=1`).
    let stack = spotlight_core::shadows::stack_size(gpu);
    let mut board = Board::new(config, data, backend, started).stacking(stack);
    let n = worker_count(board.jobs().len(), gpu);
    let outcome = |board: &Board, ending, failure| Outcome {
        ending,
        times: board.times(clock()),
        report: board.report(),
        failure,
        workers: n,
        no_gpu: None,
    };
    // A failure is written in the language of the moment it happens.
    let words = || &ui.lang_now().texts().status.failure;
    let pool = match Pool::spawn(n, words()) {
        Ok(p) => p,
        Err(e) => return outcome(&board, Ending::Cancelled, Some(e)),
    };
    let mut slots = vec![Slot::Starting; n];
    let (mut last_report, mut changed, mut first_live) = (f64::NEG_INFINITY, false, false);
    // When a WebGPU run fails or ends with errors: a destroyed or lost device fails the steps (or
    // panics a worker) before the browser delivers its `lost` event, so the run waits for that
    // event (up to 3 s) to report the cause rather than its effects.
    let mut lingering: Option<f64> = None;
    let mut failed: Option<String> = None;
    let batch = config.batch_size as f64;
    loop {
        if stop() {
            return outcome(&board, Ending::Cancelled, None);
        }
        let now = clock();
        let messages: Vec<(usize, FromWorker)> = pool.inbox.borrow_mut().drain(..).collect();
        for (i, msg) in messages {
            match msg {
                FromWorker::Ready => {
                    if let Err(e) = pool.post_data(i, data) {
                        return outcome(
                            &board,
                            Ending::Cancelled,
                            Some((words().data_not_sent)(&e)),
                        );
                    }
                    slots[i] = Slot::Idle;
                }
                FromWorker::Progress { index, steps_done, readout, memory } => {
                    let live = readout.is_some();
                    board.progress(index, steps_done, readout);
                    changed |= live;
                    if live && steps_done > 0 && !first_live {
                        first_live = true;
                        web::mark("spotlight-first-live-point");
                    }
                    MEMORY.with(|m| m.borrow_mut()[i] = memory);
                }
                FromWorker::Trained { results, memory } => {
                    for (index, result) in results {
                        board.job_done(index, result, now);
                    }
                    MEMORY.with(|m| m.borrow_mut()[i] = memory);
                    (slots[i], changed) = (Slot::Idle, true);
                }
                FromWorker::Attacked { variant, result } => {
                    board.attack_done(variant, result);
                    (slots[i], changed) = (Slot::Idle, true);
                }
                FromWorker::Failed(why) if !gpu => {
                    return outcome(
                        &board,
                        Ending::Cancelled,
                        Some(why.describe(&ui.lang_now().texts().status)),
                    );
                }
                FromWorker::Failed(why) => {
                    failed.get_or_insert(why.describe(&ui.lang_now().texts().status));
                    lingering.get_or_insert(now);
                }
                FromWorker::Rehearsed(_) | FromWorker::Measured(_) => {}
                FromWorker::NoGpu(why) => {
                    return Outcome {
                        no_gpu: Some(why),
                        ..outcome(&board, Ending::Cancelled, None)
                    };
                }
                FromWorker::GpuLost(why) => {
                    ui.gpu_lost.set(Some(why));
                    return outcome(&board, Ending::Cancelled, None);
                }
            }
        }
        if let Some(why) = &failed {
            if now - lingering.unwrap_or(now) >= 3.0 {
                return outcome(&board, Ending::Cancelled, Some(why.clone()));
            }
            web::sleep_ms(50).await;
            continue;
        }
        for (i, slot) in slots.iter_mut().enumerate() {
            if *slot != Slot::Idle {
                continue;
            }
            let Some(task) = board.next_task() else { break };
            let msg = match task {
                Task::Train { index, job } => ToWorker::Train {
                    indices: vec![index],
                    jobs: vec![job],
                    backend: backend.to_string(),
                    gpu,
                },
                Task::Stack { indices, jobs } => {
                    // For the browser tests: a stack was handed out.
                    web::mark("spotlight-stacked");
                    ToWorker::Train { indices, jobs, backend: backend.to_string(), gpu }
                }
                Task::Attack { variant, target, shadow_phi } => {
                    ToWorker::Attack { variant, config: config.clone(), target, shadow_phi }
                }
            };
            if let Err(e) = pool.post(i, &msg) {
                return outcome(&board, Ending::Cancelled, Some((words().task_not_sent)(&e)));
            }
            *slot = Slot::Busy;
        }
        let elapsed = now - started;
        let fraction = board.fraction();
        ui.bar.set(Bar {
            fraction,
            doing: Doing::Board(board.doing(), n),
            samples_per_s: board.steps_done() as f64 * batch / elapsed.max(1e-3),
            eta_s: if fraction > 0.0 { elapsed * (1.0 - fraction) / fraction } else { 0.0 },
            elapsed_s: elapsed,
        });
        // The charts at most four times a second, when something was measured.
        if changed && now - last_report > 0.25 {
            (last_report, changed) = (now, false);
            ui.report.set(Some(board.report()));
        }
        if board.finished() {
            let report = board.report();
            if gpu && report.failures() > 0 && now - *lingering.get_or_insert(now) < 3.0 {
                web::sleep_ms(50).await;
                continue;
            }
            ui.report.set(Some(report));
            return outcome(&board, Ending::Finished, None);
        }
        if board.running() == 0 && slots.iter().all(|s| *s == Slot::Idle) {
            return outcome(&board, Ending::Cancelled, Some(words().stuck.into()));
        }
        web::sleep_ms(50).await;
    }
}
