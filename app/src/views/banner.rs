//! The backend banner and the notices (what in a link or a control could not be used as given).

use leptos::prelude::*;

use spotlight_core::jobs;
use spotlight_i18n::status::About;

use crate::state::{Activity, Ui};
use crate::{backend, pool};

/// The seconds a run with the page's settings would take on the CPU, at the pace this machine
/// showed (its rehearsal, or its last run); `None` before it has shown one.
fn estimate(ui: Ui) -> Option<f64> {
    let pace = ui.pace.get()?;
    ui.config.with(|c| {
        Some(jobs::estimate_s(c, pace, pool::worker_count(jobs::jobs_of(c).len(), false)))
    })
}

/// Which backend the page trains on and where the models train; why it is not WebGPU, one click
/// away (the technical reason folded under the plain line); before a run on the CPU, how long one
/// takes here.
#[component]
pub fn Banner(ui: Ui) -> impl IntoView {
    let text = move || {
        let s = &ui.t().status;
        let b = &s.banner;
        match ui.backend.get() {
            None if ui.measuring.get() => b.measuring.to_string(),
            None => b.starting.to_string(),
            Some(be) => {
                let ran = !matches!(ui.activity.get(), Activity::Idle | Activity::Benchmarking);
                let place = match ui.gpu_on_page.get() {
                    Some(why) if be.gpu => {
                        (b.on_page)(&(b.no_gpu_in_workers)(&(b.webgpu_failed)(&why)))
                    }
                    _ => b.in_workers.into(),
                };
                let mut text = format!(
                    "{} {} — {place}",
                    if ran { b.training_on } else { b.backend },
                    backend::shown(&be.label, s)
                );
                // While no run goes on, on the CPU: how long one takes here, at this machine's pace.
                // A choice by measurement: the two figures, on the line.
                if let Some(why) = be.why.as_ref().filter(|w| w.said_plainly()) {
                    text.push_str(" — ");
                    text.push_str(&why.describe(ui.lang.get()));
                }
                let busy = ui.activity.with(Activity::busy);
                if let (false, false, Some(secs)) = (busy, be.gpu, estimate(ui)) {
                    text.push_str(" — ");
                    text.push_str(&(b.estimate)(About::of(secs)));
                }
                text
            }
        }
    };
    let why = move || {
        let why = ui.backend.get()?.why.filter(|w| !w.said_plainly())?;
        Some(why.describe(ui.lang.get()))
    };
    let class =
        move || if ui.backend.get().is_some_and(|b| b.gpu) { "banner gpu" } else { "banner cpu" };
    // `data-chosen` once the backend is known (the browser tests wait for it, in any language).
    let chosen = move || ui.backend.get().map(|b| if b.gpu { "webgpu" } else { "cpu" });
    // The estimate unrounded, in seconds, for the tests and `e2e/estimate.mjs`.
    let estimate_s = move || estimate(ui).map(|s| s.to_string());
    // The measured rates of a run's workers together, unrounded (samples/s), for the tests.
    let rates = move || match ui.backend.get()?.why? {
        backend::Why::Measured(r) => Some(r),
        _ => None,
    };
    let webgpu_rate = move || rates().map(|r| r.webgpu_run().to_string());
    let cpu_rate = move || rates().map(|r| r.cpu_run().to_string());
    view! {
        <div id="backend-banner" class=class data-chosen=chosen data-estimate-s=estimate_s
            data-webgpu-rate=webgpu_rate data-cpu-rate=cpu_rate>
            {text}
            <Show when=move || why().is_some()>
                <details class="why"><summary>{ui.tr(|t| t.status.banner.why)}</summary>{why}</details>
            </Show>
        </div>
    }
}

#[component]
pub fn Notices(ui: Ui) -> impl IntoView {
    let keyed = move || ui.notices.get().into_iter().enumerate().collect::<Vec<_>>();
    view! {
        <Show when=move || ui.notices.with(|n| !n.is_empty())>
            <div id="notices" class="notices" role="status">
                <strong>{ui.tr(|t| t.status.banner.notices)}</strong>
                <ul><For each=keyed key=|n| n.clone() children=|(_, n)| view! { <li>{n}</li> } /></ul>
                <button on:click=move |_| ui.notices.set(Vec::new())>{ui.tr(|t| t.status.banner.dismiss)}</button>
            </div>
        </Show>
    }
}
