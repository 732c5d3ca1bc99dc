//! "What the paper found / what we measured": the claims table and the charts of a
//! `spotlight paper` run, compiled into the app (no run in the page needed).

use leptos::prelude::*;
use spotlight_core::paper::{ClaimRow, Outcome, PaperTable, REG_NOISE};
use spotlight_i18n::Lang;
use spotlight_i18n::paper::{ClaimText, Said};

use crate::state::Ui;

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
fn chart_caption(lang: Lang, name: &str) -> String {
    let c = &lang.texts().paper.captions;
    match name {
        "memorization" => c.memorization.into(),
        "gradients" => c.gradients.into(),
        "gamma-sigma" => c.gamma_sigma.into(),
        "gamma" => c.gamma.into(),
        "tradeoff" => (c.tradeoff)(&lang.pct(REG_NOISE, 0)),
        other => other.to_string(),
    }
}

/// A verdict's look (style.css).
fn outcome_class(o: Outcome) -> &'static str {
    match o {
        Outcome::Held => "verdict held",
        Outcome::Failed => "verdict not-held",
        Outcome::Inconclusive => "verdict inconclusive",
        Outcome::Unchecked => "verdict unchecked",
    }
}

/// A claim's verdict: "held (3/3 seeds)".
fn verdict(lang: Lang, r: &ClaimRow) -> String {
    format!(
        "{} ({}/{} {})",
        lang.texts().paper.outcome(r.outcome),
        r.seeds_held,
        r.seeds_checked,
        lang.texts().paper.seeds
    )
}

/// A no-break space before each "%" that follows a digit.
fn spaced_percent(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 4);
    let mut prev = ' ';
    for c in text.chars() {
        if c == '%' && prev.is_ascii_digit() {
            out.push('\u{a0}');
        }
        out.push(c);
        prev = c;
    }
    out
}

/// A number's name (the core's English) in the language: translated word by word, "5%" written
/// "5 %" where the language writes a percentage so.
fn stat_name(lang: Lang, name: &str) -> String {
    if lang == Lang::En {
        return name.to_string();
    }
    let (en, own) = (Lang::En.texts().paper.stats.list(), lang.texts().paper.stats.list());
    let name = en.iter().zip(own).fold(name.to_string(), |n, (en, x)| n.replace(en, x));
    if lang.pct(0.0, 0).contains('\u{a0}') { spaced_percent(&name) } else { name }
}

/// Our numbers in words, mean ± sd over seeds: in English the core's text, in another language
/// each number's name translated word by word and the numbers written the language's way.
fn ours(lang: Lang, r: &ClaimRow) -> String {
    if lang == Lang::En {
        return r.ours();
    }
    r.numbers
        .iter()
        .map(|s| {
            let name = stat_name(lang, &s.name);
            if s.values.len() > 1 {
                format!("{name} {} ± {}", lang.num(s.mean, 3), lang.num(s.sd, 3))
            } else {
                format!("{name} {}", lang.num(s.mean, 3))
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn seeds_text(seeds: &[u64]) -> String {
    seeds.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
}

#[component]
pub fn PaperPanel(ui: Ui) -> impl IntoView {
    let body = match parse(PAPER_JSON) {
        Ok(file) => view! { <PaperBody ui file /> }.into_any(),
        Err(e) => view! {
            <p class="error" id="paper-error">{move || format!("{}{e}", ui.t().paper.error)}</p>
        }
        .into_any(),
    };
    view! {
        <section class="view" id="view-paper">
            <h2>{ui.tr(|t| t.paper.title)}</h2>
            {body}
        </section>
    }
}

#[component]
fn PaperBody(ui: Ui, file: PaperFile) -> impl IntoView {
    let PaperFile { size, table } = file;
    let command = format!("spotlight paper --size {size}");
    let (one_seed, seeds_list) = (table.seeds.len() == 1, seeds_text(&table.seeds));
    let seeds = move || {
        let t = &ui.t().paper;
        format!("{} {seeds_list}", if one_seed { t.seed } else { t.seeds })
    };
    let table = StoredValue::new(table);
    // The charts are drawn the first time the reader opens them, not at page load.
    let opened = RwSignal::new(false);
    let charts = move || {
        let lang = ui.lang.get();
        table
            .with_value(|t| spotlight_plots::paper_charts(t, lang))
            .into_iter()
            .map(|(name, svg)| view! { <PaperChart ui name svg /> })
            .collect_view()
    };
    view! {
        <p class="earlier" id="paper-not-your-run">{ui.tr(|t| t.paper.not_your_run)}</p>
        <p class="teach">{ui.tr(|t| t.paper.intro)}<code>{command}</code>", "{seeds}{ui.tr(|t| t.paper.intro_end)}</p>
        // The claims in the core's order: each refinement after the claim it refines.
        <ClaimTable ui rows=table.with_value(|t| t.rows.clone()) />
        <p class="teach" id="paper-reading">{ui.tr(|t| t.paper.reading)}</p>
        <details class="paper-charts" on:toggle=move |_| opened.set(true)>
            <summary>{ui.tr(|t| t.paper.charts)}</summary>
            <Show when=move || opened.get()>{charts}</Show>
        </details>
    }
}

#[component]
fn ClaimTable(ui: Ui, rows: Vec<ClaimRow>) -> impl IntoView {
    let t = move || &ui.t().paper;
    view! {
        <table class="numbers claims" id="paper-table">
            <tr><th></th><th>{ui.tr(|t| t.paper.claim_head)}</th><th>{ui.tr(|t| t.paper.paper_head)}</th><th>{ui.tr(|t| t.paper.ours_head)}</th>
                <th>{ui.tr(|t| t.paper.verdict_head)}</th></tr>
            {rows.into_iter().map(|r| {
                let class = outcome_class(r.outcome);
                let r = StoredValue::new(r);
                let id = r.with_value(|r| r.id);
                // The claim's texts by its letter (the i18n crate's tests check that every claim of
                // the core has them).
                let text = move |pick: fn(&ClaimText) -> &'static str| t().claim(id).map_or("", pick);
                let claim = move || text(|c| c.claim);
                let paper = move || text(|c| c.paper);
                let caveat = move || text(|c| c.caveat);
                // The result in one plain sentence with its rounded number, from the row's own means.
                let plain = move || {
                    let lang = ui.lang.get();
                    r.with_value(|r| {
                        let get = |name: &str| r.numbers.iter().find(|s| s.name == name).map(|s| s.mean);
                        let num = |x: f64, decimals: usize| lang.num(x, decimals);
                        (lang.texts().paper.plain)(r.id, &Said { get: &get, num: &num }).unwrap_or_default()
                    })
                };
                // Under the verdict, each tested number with its bar and its own verdict.
                let tests = move || {
                    let lang = ui.lang.get();
                    r.with_value(|r| {
                        r.tests
                            .iter()
                            .map(|t| {
                                let line = format!("{} > {}: ", stat_name(lang, &t.name), lang.plain(t.bar));
                                let word = lang.texts().paper.outcome(t.outcome);
                                view! { <div><small>{line}<span class=outcome_class(t.outcome)>{word}</span></small></div> }
                            })
                            .collect_view()
                    })
                };
                // Each cell names its column (`data-label`): on a phone the rows stack as cards (style.css).
                view! {
                    <tr><td>{format!("({id})")}</td><td class="text" data-label=move || t().claim_head>{claim}</td>
                        <td class="text" data-label=move || t().paper_head>{paper}</td>
                        <td class="text" data-label=move || t().ours_head>
                            <strong class="plain">{plain}</strong>
                            <div><small>{move || r.with_value(|r| ours(ui.lang.get(), r))}</small></div>
                        </td>
                        <td class="text" data-label=move || t().verdict_head>
                            <span class=class>{move || r.with_value(|r| verdict(ui.lang.get(), r))}</span>
                            {tests}
                            <div><small><em>{caveat}</em></small></div>
                        </td></tr>
                }
            }).collect_view()}
        </table>
    }
}

#[component]
fn PaperChart(ui: Ui, name: &'static str, svg: String) -> impl IntoView {
    view! {
        <figure class="paper-chart">
            <div class="chart" inner_html=svg></div>
            <figcaption>{move || chart_caption(ui.lang.get(), name)}</figcaption>
        </figure>
    }
}
