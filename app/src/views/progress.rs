//! The progress bar and its line (the core driver's pace: share done, samples/s, ETA, phase
//! times), the retry button after a failed download, and the report's exports.

use leptos::prelude::*;
use spotlight_core::Report;

use crate::state::{Activity, Ui};
use crate::web;

#[component]
pub fn ProgressView(ui: Ui) -> impl IntoView {
    let text = move || {
        let b = ui.bar.get();
        match ui.activity.get() {
            Activity::Idle => "Ready. Press Run.".to_string(),
            Activity::Loading(s) => s,
            Activity::Training => {
                format!("{:.0}% — {} — {:.0} samples/s — ETA {:.0} s", 100.0 * b.fraction, b.text, b.samples_per_s, b.eta_s)
            }
            Activity::Benchmarking => "Benchmarking (see the benchmark below)…".to_string(),
            Activity::Done => format!(
                "100% — done in {:.1} s ({:.0} samples/s){}",
                b.elapsed_s,
                b.samples_per_s,
                ui.times.get().map(|t| format!("; {}", t.describe())).unwrap_or_default()
            ),
            Activity::Cancelled => {
                format!("Cancelled at {:.0}% after {:.1} s; what was measured is kept below.", 100.0 * b.fraction, b.elapsed_s)
            }
            Activity::Failed(e) | Activity::LoadFailed(e) => format!("Error: {e}"),
        }
    };
    let percent = move || format!("{:.0}", 100.0 * ui.bar.get().fraction);
    // Changes only when its text does: a live region is not told the same thing twice.
    let announced = Memo::new(move |_| status(ui));
    view! {
        <section class="progress" aria-label="progress" data-runs=move || ui.runs_started.get()>
            <div class="bar" role="progressbar" aria-label="experiment progress" aria-valuemin="0" aria-valuemax="100"
                aria-valuenow=percent>
                <div id="progress-fill" style:width=move || format!("{:.1}%", 100.0 * ui.bar.get().fraction)></div>
            </div>
            // Changes many times a second while training: read by eye; the status below is announced.
            <div id="progress-text" aria-hidden="true">{text}</div>
            <p id="progress-status" class="sr-only" role="status" aria-live="polite">{announced}</p>
            <Show when=move || matches!(ui.activity.get(), Activity::LoadFailed(_))>
                <button id="retry" on:click=move |_| ui.start()>"Retry"</button>
            </Show>
            <AutoRunAsk ui />
            <ModelErrors ui />
        </section>
    }
}

/// What a screen reader announces of the progress: each change of phase and every quarter of the
/// run, not each step (the line above changes several times a second).
fn status(ui: Ui) -> String {
    match ui.activity.get() {
        Activity::Idle => String::new(),
        // What is loading, without the download's running figures ("Loading mnist.spds.gz").
        Activity::Loading(s) => s.split(':').next().unwrap_or_default().to_string(),
        Activity::Training => {
            let quarter = (4.0 * ui.bar.with(|b| b.fraction)).floor().clamp(0.0, 3.0) as u32;
            format!("Training: {}% done.", 25 * quarter)
        }
        Activity::Benchmarking => "Benchmarking.".into(),
        Activity::Done => format!("Done in {:.0} s. The charts and tables below show the results.", ui.bar.with_untracked(|b| b.elapsed_s)),
        Activity::Cancelled => "Cancelled. What was measured is kept.".into(),
        Activity::Failed(e) | Activity::LoadFailed(e) => format!("Error: {e}"),
    }
}

/// A link's `run=1` that did not start by itself: why, and a button to start it.
#[component]
fn AutoRunAsk(ui: Ui) -> impl IntoView {
    view! {
        <Show when=move || ui.ask.with(Option::is_some)>
            <div id="autorun-ask" class="ask" role="alertdialog" aria-label="Start this run?">
                <p>{move || ui.ask.get().unwrap_or_default()}</p>
                <button id="autorun-start" on:click=move |_| ui.start()>"Start it"</button>
                <button id="autorun-dismiss" on:click=move |_| ui.ask.set(None)>"Not now"</button>
            </div>
        </Show>
    }
}

/// What went wrong in each model (a diverged loss, a failed backend, an attack that could not run).
#[component]
fn ModelErrors(ui: Ui) -> impl IntoView {
    let failures = move || ui.report.with(|r| r.as_ref().map(Report::failures).unwrap_or_default());
    view! {
        <Show when=move || !failures().is_empty()>
            <div id="model-errors" class="model-errors" role="alert">
                <strong>"Not every model finished:"</strong>
                <ul><For each=failures key=|f| f.clone() children=|f| view! { <li>{f}</li> } /></ul>
            </div>
        </Show>
    }
}

/// The report as JSON and the curves as CSV, once there is a report.
#[component]
pub fn Exports(ui: Ui) -> impl IntoView {
    let export_json = move |_| {
        if let Some(r) = ui.report.get_untracked() {
            let _ = web::download("spotlight-report.json", "application/json", &r.to_json());
        }
    };
    let export_csv = move |_| {
        if let Some(r) = ui.report.get_untracked() {
            let _ = web::download("spotlight-curves.csv", "text/csv", &r.to_csv());
        }
    };
    view! {
        <div class="exports">
            <button id="export-json" on:click=export_json disabled=move || ui.report.with(|r| r.is_none())>"Export report (JSON)"</button>
            <button id="export-csv" on:click=export_csv disabled=move || ui.report.with(|r| r.is_none())>"Export curves (CSV)"</button>
        </div>
    }
}
