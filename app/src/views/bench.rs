//! The benchmark: train samples/s per backend and model in this browser, then the wall time of the
//! comparison in the controls; exportable as JSON.

use leptos::prelude::*;
use leptos::task::spawn_local;

use spotlight_core::Variant;
use spotlight_core::bench;
use spotlight_i18n::Lang;
use spotlight_i18n::say::run::{phases, run_error};
use spotlight_i18n::status::Comparison;
use spotlight_plots::model_name;

use crate::session::{BENCH_SHADOW_BATCH, BENCH_SHADOWS, run_bench};
use crate::state::{Activity, BenchNote, Ui};
use crate::views::{Cell, KeyedRows, cell};
use crate::{backend, web};

#[component]
pub fn BenchView(ui: Ui) -> impl IntoView {
    let json = move || ui.bench.with(|b| b.to_json());
    let export = move |_| {
        let _ = web::download(
            "spotlight-bench.json",
            "application/json",
            &ui.bench.with_untracked(|b| b.to_json()),
        );
    };
    let rows = move || {
        let lang = ui.lang.get();
        let s = &lang.texts().status;
        ui.bench.with(|b| {
            b.throughput
                .iter()
                .map(|t| {
                    vec![
                        cell(backend::shown(&t.backend, s)),
                        cell(model_name(Variant::unregularized(t.batch_norm), lang)),
                        cell(lang.int(t.batch_size as u64)),
                        Cell { text: lang.num(t.samples_per_s, 0), class: "rate" },
                        cell(format!("{} s", lang.num(t.mnist_epoch_s(), 1))),
                        match &t.gpu_work {
                            Some(w) => Cell {
                                text: (s.bench.gpu_work)(
                                    &lang.num(w.dispatches, 0),
                                    &lang.num(w.submits, 1),
                                    &lang.num(w.readbacks, 2),
                                ),
                                class: "gpu-work",
                            },
                            None => cell("—".to_string()),
                        },
                    ]
                })
                .collect()
        })
    };
    let b = move || &ui.t().status.bench;
    // Shadow models one by one beside stacked: a row per backend (the pairs as timed).
    let shadow_rows = move || {
        let lang = ui.lang.get();
        let s = &lang.texts().status;
        ui.bench.with(|b| {
            // Each one-by-one timing with the stacked one of its backend and model, where both ran.
            b.shadows
                .iter()
                .filter(|t| !t.stacked)
                .filter_map(|a| {
                    let same = |t: &&bench::ShadowsTime| {
                        t.stacked && t.backend == a.backend && t.batch_norm == a.batch_norm
                    };
                    b.shadows.iter().find(same).map(|s| [a, s])
                })
                .map(|p| {
                    let rate = |t: &bench::ShadowsTime| t.samples as f64 / t.seconds;
                    let dispatches = |t: &bench::ShadowsTime| t.dispatches_per_sample;
                    vec![
                        cell(backend::shown(&p[0].backend, s)),
                        cell(model_name(Variant::unregularized(p[0].batch_norm), lang)),
                        Cell { text: lang.num(rate(p[0]), 0), class: "rate" },
                        Cell { text: lang.num(rate(p[1]), 0), class: "rate" },
                        cell(format!("{}×", lang.num(rate(p[1]) / rate(p[0]), 2))),
                        match (dispatches(p[0]), dispatches(p[1])) {
                            (Some(a), Some(b)) => Cell {
                                text: format!("{} → {}", lang.num(a, 2), lang.num(b, 2)),
                                class: "gpu-work",
                            },
                            _ => cell("—".to_string()),
                        },
                    ]
                })
                .collect()
        })
    };
    let shadows_caption = move || {
        let lang = ui.lang.get();
        let c = bench::shadows_config(true, BENCH_SHADOW_BATCH, BENCH_SHADOWS);
        (lang.texts().status.bench.shadows_caption)(
            &lang.int(BENCH_SHADOWS as u64),
            &lang.int(c.train_size as u64),
            &lang.int(BENCH_SHADOW_BATCH as u64),
        )
    };
    let comparison = move || {
        let lang = ui.lang.get();
        let s = &lang.texts().status;
        let b = &s.bench;
        ui.bench.with(|r| {
            r.comparison.as_ref().map(|c| {
                let gap = c.flipped_gap.map(|g| {
                    let points = lang.num(100.0 * g, 1);
                    (b.flipped_gap)(&if g >= 0.0 { format!("+{points}") } else { points })
                });
                format!(
                    "{}{}{}{} — {}.{}",
                    (b.comparison)(&Comparison {
                        samples: &lang.int(c.config.train_size as u64),
                        epochs: &lang.int(c.config.epochs as u64),
                        shadows: &lang.int(c.config.shadow_models as u64),
                        backend: &backend::shown(&c.backend, s),
                    }),
                    if c.workers > 0 {
                        (b.in_workers)(&lang.int(c.workers as u64))
                    } else {
                        b.on_page.into()
                    },
                    (b.in_all)(&lang.num(c.times.total_s, 1)),
                    if c.finished { "" } else { b.stopped_early },
                    phases(lang, &c.times),
                    gap.unwrap_or_default()
                )
            })
        })
    };
    view! {
        <section class="view" id="view-bench" data-json=json>
            <h2>{ui.tr(|t| t.status.bench.title)}</h2>
            <p class="teach">{ui.tr(|t| t.status.bench.teach_before)}<code>"bench=1"</code>{ui.tr(|t| t.status.bench.teach_after)}</p>
            <div class="buttons">
                <button id="bench-run" on:click=move |_| spawn_local(run_bench(ui))
                    disabled=move || ui.activity.with(Activity::busy)>{ui.tr(|t| t.status.bench.run)}</button>
                <button id="export-bench" on:click=export disabled=move || ui.bench.with(|b| b.throughput.is_empty())>{ui.tr(|t| t.status.bench.export)}</button>
            </div>
            <p id="bench-note">{move || note(ui.lang.get(), &ui.bench_note.get())}</p>
            <Show when=move || ui.bench.with(|b| !b.throughput.is_empty())>
                <table class="numbers" id="bench-table">
                    <tr>{move || b().headers.map(|h| view! { <th>{h}</th> }).to_vec()}</tr>
                    <KeyedRows rows=Signal::derive(rows) />
                </table>
            </Show>
            <Show when=move || ui.bench.with(|b| b.shadows.len() >= 2)>
                <p class="caption">{shadows_caption}</p>
                <table class="numbers" id="bench-shadows">
                    <tr>{move || b().shadows_headers.map(|h| view! { <th>{h}</th> }).to_vec()}</tr>
                    <KeyedRows rows=Signal::derive(shadow_rows) />
                </table>
            </Show>
            <p id="bench-comparison">{comparison}</p>
        </section>
    }
}

/// The benchmark's note in words.
fn note(lang: Lang, n: &BenchNote) -> String {
    let s = &lang.texts().status;
    let b = &s.bench;
    match n {
        BenchNote::None => String::new(),
        BenchNote::NoGpu(label, e) => {
            format!("{}: {}", backend::shown(label, s), (s.banner.webgpu_failed)(e))
        }
        BenchNote::Failed(label, e) => {
            format!("{}: {}", backend::shown(label, s), run_error(s, e))
        }
        BenchNote::NoMnist => b.needs_mnist.into(),
        BenchNote::Timing(model, label) => {
            (b.timing)(model_name(*model, lang), &backend::shown(label, s))
        }
        BenchNote::TimingShadows(label) => (b.timing_shadows)(&backend::shown(label, s)),
        BenchNote::TimingComparison(label) => (b.timing_comparison)(&backend::shown(label, s)),
        BenchNote::Done => b.done.into(),
        BenchNote::Unfinished(how) => (b.unfinished)(&match how {
            Activity::Cancelled => b.cancelled.to_string(),
            Activity::Failed(e) => (b.failed)(e),
            Activity::LoadFailed(e) => (b.load_failed)(e),
            other => format!("{other:?}"),
        }),
    }
}
