//! Spotlight's web app: controls, live views and share links around spotlight-core. UI only —
//! the experiment (data, models, training, attacks) is the core's, the charts are spotlight-plots'.
//!
//! `state.rs` holds the page's one state (`Ui`, `Activity`); `session.rs` what the buttons start;
//! `backend.rs` and `datasets.rs` what a run needs; `views/` one file per view; `web.rs` the
//! browser plumbing.

mod backend;
mod datasets;
mod gpu_counts;
mod pool;
mod session;
mod state;
mod views;
mod web;
mod worker;

use leptos::prelude::*;
use leptos::task::spawn_local;
use spotlight_core::config::Config;
use spotlight_core::link::{self, AutoRun, Link};

use crate::backend::Backend;
use crate::state::Ui;
use crate::views::{
    attack, banner, bench, canary, charts, controls, gallery, language, paper, progress, summary,
    theory, tour,
};

#[component]
fn App() -> impl IntoView {
    let parsed = link::parse(&web::query());
    let ui = Ui::new(&parsed);
    expose_memory_probe(ui.backend);
    // A course link that hides the explanations (`hide=teach`).
    if ui.hides("teach") {
        web::add_body_class("hide-teach");
    }
    // A view unless the page's link hides it.
    let unless_hidden = move |part: &str, v: AnyView| (!ui.hides(part)).then_some(v);
    web::ask_before_leaving(move || ui.busy());
    // The page's language, its `<html lang>` and title follow the language menu.
    Effect::new(move || web::set_page_lang(ui.lang.get().code(), ui.t().page.title));
    spawn_local(async move {
        let be = ui.backend.await;
        // The default experiment sized to the backend, unless the link names a setting (or a
        // control was changed meanwhile).
        let base = Config::for_backend(be.gpu);
        ui.base.set(base.clone());
        if !parsed.config_given && ui.config.get_untracked() == Config::default() {
            ui.config.set(base);
        }
        if parsed.bench {
            session::run_bench(ui).await;
        } else if parsed.run {
            // Read once: a reload of the page does not start the run again.
            web::replace_query(&ui.share_query(&ui.config.get_untracked()));
            let link = Link { config: ui.config.get_untracked(), ..parsed };
            match link::autorun(&link, be.gpu, web::in_foreign_frame()) {
                AutoRun::Start => session::start(ui),
                AutoRun::Ask(why) if !ui.busy() => ui.ask.set(Some(why)),
                AutoRun::Ask(_) | AutoRun::No => {}
            }
        }
        // While the page waits for its first Run, a second after it opened: a rehearsal of the
        // run on the CPU, so that its first second is not spent compiling (`pool::rehearse`).
        if !be.gpu && !parsed.bench {
            web::sleep_ms(1000).await;
            if !ui.busy() {
                pool::rehearse(ui.config.get_untracked(), ui);
            }
        }
    });
    view! {
        <header>
            <language::LanguageMenu ui />
            <h1>"Spotlight"</h1>
            <p class="question" id="question">{ui.tr(|t| t.page.question)}</p>
            <p class="lede">{ui.tr(|t| t.page.lede)}</p>
            <banner::Banner ui />
            <banner::Notices ui />
            <tour::TourButton ui />
        </header>
        <tour::Tour ui />
        <main>
            // The bench: the settings in a side column, and the four lenses side by side (2 × 2), so that a
            // student sees them move together while the models train; how to read each, and its numbers,
            // fold out under its chart. The long form follows.
            <div class="workbench">
                <aside class="side"><controls::Controls ui /></aside>
                <div class="stage">
                    <progress::ProgressView ui />
                    <summary::JustHappened ui />
                    // Before the first run the lenses show one measured earlier, and say so.
                    <Show when=move || ui.report.with(Option::is_none) && ui.runs_started.get() == 0>
                        <p id="measured-earlier" class="earlier">{move || {
                            let lang = ui.lang.get();
                            state::measured_earlier().map(|r| {
                                (lang.texts().lenses.measured_earlier)(&lang.int(r.config.train_size as u64), &lang.int(r.config.epochs as u64))
                            })
                        }}</p>
                    </Show>
                    <div class="lenses">
                        <charts::TrainingViews ui />
                        {unless_hidden("attack", view! { <attack::AttackView ui /> }.into_any())}
                    </div>
                    <progress::Exports ui />
                </div>
            </div>
            // Be the outlier: draw, run, and see what became of the drawing, side by side.
            {unless_hidden("canary", view! {
                <div class="canary-row">
                    <canary::CanaryPad ui />
                    <canary::CanaryView ui />
                </div>
            }.into_any())}
            {unless_hidden("gallery", view! { <gallery::GalleryView ui /> }.into_any())}
            {unless_hidden("theory", view! { <theory::TheoryLab ui /> }.into_any())}
            {unless_hidden("paper", view! { <paper::PaperPanel ui /> }.into_any())}
            {unless_hidden("bench", view! { <bench::BenchView ui /> }.into_any())}
        </main>
        <footer>{ui.tr(|t| t.page.footer)}</footer>
    }
}

/// Exposes, for the browser tests: `window.spotlightMemoryBytes()`, the size of the wasm linear
/// memories, the page's and its live workers' (repeated runs must not grow it without bound),
/// `spotlightWorkers()`, how many training workers are alive, `spotlightGpuMemory()`,
/// `spotlightLoseGpu()`, which has every training worker destroy its WebGPU device (the browser
/// then reports the loss as it would a real one), and
/// `spotlightPanic(text)`, a panic in the wasm (the page must show that it crashed).
fn expose_memory_probe(backend: LocalResource<Backend>) {
    use wasm_bindgen::JsValue;
    use wasm_bindgen::closure::Closure;
    // The page's own memory and its training workers' (as they last reported it).
    let probe = Closure::<dyn Fn() -> f64>::new(|| web::memory_bytes() + pool::workers_memory());
    // What burn's GPU allocator holds on the page's own WebGPU device (null until the page opens
    // one: the benchmark's rows, or training on the page; the workers' devices go with them).
    let gpu = Closure::<dyn Fn() -> JsValue>::new(move || {
        let usage = backend
            .get_untracked()
            .filter(|be| be.gpu)
            .and(backend::webgpu_opened())
            .and_then(|d| d.memory_pool_usage());
        match usage {
            None => JsValue::NULL,
            Some(u) => {
                let o = js_sys::Object::new();
                for (k, v) in [
                    ("allocs", u.number_allocs),
                    ("bytesInUse", u.bytes_in_use),
                    ("bytesReserved", u.bytes_reserved),
                ] {
                    let _ = js_sys::Reflect::set(&o, &k.into(), &(v as f64).into());
                }
                o.into()
            }
        }
    });
    let workers = Closure::<dyn Fn() -> f64>::new(|| pool::live_workers() as f64);
    let lose_gpu = Closure::<dyn Fn() -> f64>::new(|| pool::lose_gpu() as f64);
    let panic = Closure::<dyn Fn(String)>::new(|text: String| panic!("{text}"));
    if let Some(w) = web_sys::window() {
        let _ = js_sys::Reflect::set(&w, &"spotlightMemoryBytes".into(), probe.as_ref());
        let _ = js_sys::Reflect::set(&w, &"spotlightGpuMemory".into(), gpu.as_ref());
        let _ = js_sys::Reflect::set(&w, &"spotlightPanic".into(), panic.as_ref());
        let _ = js_sys::Reflect::set(&w, &"spotlightWorkers".into(), workers.as_ref());
        let _ = js_sys::Reflect::set(&w, &"spotlightLoseGpu".into(), lose_gpu.as_ref());
    }
    lose_gpu.forget();
    probe.forget();
    gpu.forget();
    panic.forget();
    workers.forget();
}

// Static constructors (cubecl registers its kernels through `inventory`). Without an explicit call
// wasm-ld treats the module as "command-style" and re-runs every constructor at the start of every
// call from JS into wasm — each callback, each resumed future; profiled here at a third of a run's
// main-thread time. Calling them once, first, turns that wrapping off (inventory's docs).
#[cfg(target_family = "wasm")]
#[allow(unsafe_code)]
unsafe extern "C" {
    fn __wasm_call_ctors();
}

fn main() {
    // SAFETY: runs once, before anything else in the module; the constructors only register statics.
    #[cfg(target_family = "wasm")]
    #[allow(unsafe_code)]
    unsafe {
        __wasm_call_ctors();
    }
    // The same module runs the page and its training workers (`pool.rs`, `worker.rs`).
    if web::in_worker() {
        worker::serve();
        return;
    }
    web::install_crash_handlers();
    spotlight_core::yielder::install(|| Box::pin(web::yield_now()));
    mount_to_body(App);
}
