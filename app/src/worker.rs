//! The training worker: the page's own wasm module, started in a dedicated Web Worker by
//! `spotlight-worker.js` (see `pool.rs` for the page's side). It takes the experiment's data once,
//! then runs the tasks the page hands it — one model's training ([`jobs::run_job_on`]) or one
//! model's attack ([`jobs::attack_of`]) — and reports progress and results as messages. It never
//! yields while training on the CPU: nothing on it has to be drawn, and Cancel terminates the
//! worker. On WebGPU it opens its own device (once, on its first job): the page then only draws.

use std::cell::RefCell;

use serde::{Deserialize, Serialize};
use spotlight_core::Config;
use spotlight_core::backend::BackendName;
use spotlight_core::bench;
use spotlight_core::experiment::shadow_keep;
use spotlight_core::experiment_data::{DeviceData, ExperimentData};
use spotlight_core::jobs::{self, Job, JobOutput, JobResult};
use spotlight_core::report::{AttackReport, Readout, RunError};
use spotlight_i18n::status::Status;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use crate::{backend, web};

/// From the page to a worker. `Data` travels as `[json, pool images, test images]`, its images as
/// bytes beside the JSON (their fields empty in it); the others as JSON text.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum ToWorker {
    Data {
        data: ExperimentData,
    },
    /// Jobs `indices` (`jobs`): one model, or several shadow models trained as one stacked network
    /// (`jobs::run_stack_with`: the page sends those on WebGPU), on this worker's WebGPU device
    /// (`gpu`), else on burn-flex. They end with one `Trained`.
    Train {
        indices: Vec<usize>,
        jobs: Vec<Job>,
        backend: String,
        gpu: bool,
    },
    Attack {
        variant: usize,
        config: Config,
        target: JobOutput,
        shadow_phi: Vec<Option<Vec<f64>>>,
    },
    /// A rehearsal of this config's run at a toy size on noise, on burn-flex (`jobs::rehearse`):
    /// the page asks one worker for it while it waits for its first Run, so that the browser has
    /// compiled the training code by then.
    Rehearse {
        config: Config,
    },
    /// How fast this config's first model trains here, on WebGPU (`gpu`) or burn-flex
    /// (`bench::step_rate`): the page measures both before its first run and trains on the faster.
    Measure {
        config: Config,
        gpu: bool,
    },
    /// Destroys this worker's WebGPU device (`spotlightLoseGpu()`, for the browser tests: the
    /// browser then reports the loss as it would a real one).
    LoseGpu,
}

/// From a worker to the page, as JSON text. `memory`: the worker's wasm memory, in bytes.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum FromWorker {
    /// The module is up; send the data.
    Ready,
    Progress {
        index: usize,
        steps_done: usize,
        readout: Option<Readout>,
        memory: f64,
    },
    /// A task's jobs ended (one, or a stack's): each job's index and result, in one message, so
    /// that the page frees the worker once.
    Trained {
        results: Vec<(usize, Result<JobResult, RunError>)>,
        memory: f64,
    },
    Attacked {
        variant: usize,
        result: Result<AttackReport, RunError>,
    },
    /// The rehearsal ended: how many models it trained, or why it failed.
    Rehearsed(Result<jobs::Rehearsal, RunError>),
    /// The measurement ended: samples per second, or why it failed.
    Measured(Result<f64, RunError>),
    /// The worker cannot go on: a panic, the module failed to load, a message it cannot read.
    Failed(Trouble),
    /// WebGPU could not start in this worker (the browser may offer it only on the page): why.
    NoGpu(String),
    /// This worker's WebGPU device was lost: the browser's reason.
    GpuLost(String),
}

/// Why a worker cannot go on (the page writes it in its language: a worker does not know it).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Trouble {
    /// A panic in the worker: its text.
    Panicked(String),
    /// A message to the page did not serialize: serde's error.
    NotSerialized(String),
    NotText,
    /// A message the worker cannot read: serde's error.
    Unreadable(String),
    NoImages,
    ImagesMismatch,
    /// On the page: a worker's message the page cannot read (as the browser shows it).
    PageCannotRead(String),
    /// On the page: an error that escaped the worker (a trap in its wasm, a script that did not
    /// load), with the browser's text when it gives one.
    Escaped(Option<String>),
}

impl Trouble {
    /// The trouble in words.
    pub fn describe(&self, s: &Status) -> String {
        let f = &s.failure;
        match self {
            Self::Panicked(e) => (f.worker_panicked)(e),
            Self::NotSerialized(e) => (f.not_serialized)(e),
            Self::NotText => f.not_text.into(),
            Self::Unreadable(e) => (f.worker_unreadable)(e),
            Self::NoImages => f.no_images.into(),
            Self::ImagesMismatch => f.images_mismatch.into(),
            Self::PageCannotRead(m) => (f.unreadable)(m),
            Self::Escaped(text) => (f.worker_failed)(text.as_deref().unwrap_or(f.worker_script)),
        }
    }
}

thread_local! {
    static DATA: RefCell<Option<ExperimentData>> = const { RefCell::new(None) };
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn post(msg: &FromWorker) {
    let text = serde_json::to_string(msg).unwrap_or_else(|e| {
        serde_json::to_string(&FromWorker::Failed(Trouble::NotSerialized(e.to_string())))
            .unwrap_or_default()
    });
    let _ = scope().post_message(&text.into());
}

/// Starts serving the page (called from `main` in a worker).
pub fn serve() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        post(&FromWorker::Failed(Trouble::Panicked(info.to_string())));
    }));
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(|e: MessageEvent| {
        if let Err(why) = receive(&e.data()) {
            post(&FromWorker::Failed(why));
        }
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&FromWorker::Ready);
}

/// Splits `data` for the wire: its JSON without the images, and the images.
pub fn data_parts(data: &ExperimentData) -> (String, &[u8], &[u8]) {
    let mut head = data.clone();
    head.pool.images = Vec::new();
    head.test_images = Vec::new();
    let json = serde_json::to_string(&ToWorker::Data { data: head }).expect("the data serializes");
    (json, &data.pool.images, &data.test_images)
}

fn receive(v: &wasm_bindgen::JsValue) -> Result<(), Trouble> {
    let (text, images) = match v.dyn_ref::<js_sys::Array>() {
        Some(parts) => (parts.get(0).as_string(), Some((parts.get(1), parts.get(2)))),
        None => (v.as_string(), None),
    };
    let text = text.ok_or(Trouble::NotText)?;
    let msg: ToWorker =
        serde_json::from_str(&text).map_err(|e| Trouble::Unreadable(e.to_string()))?;
    match msg {
        ToWorker::Data { mut data } => {
            let (pool, test) = images.ok_or(Trouble::NoImages)?;
            data.pool.images = js_sys::Uint8Array::new(&pool).to_vec();
            data.test_images = js_sys::Uint8Array::new(&test).to_vec();
            let px = data.rows * data.cols;
            if data.pool.images.len() != data.pool.labels.len() * px
                || data.test_images.len() != data.test_labels.len() * px
            {
                return Err(Trouble::ImagesMismatch);
            }
            DATA.with(|d| *d.borrow_mut() = Some(data));
        }
        ToWorker::Train { indices, jobs, backend, gpu } => {
            wasm_bindgen_futures::spawn_local(train(indices, jobs, backend, gpu))
        }
        ToWorker::LoseGpu => backend::destroy_webgpu(),
        ToWorker::Rehearse { config } => wasm_bindgen_futures::spawn_local(async move {
            let result = match BackendName::Flex.cpu_device() {
                Ok(device) => jobs::rehearse(&config, &device, &|| web::now_ms() / 1000.0).await,
                Err(e) => Err(RunError::Other(e)),
            };
            post(&FromWorker::Rehearsed(result));
        }),
        ToWorker::Measure { config, gpu } => wasm_bindgen_futures::spawn_local(async move {
            let device = if gpu {
                match backend::webgpu_device(|why| post(&FromWorker::GpuLost(why))).await {
                    Ok(d) => d,
                    Err(why) => return post(&FromWorker::NoGpu(why)),
                }
            } else {
                match BackendName::Flex.cpu_device() {
                    Ok(d) => d,
                    Err(e) => return post(&FromWorker::Measured(Err(RunError::Other(e)))),
                }
            };
            let clock = || web::now_ms() / 1000.0;
            post(&FromWorker::Measured(bench::step_rate(&config, &device, &clock).await));
        }),
        ToWorker::Attack { variant, config, target, shadow_phi } => {
            let result = DATA.with(|d| {
                let d = d.borrow();
                let data = d.as_ref().ok_or(RunError::AttackBeforeData)?;
                let keep = shadow_keep(&config, data.pool.labels.len());
                jobs::attack_of(&config, data, &keep, &target, &shadow_phi)
                    .ok_or(RunError::NothingToAttack)?
            });
            post(&FromWorker::Attacked { variant, result });
        }
    }
    Ok(())
}

/// Trains jobs `indices` (`jobs`): one job, or shadow models as one stack; posts their end.
async fn train(indices: Vec<usize>, jobs: Vec<Job>, backend: String, gpu: bool) {
    let end = |results: Vec<Result<JobResult, RunError>>| {
        let results = indices.iter().copied().zip(results).collect();
        post(&FromWorker::Trained { results, memory: web::memory_bytes() });
    };
    let Some(data) = DATA.with(|d| d.borrow_mut().take()) else {
        return end(vec![Err(RunError::JobBeforeData); indices.len()]);
    };
    let mut last = f64::NEG_INFINITY;
    let on_progress = |p: jobs::JobProgress| {
        // Every read-out, and the step count at most ten times a second.
        let now = web::now_ms();
        if p.readout.is_some() || now - last > 100.0 {
            last = now;
            for &index in &indices {
                post(&FromWorker::Progress {
                    index,
                    steps_done: p.steps_done,
                    readout: p.readout.clone(),
                    memory: web::memory_bytes(),
                });
            }
        }
    };
    let device = if gpu {
        // This worker's device; its loss is reported to the page.
        match backend::webgpu_device(|why| post(&FromWorker::GpuLost(why))).await {
            Ok(d) => Ok(d),
            Err(why) => {
                DATA.with(|d| *d.borrow_mut() = Some(data));
                post(&FromWorker::NoGpu(why));
                return;
            }
        }
    } else {
        BackendName::Flex.cpu_device()
    };
    let clock = || web::now_ms() / 1000.0;
    let results = match (device, jobs.as_slice()) {
        (Ok(device), [job]) => {
            vec![jobs::run_job_on(job, &data, &device, &backend, clock, on_progress).await]
        }
        (Ok(device), jobs) => {
            let device_data = DeviceData::new(&data, &device);
            jobs::run_stack_with(jobs, &data, &device_data, &backend, clock, on_progress).await
        }
        (Err(e), _) => vec![Err(RunError::Other(e)); jobs.len()],
    };
    DATA.with(|d| *d.borrow_mut() = Some(data));
    end(results);
}
