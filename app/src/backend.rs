//! The backend the page trains on, chosen once per page: a reactive resource
//! ([`Ui::backend`](crate::state::Ui)) that the banner reads and a run awaits. On WebGPU the
//! training workers open their own devices; the page opens one (once: wgpu cannot be initialized
//! twice) only when it needs it itself — the benchmark's rows, or training on the page where the
//! browser offers no WebGPU in workers.

use std::cell::RefCell;

use leptos::prelude::*;
use spotlight_core::backend::BackendName;
use spotlight_core::burn::tensor::Device;

use crate::web;

/// A backend, with why it was chosen when it is not the one asked for (or not WebGPU).
#[derive(Clone)]
pub struct Backend {
    /// The CPU backend's device; `None` on WebGPU (see [`page_gpu`]).
    pub device: Option<Device>,
    pub label: String,
    pub gpu: bool,
    pub why: Option<String>,
}

impl Backend {
    /// A CPU backend built into the app (burn-flex in WebAssembly; burn-ndarray where built in).
    pub fn cpu(name: BackendName, why: Option<String>) -> Self {
        let device = name.cpu_device().expect("CPU backends are built into the app");
        Self { device: Some(device), label: format!("CPU ({name}, in WebAssembly)"), gpu: false, why }
    }

    /// Its label, and why it was chosen when there is a reason to say.
    pub fn describe(&self) -> String {
        match &self.why {
            None => self.label.clone(),
            Some(w) => format!("{} — {w}", self.label),
        }
    }
}

/// WebGPU unless the link asks for a CPU backend, WebGPU is missing or only a software fallback
/// (unless the link asks for WebGPU), or a GPU device was lost (`lost`, the reason); then
/// burn-flex with the reason (`backend=ndarray` too: the page is built without burn-ndarray).
/// Choosing WebGPU asks only for an adapter: the devices are opened where the models train.
pub async fn choose(pref: Option<BackendName>, lost: Option<String>) -> Backend {
    if let Some(why) = lost {
        return Backend::cpu(
            BackendName::Flex,
            Some(format!("the GPU device was lost ({why}); the CPU from now on, reload to try WebGPU again")),
        );
    }
    match pref {
        Some(BackendName::Flex) => Backend::cpu(BackendName::Flex, Some("the link asks for the CPU backend".into())),
        // burn-ndarray is not in the page: ~4× slower than burn-flex in the browser here, it served only a bench row.
        Some(BackendName::Ndarray) if !BackendName::Ndarray.compiled() => Backend::cpu(
            BackendName::Flex,
            Some(
                "the link asks for burn-ndarray, which the page does not include (the CLI has it); the CPU backend burn-flex instead"
                    .into(),
            ),
        ),
        Some(BackendName::Ndarray) => Backend::cpu(BackendName::Ndarray, Some("the link asks for burn-ndarray".into())),
        Some(BackendName::Wgpu) | None => match web::webgpu_adapter().await {
            Err(why) => Backend::cpu(BackendName::Flex, Some(why)),
            // A fallback adapter is software, not a GPU: slower than the CPU backend (~10× here).
            Ok(adapter) if adapter.fallback && pref.is_none() => Backend::cpu(
                BackendName::Flex,
                Some(format!(
                    "WebGPU here is only a software fallback ({}), slower than the CPU backend; backend=webgpu in the link uses it anyway",
                    adapter.name
                )),
            ),
            Ok(adapter) => Backend { device: None, label: format!("WebGPU: {}", adapter.describe()), gpu: true, why: None },
        },
    }
}

thread_local! {
    // This wasm instance's WebGPU device (the page's, or a training worker's: each is an instance of
    // its own), and the browser's GPUDevice behind it.
    static GPU: RefCell<Option<(Device, wasm_bindgen::JsValue)>> = const { RefCell::new(None) };
}

/// This instance's WebGPU device, opened on first use; `on_lost` gets the browser's reason if it is
/// lost (the first opener's: the page and each worker open theirs in one place).
pub async fn webgpu_device(on_lost: impl FnOnce(String) + 'static) -> Result<Device, String> {
    if let Some(d) = webgpu_opened() {
        return Ok(d);
    }
    let (device, setup) = Device::wgpu_options().init_with_setup_async().await.map_err(|e| format!("WebGPU could not start ({e:?})"))?;
    let raw: wasm_bindgen::JsValue =
        setup.device.as_webgpu().map(|d| AsRef::<wasm_bindgen::JsValue>::as_ref(d).clone()).unwrap_or_default();
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
            && let Some(destroy) = js_sys::Reflect::get(raw, &"destroy".into()).ok().and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        {
            let _ = destroy.call0(raw);
        }
    });
}
