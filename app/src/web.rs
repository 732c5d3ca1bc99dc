//! Browser plumbing: fetch, yielding to the event loop, the URL, the clipboard, downloads, and
//! the WebGPU adapter. No experiment logic here.

use js_sys::{Promise, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

fn window() -> web_sys::Window {
    web_sys::window().expect("a window")
}

fn js_err(v: JsValue) -> String {
    v.as_string().or_else(|| Reflect::get(&v, &"message".into()).ok().and_then(|m| m.as_string())).unwrap_or_else(|| format!("{v:?}"))
}

/// GETs a same-origin URL as bytes, calling `progress(bytes so far, total)` as chunks arrive
/// (`total` from Content-Length, when the server sends one).
pub async fn fetch_bytes(url: &str, mut progress: impl FnMut(u64, Option<u64>)) -> Result<Vec<u8>, String> {
    let resp = JsFuture::from(window().fetch_with_str(url)).await.map_err(|e| format!("{url}: {}", js_err(e)))?;
    let resp: web_sys::Response = resp.dyn_into().map_err(|_| format!("{url}: not a response"))?;
    if !resp.ok() {
        return Err(format!("{url}: HTTP {} {}", resp.status(), resp.status_text()));
    }
    let total = resp.headers().get("content-length").ok().flatten().and_then(|s| s.trim().parse::<u64>().ok());
    let Some(body) = resp.body() else {
        let buf = JsFuture::from(resp.array_buffer().map_err(js_err)?).await.map_err(js_err)?;
        return Ok(Uint8Array::new(&buf).to_vec());
    };
    let reader: web_sys::ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut out = Vec::with_capacity(total.unwrap_or(0).min(1 << 28) as usize);
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(|e| format!("{url}: the download broke off ({})", js_err(e)))?;
        if Reflect::get(&chunk, &"done".into()).ok().and_then(|d| d.as_bool()).unwrap_or(true) {
            break;
        }
        let value = Reflect::get(&chunk, &"value".into()).map_err(js_err)?;
        let bytes: Uint8Array = value.dyn_into().map_err(|_| format!("{url}: a chunk that is not bytes"))?;
        let n = out.len();
        out.resize(n + bytes.length() as usize, 0);
        bytes.copy_to(&mut out[n..]);
        progress(out.len() as u64, total);
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
/// dataset does not hold the page while it unpacks. `None` where the browser lacks it.
pub async fn gunzip(bytes: &[u8]) -> Option<Result<Vec<u8>, String>> {
    let ds = DecompressionStream::new("gzip").ok()?;
    Some(
        async {
            let parts = js_sys::Array::of1(&Uint8Array::from(bytes));
            let blob = web_sys::Blob::new_with_u8_array_sequence(&parts).map_err(js_err)?;
            let pair = web_sys::ReadableWritablePair::new(&ds.readable(), &ds.writable());
            let out = blob.stream().pipe_through(&pair);
            let resp = web_sys::Response::new_with_opt_readable_stream(Some(&out)).map_err(js_err)?;
            let buf = JsFuture::from(resp.array_buffer().map_err(js_err)?).await.map_err(|e| format!("not valid gzip ({})", js_err(e)))?;
            Ok(Uint8Array::new(&buf).to_vec())
        }
        .await,
    )
}

/// Resolves after the browser had a turn (a `setTimeout(0)`).
pub async fn yield_now() {
    let p = Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
    });
    let _ = JsFuture::from(p).await;
}

/// `performance.now()` in ms.
pub fn now_ms() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
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
    let a: web_sys::HtmlAnchorElement = doc.create_element("a").map_err(js_err)?.dyn_into().map_err(|_| "no anchor")?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// Asks `navigator.gpu` for an adapter and describes it ("vendor / architecture", and whether it
/// is a fallback adapter), or says why there is none.
pub async fn webgpu_adapter() -> Result<String, String> {
    let nav = window().navigator();
    let gpu = Reflect::get(&nav, &"gpu".into()).map_err(js_err)?;
    if gpu.is_undefined() || gpu.is_null() {
        return Err("this browser has no WebGPU (navigator.gpu is missing)".into());
    }
    let request = Reflect::get(&gpu, &"requestAdapter".into()).map_err(js_err)?;
    let request: js_sys::Function = request.dyn_into().map_err(|_| "navigator.gpu.requestAdapter is not a function")?;
    let promise: Promise = request.call0(&gpu).map_err(js_err)?.dyn_into().map_err(|_| "requestAdapter gave no promise")?;
    let adapter = JsFuture::from(promise).await.map_err(js_err)?;
    if adapter.is_null() || adapter.is_undefined() {
        return Err("WebGPU gave no adapter (requestAdapter() returned null)".into());
    }
    let info = Reflect::get(&adapter, &"info".into()).unwrap_or(JsValue::UNDEFINED);
    let field = |k: &str| Reflect::get(&info, &k.into()).ok().and_then(|v| v.as_string()).unwrap_or_default();
    let fallback = Reflect::get(&info, &"isFallbackAdapter".into())
        .ok()
        .and_then(|v| v.as_bool())
        .or_else(|| Reflect::get(&adapter, &"isFallbackAdapter".into()).ok().and_then(|v| v.as_bool()))
        .unwrap_or(false);
    let mut name = [field("vendor"), field("architecture")].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join("/");
    if name.is_empty() {
        name = "unnamed adapter".into();
    }
    if fallback {
        name.push_str(" (fallback adapter)");
    }
    Ok(name)
}
