//! The backend the page trains on, chosen once per page: a reactive resource
//! ([`Ui::backend`](crate::state::Ui)) that the banner reads and a run awaits. On WebGPU the
//! training workers open their own devices; the page opens one (once: wgpu cannot be initialized
//! twice) only when it needs it itself — the benchmark's rows, or training on the page where the
//! browser offers no WebGPU in workers.

use std::cell::RefCell;

use leptos::prelude::*;
use spotlight_core::backend::BackendName;
use spotlight_core::burn::tensor::Device;

use spotlight_i18n::status::Status;

use crate::web;

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
}

impl Why {
    /// The reason in words.
    pub fn describe(&self, s: &Status) -> String {
        let b = &s.banner;
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

/// WebGPU unless the link asks for a CPU backend, WebGPU is missing or only a software fallback
/// (unless the link asks for WebGPU), or a GPU device was lost (`lost`, the reason); then
/// burn-flex with the reason (`backend=ndarray` too: the page is built without burn-ndarray).
/// Choosing WebGPU asks only for an adapter: the devices are opened where the models train.
pub async fn choose(pref: Option<BackendName>, lost: Option<String>) -> Backend {
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
            // A fallback adapter is software, not a GPU: slower than the CPU backend (~10× here).
            Ok(adapter) if adapter.fallback && pref.is_none() => {
                Backend::cpu(BackendName::Flex, Some(Why::Fallback(adapter.name)))
            }
            Ok(adapter) => Backend {
                device: None,
                label: format!("WebGPU: {}", adapter.describe()),
                gpu: true,
                why: None,
            },
        },
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
