//! The progress bar and its line (share done, samples/s, ETA, what the run's board is doing, phase
//! times), the retry button after a failed download, and the report's exports.

use leptos::prelude::*;
use spotlight_i18n::Lang;
use spotlight_i18n::say::run;

use crate::state::{Activity, Doing, Loading, Ui};
use crate::{session, web};

#[component]
pub fn ProgressView(ui: Ui) -> impl IntoView {
    let text = move || {
        let lang = ui.lang.get();
        let p = &lang.texts().status.progress;
        let b = ui.bar.get();
        match ui.activity.get() {
            Activity::Idle => p.ready.to_string(),
            Activity::Loading(l) => loading(lang, &l, false),
            // Every training step done, the run not yet: the attacks (and the last read-outs) are
            // left, which the steps' ETA does not count — no "100 %, ETA 0 s" while they run.
            Activity::Training if b.fraction >= 0.999 => {
                format!("{} — {}", lang.pct(0.99, 0), doing(lang, &b.doing))
            }
            Activity::Training => format!(
                "{} — {} — {} {} — {}",
                lang.pct(b.fraction.min(0.99), 0),
                doing(lang, &b.doing),
                lang.num(b.samples_per_s, 0),
                p.samples_per_s,
                (p.eta)(&lang.num(b.eta_s, 0))
            ),
            Activity::Benchmarking => p.benchmarking.to_string(),
            Activity::Done => format!(
                "{} — {}{}",
                lang.pct(1.0, 0),
                (p.done_in)(&lang.num(b.elapsed_s, 1), &lang.num(b.samples_per_s, 0)),
                ui.times.get().map(|t| format!("; {}", run::phases(lang, &t))).unwrap_or_default()
            ),
            Activity::Cancelled => {
                (p.cancelled_at)(&lang.pct(b.fraction, 0), &lang.num(b.elapsed_s, 1))
            }
            Activity::Failed(e) | Activity::LoadFailed(e) => (p.error)(&e),
        }
    };
    // The bar says what the text says: at most 99 % while training (the attacks are left).
    let shown = move || {
        let f = ui.bar.get().fraction;
        if matches!(ui.activity.get(), Activity::Training) { f.min(0.99) } else { f }
    };
    let percent = move || format!("{:.0}", 100.0 * shown());
    // Changes only when its text does: a live region is not told the same thing twice.
    let announced = Memo::new(move |_| status(ui));
    view! {
        <section class="progress" aria-label=ui.tr(|t| t.status.progress.label) data-runs=move || ui.runs_started.get()>
            <div class="bar" role="progressbar" aria-label=ui.tr(|t| t.status.progress.bar_label) aria-valuemin="0" aria-valuemax="100"
                aria-valuenow=percent>
                <div id="progress-fill" style:width=move || format!("{:.1}%", 100.0 * shown())></div>
            </div>
            // Changes many times a second while training: read by eye; the status below is announced.
            <div id="progress-text" aria-hidden="true">{text}</div>
            <p id="progress-status" class="sr-only" role="status" aria-live="polite">{announced}</p>
            <Show when=move || matches!(ui.activity.get(), Activity::LoadFailed(_))>
                <button id="retry" on:click=move |_| session::start(ui)>{ui.tr(|t| t.status.progress.retry)}</button>
            </Show>
            <AutoRunAsk ui />
            <ModelErrors ui />
        </section>
    }
}

/// What is getting a run ready, in words; `short`: without the download's running figures
/// ("Loading mnist.spds.gz", for a screen reader).
fn loading(lang: Lang, l: &Loading, short: bool) -> String {
    let p = &lang.texts().status.progress;
    let mb = |b: f64| lang.num(b / 1e6, 1);
    match *l {
        Loading::Starting => p.starting.to_string(),
        Loading::Fetching { file, got: None } => format!("{}…", (p.loading)(file)),
        Loading::Fetching { file, got: Some(_) } if short => (p.loading)(file),
        Loading::Fetching { file, got: Some((got, Some(total))) } => {
            let share = (got as f64 / total as f64).min(1.0);
            format!(
                "{}: {}",
                (p.loading)(file),
                (p.of_mb)(&mb(got as f64), &mb(total as f64), &lang.pct(share, 0))
            )
        }
        Loading::Fetching { file, got: Some((got, None)) } => {
            format!("{}: {} MB", (p.loading)(file), mb(got as f64))
        }
        Loading::Unpacking { file, bytes } => (p.unpacking)(file, &mb(bytes as f64)),
    }
}

/// What a run is doing, in words ("training BN and no-BN (2 workers)").
fn doing(lang: Lang, d: &Doing) -> String {
    match d {
        Doing::Nothing => String::new(),
        Doing::Done => lang.texts().status.doing.done.to_string(),
        Doing::Board(b, workers) => run::doing(lang, b, *workers),
    }
}

/// What a screen reader announces of the progress: each change of phase and every quarter of the
/// run, not each step (the line above changes several times a second).
fn status(ui: Ui) -> String {
    let lang = ui.lang.get();
    let p = &lang.texts().status.progress;
    match ui.activity.get() {
        Activity::Idle => String::new(),
        // What is loading, without the download's running figures ("Loading mnist.spds.gz").
        Activity::Loading(l) => loading(lang, &l, true),
        Activity::Training => {
            let quarter = (4.0 * ui.bar.with(|b| b.fraction)).floor().clamp(0.0, 3.0);
            (p.say_training)(&lang.pct(quarter / 4.0, 0))
        }
        Activity::Benchmarking => p.say_benchmarking.into(),
        Activity::Done => (p.say_done)(&lang.num(ui.bar.with_untracked(|b| b.elapsed_s), 0)),
        Activity::Cancelled => p.say_cancelled.into(),
        Activity::Failed(e) | Activity::LoadFailed(e) => (p.error)(&e),
    }
}

/// A link's `run=1` that did not start by itself: why, and a button to start it.
#[component]
fn AutoRunAsk(ui: Ui) -> impl IntoView {
    view! {
        <Show when=move || ui.ask.with(Option::is_some)>
            <div id="autorun-ask" class="ask" role="alertdialog" aria-label=ui.tr(|t| t.status.progress.ask_label)>
                <p>{move || ui.ask.get().map(|why| spotlight_i18n::say::notice::ask(ui.lang.get(), &why)).unwrap_or_default()}</p>
                <button id="autorun-start" on:click=move |_| session::start(ui)>{ui.tr(|t| t.status.progress.start_it)}</button>
                <button id="autorun-dismiss" on:click=move |_| ui.ask.set(None)>{ui.tr(|t| t.status.progress.not_now)}</button>
            </div>
        </Show>
    }
}

/// What went wrong in each model (a diverged loss, a failed backend, an attack that could not run).
#[component]
fn ModelErrors(ui: Ui) -> impl IntoView {
    // Once per report or language, for the list and for whether to show it.
    let failures = Memo::new(move |_| {
        let lang = ui.lang.get();
        ui.report.with(|r| r.as_ref().map(|r| run::failures(lang, r)).unwrap_or_default())
    });
    view! {
        <Show when=move || failures.with(|f| !f.is_empty())>
            <div id="model-errors" class="model-errors" role="alert">
                <strong>{ui.tr(|t| t.status.progress.not_every_model)}</strong>
                <ul><For each=move || failures.get() key=|f| f.clone() children=|f| view! { <li>{f}</li> } /></ul>
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
            <button id="export-json" on:click=export_json disabled=move || ui.report.with(|r| r.is_none())>
                {ui.tr(|t| t.status.progress.export_json)}
            </button>
            <button id="export-csv" on:click=export_csv disabled=move || ui.report.with(|r| r.is_none())>
                {ui.tr(|t| t.status.progress.export_csv)}
            </button>
        </div>
    }
}
