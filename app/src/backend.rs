//! The backend the page trains on, chosen once per page: a reactive resource
//! ([`Ui::backend`](crate::state::Ui)) that the banner reads and a run awaits. With a hardware
//! WebGPU adapter (or `measure=1`) the page times a few training steps on each backend, in
//! workers, and trains on the faster ([`choose`]); the figures are kept for the tab's session. On WebGPU the
//! training workers open their own devices; the page opens one (once: wgpu cannot be initialized
//! twice) only when it needs it itself — the benchmark's rows, or training on the page where the
//! browser offers no WebGPU in workers.

use std::cell::RefCell;

use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use spotlight_core::Config;
use spotlight_core::backend::BackendName;
use spotlight_core::burn::tensor::Device;
use spotlight_i18n::Lang;
use spotlight_i18n::status::Status;

use crate::{pool, web};

/// A backend, with why it was chosen when it is not the one asked for (or not WebGPU).
#[derive(Clone)]
pub struct Backend {
    /// The CPU backend's device; `None` on WebGPU (see [`page_gpu`]).
    pub device: Option<Device>,
    /// Its name in the report (English: data, like the report's other names); the page shows it
    /// with [`shown`].
    pub label: String,
    pub gpu: bool,
    pub why: Option<Why>,
}

/// Why the page trains on the backend it does.
#[derive(Clone, Debug, PartialEq)]
pub enum Why {
    /// A GPU device was lost: the browser's reason.
    Lost(String),
    LinkCpu,
    /// The link asks for burn-ndarray, which the page is built without.
    LinkNdarrayMissing,
    LinkNdarray,
    /// The browser gave no WebGPU adapter.
    NoAdapter(web::NoAdapter),
    /// WebGPU is only a software fallback: the adapter's name.
    Fallback(String),
    /// Both backends timed ([`Rates`]): the page trains on the faster.
    Measured(Rates),
    /// WebGPU (`gpu`) or the CPU could not be timed: why. The page trains on the other.
    Unmeasured {
        gpu: bool,
        why: String,
    },
}

/// Training samples per second of the page's first model on each backend, measured in this tab
/// (`earlier`: by an earlier page of its session, read back from `sessionStorage`): one worker's,
/// and how many workers a run gets on each; [`Rates::webgpu_run`] and [`Rates::cpu_run`] multiply
/// them (an estimate: that each worker trains at the measured rate).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rates {
    /// What they were measured for: the WebGPU adapter (`Adapter::describe`), the batch size and
    /// the model (`Variant`'s debug name).
    pub adapter: String,
    pub batch: usize,
    pub model: String,
    pub webgpu: f64,
    pub cpu: f64,
    pub webgpu_workers: usize,
    pub cpu_workers: usize,
    #[serde(skip)]
    pub earlier: bool,
}

/// Where a tab keeps its [`Rates`].
const RATES_KEY: &str = "spotlight-backend-rates";

impl Rates {
    /// This session's earlier rates for the same adapter, batch and model, if it measured them.
    fn earlier(like: &Self) -> Option<Self> {
        let r: Self = serde_json::from_str(&web::session_get(RATES_KEY)?).ok()?;
        let same = (&r.adapter, r.batch, &r.model) == (&like.adapter, like.batch, &like.model);
        (same && r.webgpu > 0.0 && r.cpu > 0.0).then_some(Self { earlier: true, ..r })
    }

    fn keep(&self) {
        if let Ok(text) = serde_json::to_string(self) {
            web::session_set(RATES_KEY, &text);
        }
    }

    /// Samples per second of a run's workers together, on WebGPU.
    pub fn webgpu_run(&self) -> f64 {
        self.webgpu * self.webgpu_workers as f64
    }

    /// Samples per second of a run's workers together, on the CPU.
    pub fn cpu_run(&self) -> f64 {
        self.cpu * self.cpu_workers as f64
    }
}

impl Why {
    /// Whether the banner says it on its line, not folded under "Why this one?".
    pub fn said_plainly(&self) -> bool {
        matches!(self, Self::Measured(_))
    }

    /// The reason in words.
    pub fn describe(&self, lang: Lang) -> String {
        let b = &lang.texts().status.banner;
        match self {
            Self::Lost(why) => (b.lost)(if why.is_empty() { b.no_reason } else { why }),
            Self::LinkCpu => b.link_cpu.into(),
            Self::LinkNdarrayMissing => b.link_ndarray_missing.into(),
            Self::LinkNdarray => b.link_ndarray.into(),
            Self::NoAdapter(web::NoAdapter::Missing) => b.no_webgpu.into(),
            Self::NoAdapter(web::NoAdapter::NotAFunction) => b.no_request_adapter.into(),
            Self::NoAdapter(web::NoAdapter::NoPromise) => b.no_promise.into(),
            Self::NoAdapter(web::NoAdapter::Null) => b.no_adapter.into(),
            Self::NoAdapter(web::NoAdapter::Browser(e)) => (b.adapter_error)(e),
            Self::Fallback(name) => (b.software_fallback)(name),
            Self::Measured(r) => {
                let rate = |x: f64| lang.int(x.round() as u64);
                let said = (b.measured)(
                    &rate(r.webgpu_run()),
                    &lang.int(r.webgpu_workers as u64),
                    &rate(r.cpu_run()),
                    &lang.int(r.cpu_workers as u64),
                    r.webgpu_run() > r.cpu_run(),
                );
                if r.earlier { format!("{said} {}", b.measured_earlier) } else { said }
            }
            Self::Unmeasured { gpu: true, why } => (b.webgpu_unmeasured)(why),
            Self::Unmeasured { gpu: false, why } => (b.cpu_unmeasured)(why),
        }
    }
}

impl Backend {
    /// A CPU backend built into the app (burn-flex in WebAssembly; burn-ndarray where built in).
    pub fn cpu(name: BackendName, why: Option<Why>) -> Self {
        let device = name.cpu_device().expect("CPU backends are built into the app");
        Self {
            device: Some(device),
            label: (spotlight_i18n::EN.status.banner.cpu)(&name.to_string()),
            gpu: false,
            why,
        }
    }
}

/// A backend's label (the report's, English) in the page's language: "CPU (flex, in
/// WebAssembly)", "WebGPU: vendor/architecture (fallback adapter)"; another label as it is.
pub fn shown(label: &str, s: &Status) -> String {
    let b = &s.banner;
    if let Some(name) =
        label.strip_prefix("CPU (").and_then(|r| r.strip_suffix(", in WebAssembly)"))
    {
        return (b.cpu)(name);
    }
    if let Some(adapter) = label.strip_prefix("WebGPU: ") {
        let (name, fallback) = match adapter.strip_suffix(" (fallback adapter)") {
            Some(n) => (n, true),
            None => (adapter, false),
        };
        let name = if name == web::UNNAMED_ADAPTER { b.unnamed_adapter } else { name };
        return if fallback {
            format!("WebGPU: {name} ({})", b.fallback_adapter)
        } else {
            format!("WebGPU: {name}")
        };
    }
    label.to_string()
}

/// How the page chooses when the link names no backend and WebGPU has an adapter.
#[derive(Clone)]
pub struct Choosing {
    /// Measure even a software adapter (`measure=1`); else only a hardware one is (a software
    /// one runs on the CPU's own cores, ~10× slower than burn-flex here: the CPU without asking).
    pub even_software: bool,
    /// Not at all: WebGPU on a hardware adapter (`bench=1` times both backends itself).
    pub never: bool,
    /// Whose first model is timed: the page's experiment.
    pub config: Config,
    /// The language of a failure's words.
    pub lang: Lang,
    /// True while it measures (the banner says so).
    pub measuring: RwSignal<bool>,
}

/// WebGPU or the CPU: what the link asks for (WebGPU, unless its adapter is missing); else the CPU
/// where WebGPU is missing or only a software fallback, and otherwise the faster of the two,
/// measured ([`measured`]); after a lost GPU device (`lost`, the reason), the CPU. The CPU is
/// burn-flex (`backend=ndarray` too: the page is built without burn-ndarray). Choosing WebGPU
/// asks only for an adapter: the devices are opened where the models train.
pub async fn choose(pref: Option<BackendName>, lost: Option<String>, how: Choosing) -> Backend {
    if let Some(why) = lost {
        return Backend::cpu(BackendName::Flex, Some(Why::Lost(why)));
    }
    match pref {
        Some(BackendName::Flex) => Backend::cpu(BackendName::Flex, Some(Why::LinkCpu)),
        // burn-ndarray is not in the page: ~4× slower than burn-flex in the browser here, it served only a bench row.
        Some(BackendName::Ndarray) if !BackendName::Ndarray.compiled() => {
            Backend::cpu(BackendName::Flex, Some(Why::LinkNdarrayMissing))
        }
        Some(BackendName::Ndarray) => Backend::cpu(BackendName::Ndarray, Some(Why::LinkNdarray)),
        Some(BackendName::Wgpu) | None => match web::webgpu_adapter().await {
            Err(why) => Backend::cpu(BackendName::Flex, Some(Why::NoAdapter(why))),
            Ok(adapter) if pref.is_some() => webgpu(&adapter, None),
            Ok(adapter) if adapter.fallback && (how.never || !how.even_software) => {
                Backend::cpu(BackendName::Flex, Some(Why::Fallback(adapter.name)))
            }
            Ok(adapter) if how.never => webgpu(&adapter, None),
            Ok(adapter) => measured(&adapter, &how).await,
        },
    }
}

fn webgpu(adapter: &web::Adapter, why: Option<Why>) -> Backend {
    Backend { device: None, label: format!("WebGPU: {}", adapter.describe()), gpu: true, why }
}

/// The faster of WebGPU on `adapter` and burn-flex for a run's workers, each timed in one worker
/// (the CPU first, then WebGPU: one at a time, so that neither slows the other), or this tab's
/// earlier figures for the same adapter, batch and model. A CPU that cannot be timed leaves
/// WebGPU; a WebGPU that cannot be timed the CPU — but one that workers cannot open (a browser
/// that offers WebGPU only to the page) is taken unmeasured, as before measuring: the page then
/// trains on its own thread, and says so.
async fn measured(adapter: &web::Adapter, how: &Choosing) -> Backend {
    let jobs = spotlight_core::jobs::jobs_of(&how.config).len();
    let like = Rates {
        adapter: adapter.describe(),
        batch: how.config.batch_size,
        model: format!("{:?}", how.config.variants()[0]),
        webgpu: 0.0,
        cpu: 0.0,
        webgpu_workers: pool::worker_count(jobs, true),
        cpu_workers: pool::worker_count(jobs, false),
        earlier: false,
    };
    let rates = match Rates::earlier(&like) {
        Some(r) => Ok(r),
        None => {
            how.measuring.set(true);
            web::mark("spotlight-backends-measuring");
            let status = &how.lang.texts().status;
            let cpu = pool::measure(&how.config, false, status).await;
            let webgpu = pool::measure(&how.config, true, status).await;
            how.measuring.set(false);
            web::mark("spotlight-backends-measured");
            match (webgpu, cpu) {
                (Ok(webgpu), Ok(cpu)) => {
                    let r = Rates { webgpu, cpu, ..like };
                    r.keep();
                    Ok(r)
                }
                (Err(pool::Unmeasured::NoGpuInWorkers(_)), _) => Err(None),
                (Err(why), _) => {
                    Err(Some(Why::Unmeasured { gpu: true, why: why.describe(status) }))
                }
                (_, Err(why)) => {
                    Err(Some(Why::Unmeasured { gpu: false, why: why.describe(status) }))
                }
            }
        }
    };
    match rates {
        Ok(r) if r.webgpu_run() > r.cpu_run() => webgpu(adapter, Some(Why::Measured(r))),
        Ok(r) => Backend::cpu(BackendName::Flex, Some(Why::Measured(r))),
        Err(None) => webgpu(adapter, None),
        Err(Some(why @ Why::Unmeasured { gpu: false, .. })) => webgpu(adapter, Some(why)),
        Err(Some(why)) => Backend::cpu(BackendName::Flex, Some(why)),
    }
}

thread_local! {
    // This wasm instance's WebGPU device (the page's, or a training worker's: each is an instance of
    // its own), and the browser's GPUDevice behind it.
    static GPU: RefCell<Option<(Device, wasm_bindgen::JsValue)>> = const { RefCell::new(None) };
}

/// This instance's WebGPU device, opened on first use; `on_lost` gets the browser's reason if it is
/// lost (the first opener's: the page and each worker open theirs in one place). The error is
/// burn's, as it writes it (the caller says "WebGPU could not start" around it: `webgpu_failed`).
pub async fn webgpu_device(on_lost: impl FnOnce(String) + 'static) -> Result<Device, String> {
    if let Some(d) = webgpu_opened() {
        return Ok(d);
    }
    let (device, setup) =
        Device::wgpu_options().init_with_setup_async().await.map_err(|e| format!("{e:?}"))?;
    let raw: wasm_bindgen::JsValue = setup
        .device
        .as_webgpu()
        .map(|d| AsRef::<wasm_bindgen::JsValue>::as_ref(d).clone())
        .unwrap_or_default();
    web::on_device_lost(&raw, on_lost);
    GPU.with(|g| *g.borrow_mut() = Some((device.clone(), raw)));
    Ok(device)
}

/// The page's own WebGPU device (the benchmark's rows, the on-page fallback); its loss is written
/// into `report_lost`.
pub async fn page_gpu(report_lost: RwSignal<Option<String>>) -> Result<Device, String> {
    webgpu_device(move |why| report_lost.set(Some(why))).await
}

/// This instance's WebGPU device, if it opened one.
pub fn webgpu_opened() -> Option<Device> {
    GPU.with(|g| g.borrow().as_ref().map(|(d, _)| d.clone()))
}

/// Destroys this instance's WebGPU device, if it opened one (the browser then reports the loss).
pub fn destroy_webgpu() {
    use wasm_bindgen::JsCast;
    GPU.with(|g| {
        if let Some((_, raw)) = g.borrow().as_ref()
            && let Some(destroy) = js_sys::Reflect::get(raw, &"destroy".into())
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        {
            let _ = destroy.call0(raw);
        }
    });
}
