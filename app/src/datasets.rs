//! The datasets, fetched from the page's own origin and decoded once per page.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use leptos::prelude::*;
use spotlight_core::config::DatasetName;
use spotlight_core::data::Dataset;
use spotlight_core::data::asset::{MAX_ASSET_BYTES, is_gzip};
use spotlight_i18n::say::data::data_error;

use crate::state::{Activity, Loading, Ui};
use crate::{pool, web};

thread_local! {
    // A cache of immutable assets, not page state: no view reads it.
    static DATASETS: RefCell<HashMap<&'static str, Rc<Dataset>>> = RefCell::new(HashMap::new());
}

/// Fetches and decodes a dataset once per page, showing the download on the progress bar. A
/// download or an unpacked asset over the core's size cap, bytes that are not the asset, and an
/// asset of another shape are errors the caller shows (with Retry).
pub async fn load(name: DatasetName, ui: Ui) -> Result<Rc<Dataset>, String> {
    let file = name.asset_file();
    if let Some(d) = DATASETS.with(|m| m.borrow().get(file).cloned()) {
        return Ok(d);
    }
    // An error is written in the language of the moment it happens.
    let s = &ui.lang_now().texts().status.load;
    ui.activity.set(Activity::Loading(Loading::Fetching { file, got: None }));
    let mut last = 0.0;
    let bytes = web::fetch_bytes(&format!("data/{file}"), MAX_ASSET_BYTES, s, |got, total| {
        let now = web::now_ms();
        if now - last < 50.0 {
            return;
        }
        last = now;
        let (total, fraction) = match total {
            // With `Content-Encoding: gzip` the length is the compressed one, the bytes unpacked.
            Some(t) if t > 0 && got <= t => (Some(t), (got as f64 / t as f64).min(1.0)),
            _ => (None, 0.0),
        };
        ui.activity.set(Activity::Loading(Loading::Fetching { file, got: Some((got, total)) }));
        ui.bar.update(|b| b.fraction = fraction);
    })
    .await?;
    ui.bar.update(|b| b.fraction = 1.0);
    ui.activity.set(Activity::Loading(Loading::Unpacking { file, bytes: bytes.len() }));
    // The page's thread unpacks: a rehearsal at work (a first run's) would compete with it for the
    // processor, and the run waits for it anyway.
    pool::after_rehearsal(|| false).await;
    web::yield_now().await;
    // The browser un-gzips, a small piece at a time between the page's frames (`web::gunzip`);
    // the core's decoder then only parses. A
    // server that sent the file with `Content-Encoding: gzip` made the browser unpack it already.
    let unpacked =
        if is_gzip(&bytes) { web::gunzip(&bytes, MAX_ASSET_BYTES, s).await } else { None };
    let bytes = match unpacked {
        Some(r) => {
            let raw = r.map_err(|e| format!("{file}: {e}"))?;
            drop(bytes); // before decoding: wasm memory keeps its high-water mark for the page's life
            raw
        }
        None => bytes,
    };
    // A task of its own: it copies every image once (~25 ms in the browser), and the last
    // chunks' unpacking may just have held the page for as long.
    web::yield_now().await;
    let d = Rc::new(name.decode(file, &bytes).map_err(|e| data_error(ui.lang_now(), &e))?);
    ui.bar.update(|b| b.fraction = 0.0);
    DATASETS.with(|m| m.borrow_mut().insert(file, d.clone()));
    Ok(d)
}
