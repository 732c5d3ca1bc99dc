//! Browser plumbing: fetch, yielding to the event loop, the URL, the clipboard, downloads, and
//! the WebGPU adapter. No experiment logic here.

use js_sys::{Promise, Reflect, Uint8Array};
use spotlight_core::data::asset::gzip_stated_size;
use spotlight_i18n::Lang;
use spotlight_i18n::status::Load;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

fn window() -> web_sys::Window {
    web_sys::window().expect("a window")
}

fn js_err(v: JsValue) -> String {
    v.as_string()
        .or_else(|| Reflect::get(&v, &"message".into()).ok().and_then(|m| m.as_string()))
        .unwrap_or_else(|| format!("{v:?}"))
}

/// GETs a same-origin URL as bytes, calling `progress(bytes so far, total)` as chunks arrive
/// (`total` from Content-Length, when the server sends one); more than `max` bytes is an error
/// (its words from `s`, in the page's language).
pub async fn fetch_bytes(
    url: &str,
    max: usize,
    s: &Load,
    mut progress: impl FnMut(u64, Option<u64>),
) -> Result<Vec<u8>, String> {
    let resp = JsFuture::from(window().fetch_with_str(url))
        .await
        .map_err(|e| format!("{url}: {}", js_err(e)))?;
    let resp: web_sys::Response =
        resp.dyn_into().map_err(|_| format!("{url}: {}", s.not_a_response))?;
    if !resp.ok() {
        return Err(format!("{url}: HTTP {} {}", resp.status(), resp.status_text()));
    }
    let total = resp
        .headers()
        .get("content-length")
        .ok()
        .flatten()
        .and_then(|s| s.trim().parse::<u64>().ok());
    let too_big = || format!("{url}: {}", (s.too_big)(&(max >> 20).to_string()));
    let Some(body) = resp.body() else {
        let buf = JsFuture::from(resp.array_buffer().map_err(js_err)?).await.map_err(js_err)?;
        let bytes = Uint8Array::new(&buf);
        return if bytes.length() as usize > max { Err(too_big()) } else { Ok(bytes.to_vec()) };
    };
    read_all(
        body,
        max,
        (total.unwrap_or(0) as usize).min(max),
        |e| format!("{url}: {}", (s.broke_off)(&e)),
        too_big,
        s.not_bytes,
        |n| progress(n as u64, total),
    )
    .await
}

/// Reads a stream of byte chunks to its end, calling `progress(bytes so far)`; stops (and cancels
/// the stream) past `max` bytes with `too_big()`. `not_bytes`: the error of a chunk that is not bytes.
async fn read_all(
    stream: web_sys::ReadableStream,
    max: usize,
    capacity: usize,
    broke: impl Fn(String) -> String,
    too_big: impl Fn() -> String,
    not_bytes: &str,
    mut progress: impl FnMut(usize),
) -> Result<Vec<u8>, String> {
    let reader: web_sys::ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
    let mut out = Vec::with_capacity(capacity);
    // The chunks can come back to back in one browser task (un-gzipping one is work on this
    // thread): let the page draw every 25 ms.
    let mut since_yield = now_ms();
    loop {
        if now_ms() - since_yield > 25.0 {
            yield_now().await;
            since_yield = now_ms();
        }
        let chunk = JsFuture::from(reader.read()).await.map_err(|e| broke(js_err(e)))?;
        if Reflect::get(&chunk, &"done".into()).ok().and_then(|d| d.as_bool()).unwrap_or(true) {
            break;
        }
        let value = Reflect::get(&chunk, &"value".into()).map_err(js_err)?;
        let bytes: Uint8Array = value.dyn_into().map_err(|_| broke(not_bytes.into()))?;
        let n = out.len();
        if n + bytes.length() as usize > max {
            // Awaited: a rejection left alone would reach the window as an unhandled one.
            let _ = JsFuture::from(reader.cancel()).await;
            return Err(too_big());
        }
        out.resize(n + bytes.length() as usize, 0);
        bytes.copy_to(&mut out[n..]);
        progress(out.len());
    }
    Ok(out)
}

// `DecompressionStream` is behind web-sys's unstable-API flag; this is the part of it we use.
#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    type DecompressionStream;
    #[wasm_bindgen(constructor, catch)]
    fn new(format: &str) -> Result<DecompressionStream, JsValue>;
    #[wasm_bindgen(method, getter)]
    fn readable(this: &DecompressionStream) -> web_sys::ReadableStream;
    #[wasm_bindgen(method, getter)]
    fn writable(this: &DecompressionStream) -> web_sys::WritableStream;
}

/// Un-gzips bytes with the browser's own `DecompressionStream`, asynchronously, so that a large
/// dataset does not hold the page while it unpacks; more than `max` bytes out is an error (a gzip
/// bomb stops there; the errors' words from `s`). `None` where the browser lacks it.
pub async fn gunzip(bytes: &[u8], max: usize, s: &Load) -> Option<Result<Vec<u8>, String>> {
    let ds = DecompressionStream::new("gzip").ok()?;
    Some(
        async {
            // Fed in 64 KiB pieces, each written when the last one is unpacked: the browser
            // unpacks a piece at a time on this thread (~5 ms), where a whole file's stream came
            // in pieces of megabytes that held the page for 50–80 ms each.
            let input = Uint8Array::from(bytes);
            let writer: web_sys::WritableStreamDefaultWriter =
                ds.writable().get_writer().map_err(js_err)?;
            wasm_bindgen_futures::spawn_local(async move {
                let (len, piece) = (input.length(), 64 << 10);
                for at in (0..len).step_by(piece as usize) {
                    // A broken gzip rejects the write; the reader below reports it.
                    if JsFuture::from(
                        writer.write_with_chunk(&input.subarray(at, (at + piece).min(len))),
                    )
                    .await
                    .is_err()
                    {
                        return;
                    }
                }
                let _ = JsFuture::from(writer.close()).await;
            });
            let out = ds.readable();
            let too_big = || (s.inflates_too_big)(&(max >> 20).to_string());
            // Sized once from the size the file states (growing a 55 MB buffer copies it).
            let capacity = gzip_stated_size(bytes).unwrap_or(bytes.len() * 4).min(max);
            read_all(out, max, capacity, |e| (s.not_gzip)(&e), too_big, s.not_bytes, |_| ()).await
        }
        .await,
    )
}

/// Resolves after the browser had a turn (a `setTimeout(0)`).
pub async fn yield_now() {
    sleep_ms(0).await;
}

/// Resolves after `ms` milliseconds (a `setTimeout`), the browser free meanwhile. Works on the
/// page and in a Web Worker.
pub async fn sleep_ms(ms: i32) {
    let p = Promise::new(&mut |resolve, _| {
        set_timeout(&resolve, ms);
    });
    let _ = JsFuture::from(p).await;
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    // The global `setTimeout` and `performance`, the same on the page and in a worker.
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(handler: &js_sys::Function, ms: i32) -> JsValue;
    #[wasm_bindgen(thread_local_v2, js_name = performance)]
    static PERFORMANCE: web_sys::Performance;
}

/// `performance.now()` in ms (on the page or in a worker).
pub fn now_ms() -> f64 {
    PERFORMANCE.with(web_sys::Performance::now)
}

/// Whether this code runs in a dedicated Web Worker (not on the page).
pub fn in_worker() -> bool {
    js_sys::global().is_instance_of::<web_sys::DedicatedWorkerGlobalScope>()
}

/// The memory of this wasm instance, in bytes.
pub fn memory_bytes() -> f64 {
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    memory.buffer().unchecked_into::<js_sys::ArrayBuffer>().byte_length() as f64
}

/// Leaves a named mark on the page's performance timeline (for the browser benchmark: when a run
/// started, when its first live read-out was drawn).
pub fn mark(name: &str) {
    if let Some(p) = window().performance() {
        let _ = p.mark(name);
    }
}

/// A value this tab's session keeps (`sessionStorage`), if the browser keeps one for `key`.
pub fn session_get(key: &str) -> Option<String> {
    window().session_storage().ok().flatten()?.get_item(key).ok().flatten()
}

/// Keeps `value` for this tab's session (`sessionStorage`; nothing where the browser refuses).
pub fn session_set(key: &str, value: &str) {
    if let Some(s) = window().session_storage().ok().flatten() {
        let _ = s.set_item(key, value);
    }
}

/// The page's query string (with its `?`).
pub fn query() -> String {
    window().location().search().unwrap_or_default()
}

/// The page's URL without its query.
pub fn base_url() -> String {
    let l = window().location();
    format!("{}{}", l.origin().unwrap_or_default(), l.pathname().unwrap_or_default())
}

/// Replaces the URL's query without reloading.
pub fn replace_query(q: &str) {
    if let Ok(h) = window().history() {
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&format!("{}?{q}", base_url())));
    }
}

/// Adds a class to the page's `<body>` (for what a course link hides).
pub fn add_body_class(class: &str) {
    if let Some(body) = window().document().and_then(|d| d.body()) {
        let now = body.class_name();
        body.set_class_name(format!("{now} {class}").trim());
    }
}

/// The browser's preferred languages, in order (`navigator.languages`).
pub fn browser_languages() -> Vec<String> {
    window().navigator().languages().iter().filter_map(|v| v.as_string()).collect()
}

/// Sets the page's language (`<html lang>`, for screen readers and the browser's own texts) and
/// its title in that language.
pub fn set_page_lang(code: &str, title: &str) {
    if let Some(doc) = window().document() {
        if let Some(root) = doc.document_element() {
            let _ = root.set_attribute("lang", code);
        }
        doc.set_title(title);
    }
}

/// The page's language as its `<html lang>` says (read from the DOM alone: the crash panel does
/// not trust the app's state); English when it names none the page has.
fn page_lang() -> Lang {
    let code = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .and_then(|r| r.get_attribute("lang"));
    code.and_then(|c| Lang::parse(&c)).unwrap_or_default()
}

/// Copies text to the clipboard.
pub async fn copy(text: &str) -> Result<(), String> {
    let clip = window().navigator().clipboard();
    JsFuture::from(clip.write_text(text)).await.map(|_| ()).map_err(js_err)
}

/// Offers text as a file download.
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).map_err(js_err)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(js_err)?;
    let doc = window().document().ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement =
        doc.create_element("a").map_err(js_err)?.dyn_into().map_err(|_| "no anchor")?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// A WebGPU adapter: "vendor/architecture", and whether it is a fallback adapter (software, e.g.
/// SwiftShader).
pub struct Adapter {
    pub name: String,
    pub fallback: bool,
}

impl Adapter {
    /// Its name, with "(fallback adapter)" where it is one.
    pub fn describe(&self) -> String {
        if self.fallback { format!("{} (fallback adapter)", self.name) } else { self.name.clone() }
    }
}

/// Why the browser gave no WebGPU adapter (the banner says it in the page's language).
#[derive(Clone, Debug, PartialEq)]
pub enum NoAdapter {
    /// No `navigator.gpu`.
    Missing,
    /// `navigator.gpu.requestAdapter` is not a function.
    NotAFunction,
    /// `requestAdapter()` gave no promise.
    NoPromise,
    /// `requestAdapter()` resolved to null.
    Null,
    /// The browser's error, as it writes it.
    Browser(String),
}

/// The name of an adapter with neither vendor nor architecture (in the report's backend label).
pub const UNNAMED_ADAPTER: &str = "unnamed adapter";

/// Asks `navigator.gpu` for an adapter and describes it, or says why there is none.
pub async fn webgpu_adapter() -> Result<Adapter, NoAdapter> {
    let browser = |e| NoAdapter::Browser(js_err(e));
    let nav = window().navigator();
    let gpu = Reflect::get(&nav, &"gpu".into()).map_err(browser)?;
    if gpu.is_undefined() || gpu.is_null() {
        return Err(NoAdapter::Missing);
    }
    let request = Reflect::get(&gpu, &"requestAdapter".into()).map_err(browser)?;
    let request: js_sys::Function = request.dyn_into().map_err(|_| NoAdapter::NotAFunction)?;
    let promise: Promise =
        request.call0(&gpu).map_err(browser)?.dyn_into().map_err(|_| NoAdapter::NoPromise)?;
    let adapter = JsFuture::from(promise).await.map_err(browser)?;
    if adapter.is_null() || adapter.is_undefined() {
        return Err(NoAdapter::Null);
    }
    let info = Reflect::get(&adapter, &"info".into()).unwrap_or(JsValue::UNDEFINED);
    let field = |k: &str| {
        Reflect::get(&info, &k.into()).ok().and_then(|v| v.as_string()).unwrap_or_default()
    };
    let fallback = Reflect::get(&info, &"isFallbackAdapter".into())
        .ok()
        .and_then(|v| v.as_bool())
        .or_else(|| {
            Reflect::get(&adapter, &"isFallbackAdapter".into()).ok().and_then(|v| v.as_bool())
        })
        .unwrap_or(false);
    let mut name = [field("vendor"), field("architecture")]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("/");
    if name.is_empty() {
        name = UNNAMED_ADAPTER.into();
    }
    Ok(Adapter { name, fallback })
}

/// Shows "Spotlight crashed" over the page with what went wrong and a reload link, built with the
/// DOM alone (the app's own state may be half-updated when this runs). Shown once.
pub fn show_crash(what: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    if doc.get_element_by_id("crash").is_some() {
        return;
    }
    let Some(body) = doc.body() else { return };
    let s = &page_lang().texts().status.crash;
    let make = |tag: &str, text: &str| {
        let el = doc.create_element(tag).ok()?;
        el.set_text_content(Some(text));
        Some(el)
    };
    let Some(panel) = doc.create_element("div").ok() else { return };
    panel.set_id("crash");
    let _ = panel.set_attribute("role", "alert");
    let reload = make("a", s.reload);
    if let Some(a) = &reload {
        // The address holds the settings (and no `run=1`): a reload keeps them.
        let _ = a.set_attribute("href", &window().location().href().unwrap_or_default());
    }
    let parts = [make("strong", s.heading), make("p", s.explain), make("pre", what), reload];
    for el in parts.into_iter().flatten() {
        let _ = panel.append_child(&el);
    }
    let _ = body.append_child(&panel);
}

/// Shows the crash panel on a panic (after logging it as `console_error_panic_hook` does) and on
/// any error that escapes to the window uncaught (a trap in the wasm, an exception through it).
pub fn install_crash_handlers() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_crash(&info.to_string());
    }));
    let w = window();
    let on_error =
        wasm_bindgen::closure::Closure::<dyn Fn(web_sys::Event)>::new(|e: web_sys::Event| {
            let field = |k: &str| Reflect::get(&e, &k.into()).unwrap_or(JsValue::UNDEFINED);
            let error = [field("error"), field("reason")]
                .into_iter()
                .find(|v| !v.is_undefined() && !v.is_null());
            let text = match error {
                Some(v) => js_err(v),
                None => field("message")
                    .as_string()
                    .unwrap_or_else(|| page_lang().texts().status.crash.uncaught.into()),
            };
            show_crash(&text);
        });
    for kind in ["error", "unhandledrejection"] {
        let _ = w.add_event_listener_with_callback(kind, on_error.as_ref().unchecked_ref());
    }
    on_error.forget();
}

/// Asks before the page is left while `busy()` says a run is going on (the browser shows its own
/// "leave site?" dialog).
pub fn ask_before_leaving(busy: impl Fn() -> bool + 'static) {
    let handler = wasm_bindgen::closure::Closure::<dyn Fn(web_sys::BeforeUnloadEvent)>::new(
        move |e: web_sys::BeforeUnloadEvent| {
            // After a crash there is nothing left to lose (and the wasm may not answer).
            let crashed = window().document().and_then(|d| d.get_element_by_id("crash")).is_some();
            if !crashed && busy() {
                e.prevent_default();
                e.set_return_value(page_lang().texts().status.crash.leave);
            }
        },
    );
    let _ =
        window().add_event_listener_with_callback("beforeunload", handler.as_ref().unchecked_ref());
    handler.forget();
}

/// Whether the page is shown inside a frame of another origin (a page that frames it could start
/// runs on a visitor's machine).
pub fn in_foreign_frame() -> bool {
    let w = window();
    let Ok(Some(top)) = w.top() else { return false };
    if js_sys::Object::is(&top, &w) {
        return false;
    }
    // Reading another origin's location throws; the same origin reads back equal.
    top.location().origin().ok() != w.location().origin().ok()
}

/// Calls `on_lost(reason)` once when a WebGPU device (a `GPUDevice`) is lost: destroyed, a driver
/// reset, a GPU gone (the reason empty when the browser gives none). A second listener beside
/// wgpu's own.
pub fn on_device_lost(device: &JsValue, on_lost: impl FnOnce(String) + 'static) {
    let Ok(lost) = Reflect::get(device, &"lost".into()) else { return };
    let Ok(lost) = lost.dyn_into::<Promise>() else { return };
    let cb = wasm_bindgen::closure::Closure::once(move |info: JsValue| {
        let field = |k: &str| {
            Reflect::get(&info, &k.into()).ok().and_then(|v| v.as_string()).unwrap_or_default()
        };
        let (reason, message) = (field("reason"), field("message"));
        on_lost(match (reason.is_empty(), message.is_empty()) {
            (false, false) => format!("{reason}: {message}"),
            (false, true) => reason,
            (true, false) => message,
            // The page says "no reason given" in its language (`no_reason`).
            (true, true) => String::new(),
        });
    });
    let _ = lost.then(&cb);
    cb.forget();
}
