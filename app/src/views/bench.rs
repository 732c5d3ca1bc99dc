//! The benchmark: train samples/s per backend and model in this browser, then the wall time of the
//! comparison in the controls; exportable as JSON.

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::session::run_bench;
use crate::state::{Activity, Ui};
use crate::views::{Cell, KeyedRows, cell};
use crate::web;

#[component]
pub fn BenchView(ui: Ui) -> impl IntoView {
    let json = move || ui.bench.with(|b| b.to_json());
    let export = move |_| {
        let _ = web::download("spotlight-bench.json", "application/json", &ui.bench.with_untracked(|b| b.to_json()));
    };
    let rows = move || {
        ui.bench.with(|b| {
            b.throughput
                .iter()
                .map(|t| {
                    vec![
                        cell(t.backend.clone()),
                        cell(t.model()),
                        cell(t.batch_size.to_string()),
                        Cell { text: format!("{:.0}", t.samples_per_s), class: "rate" },
                        cell(format!("{:.1} s", t.mnist_epoch_s())),
                    ]
                })
                .collect()
        })
    };
    view! {
        <section class="view" id="view-bench" data-json=json>
            <h2>"Benchmark"</h2>
            <p class="teach">"How fast this browser trains: samples per second of training steps (forward, backward and an optimizer
               step, at the batch size in the controls) for each model on every backend the page has — WebGPU when it runs, and
               the CPU backend (burn-flex) in WebAssembly — and, from that, how long one full MNIST epoch (60,000 images) would take.
               Then it times the comparison in the controls, attack included, on the page's backend. Open a link with
               "<code>"bench=1"</code>" to run it at once."</p>
            <div class="buttons">
                <button id="bench-run" on:click=move |_| spawn_local(run_bench(ui))
                    disabled=move || ui.activity.with(Activity::busy)>"Run benchmark"</button>
                <button id="export-bench" on:click=export disabled=move || ui.bench.with(|b| b.throughput.is_empty())>"Export benchmark (JSON)"</button>
            </div>
            <p id="bench-note">{move || ui.bench_note.get()}</p>
            <Show when=move || ui.bench.with(|b| !b.throughput.is_empty())>
                <table class="numbers" id="bench-table">
                    <tr><th>"backend"</th><th>"model"</th><th>"batch"</th><th>"train samples/s"</th><th>"one MNIST epoch"</th></tr>
                    <KeyedRows rows=Signal::derive(rows) />
                </table>
            </Show>
            <p id="bench-comparison">{move || ui.bench.with(|b| b.comparison.as_ref().map(|c| format!(
                "The comparison ({} training samples, {} epochs, {} shadow models) on {}{}: {:.1} s in all{} — {}.",
                c.config.train_size, c.config.epochs, c.config.shadow_models, c.backend,
                if c.workers > 0 { format!(" in {} Web Workers", c.workers) } else { " on the page's thread".into() }, c.times.total_s,
                if c.finished { "" } else { " (stopped early)" }, c.times.describe()))
            )}</p>
        </section>
    }
}
