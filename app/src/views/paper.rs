//! "What the paper found / what we measured": the claims table and the charts of a
//! `spotlight paper` run, compiled into the app (no run in the page needed).

use leptos::prelude::*;
use spotlight_core::paper::{ClaimRow, PaperTable, REG_NOISE};

/// `paper-report.json` of `spotlight paper --size mid`, copied to `results/paper-mid.json`.
const PAPER_JSON: &str = include_str!("../../../results/paper-mid.json");

/// The file's shape: `{"size": "mid", "table": <PaperTable>}`.
struct PaperFile {
    size: String,
    table: PaperTable,
}

fn parse(json: &str) -> Result<PaperFile, String> {
    let v: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let size = v.get("size").and_then(|s| s.as_str()).ok_or("no \"size\" text")?.to_string();
    let table = v.get("table").cloned().ok_or("no \"table\"")?;
    let table = serde_json::from_value(table).map_err(|e| format!("\"table\": {e}"))?;
    Ok(PaperFile { size, table })
}

/// One line under each of `spotlight_plots::paper_charts`' charts, by its key.
fn chart_caption(name: &str) -> String {
    match name {
        "memorization" => "Memorization: accuracy on flipped members per epoch, BN (red) and no-BN (blue); thicker lines for more noise.".into(),
        "gradients" => "Median per-sample gradient norm inside a training batch, noisy probes (thick) and clean ones (light), per model and noise level.".into(),
        "gamma-sigma" => "BN models: median γ/σ with the batch σ, mean over layers, from the untrained model (epoch 0); the change from epoch 0 and the gap between noise levels are the signal, not the line at 1.".into(),
        "gamma" => "BN models: mean |γ| per epoch by noise level — outliers pushing γ up is the paper's feedback loop.".into(),
        "tradeoff" => format!(
            "The regularizer at {:.0}% flipped labels: flipped-label accuracy and LiRA AUC against test accuracy, one point per λ (λ = 0: without it).",
            100.0 * REG_NOISE
        ),
        other => other.to_string(),
    }
}

fn seeds_text(seeds: &[u64]) -> String {
    seeds.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
}

#[component]
pub fn PaperPanel() -> impl IntoView {
    let body = match parse(PAPER_JSON) {
        Ok(file) => view! { <PaperBody file /> }.into_any(),
        Err(e) => view! {
            <p class="error" id="paper-error">{format!("The measured results (results/paper-mid.json) could not be read: {e}")}</p>
        }
        .into_any(),
    };
    view! {
        <section class="view" id="view-paper">
            <h2>"What the paper found / what we measured"</h2>
            {body}
        </section>
    }
}

#[component]
fn PaperBody(file: PaperFile) -> impl IntoView {
    let PaperFile { size, table } = file;
    let command = format!("spotlight paper --size {size}");
    let seeds = format!("{} {}", if table.seeds.len() == 1 { "seed" } else { "seeds" }, seeds_text(&table.seeds));
    let table = StoredValue::new(table);
    // The charts are drawn the first time the reader opens them, not at page load.
    let opened = RwSignal::new(false);
    let charts = move || {
        table.with_value(spotlight_plots::paper_charts).into_iter().map(|(name, svg)| view! { <PaperChart name svg /> }).collect_view()
    };
    view! {
        <p class="teach">"The paper's claims, each against our numbers, measured with "<code>{command}</code>", "{seeds}
           "; mean ± sd over seeds. A claim held when its rule holds on the means and in more than half of the seeds checked."</p>
        <ClaimTable rows=table.with_value(|t| t.rows.clone()) />
        <p class="teach" id="paper-reading">"Reading it: a verdict is the rule applied to the numbers, not the whole story. "
           "Compare each difference with its ± (the spread over seeds): a rule met by less than that is met by chance. "
           "For γ/σ compare the trained value with the one at initialization beside it: above 1 from the start says nothing about training. "
           "A claim that did not hold after a faithful measurement is a finding, reported as it came out."</p>
        <details class="paper-charts" on:toggle=move |_| opened.set(true)>
            <summary>"The charts behind the claims (means over seeds)"</summary>
            <Show when=move || opened.get()>{charts}</Show>
        </details>
    }
}

#[component]
fn ClaimTable(rows: Vec<ClaimRow>) -> impl IntoView {
    view! {
        <table class="numbers claims" id="paper-table">
            <tr><th></th><th>"claim"</th><th>"the paper"</th><th>"ours"</th><th>"verdict"</th></tr>
            {rows.into_iter().map(|r| {
                let class = match r.held { Some(true) => "verdict held", Some(false) => "verdict not-held", None => "verdict unchecked" };
                let verdict = format!("{} ({}/{} seeds)", r.verdict(), r.seeds_held, r.seeds_checked);
                view! {
                    <tr><td>{format!("({})", r.id)}</td><td class="text">{r.claim.clone()}</td><td class="text">{r.paper.clone()}</td>
                        <td class="text">{r.ours()}</td><td class=class>{verdict}</td></tr>
                }
            }).collect_view()}
        </table>
    }
}

#[component]
fn PaperChart(name: &'static str, svg: String) -> impl IntoView {
    view! {
        <figure class="paper-chart">
            <div class="chart" inner_html=svg></div>
            <figcaption>{chart_caption(name)}</figcaption>
        </figure>
    }
}
