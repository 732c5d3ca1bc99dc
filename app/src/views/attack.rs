//! The privacy lens: LiRA's ROC and its numbers per model (online and offline LiRA, the loss
//! attack, and LiRA on the outliers alone).

use leptos::prelude::*;
use spotlight_core::Report;
use spotlight_i18n::Lang;
use spotlight_plots::model_name;

use crate::state::Ui;
use crate::views::{Cell, KeyedRows, cell, drawn_apart};

fn attack_rows(ui: Ui) -> impl Fn() -> Vec<Vec<Cell>> + Send + Sync + 'static {
    move || {
        let lang = ui.lang.get();
        let auc = |x: f64| lang.num(x, 3);
        ui.report.with(|r| {
            let Some(r) = r else { return Vec::new() };
            r.runs
                .iter()
                .filter_map(|run| run.attack.as_ref().map(|a| (run, a)))
                .map(|(run, a)| {
                    vec![
                        cell(model_name(r.variant(run), lang)),
                        Cell { text: auc(a.lira_online.auc), class: "auc" },
                        cell(lang.pct(a.lira_online.tpr_at(0.01).unwrap_or(0.0), 1)),
                        cell(auc(a.lira_offline.auc)),
                        cell(auc(a.loss.auc)),
                        Cell {
                            text: a.lira_noisy.as_ref().map_or("—".to_string(), |n| auc(n.auc)),
                            class: "auc-noisy",
                        },
                    ]
                })
                .collect()
        })
    }
}

/// The attack in a sentence: the share of each model's members LiRA finds at 1 % false positives
/// (`None` before the attack).
pub fn attack_sentence(r: &Report, lang: Lang) -> Option<String> {
    let models: Vec<(&str, String)> = r
        .runs
        .iter()
        .filter_map(|run| {
            run.attack.as_ref().map(|a| {
                (
                    model_name(r.variant(run), lang),
                    lang.pct(a.lira_online.tpr_at(0.01).unwrap_or(0.0), 1),
                )
            })
        })
        .collect();
    (!models.is_empty()).then(|| (lang.texts().lenses.attack_says)(&models))
}

#[component]
pub fn AttackView(ui: Ui) -> impl IntoView {
    // The ROC redraws when the attack's results arrive, not at every epoch; the charts redraw in
    // the page's language when it changes (it is part of their input).
    let attacked = Memo::new(move |_| {
        (ui.shown_report().filter(|r| r.runs.iter().any(|x| x.attack.is_some())), ui.lang.get())
    });
    let roc = drawn_apart(attacked, |(r, lang)| {
        r.as_ref().map(|r| spotlight_plots::roc_curves(r, *lang)).unwrap_or_default()
    });
    let has_attack = move || attacked.with(|(r, _)| r.is_some());
    // The loss attack on the live sample, while the models train: redrawn at live read-outs only.
    let live = Memo::new(move |_| {
        let report = ui.shown_report().map(|mut r| {
            for run in &mut r.runs {
                run.epochs.clear();
                run.attack = None;
                run.attack_error = None;
            }
            r
        });
        (report, ui.lang.get())
    });
    let live_chart = drawn_apart(live, |(r, lang)| {
        r.as_ref().map(|r| spotlight_plots::live_attack_curves(r, *lang)).unwrap_or_default()
    });
    let t = move || &ui.t().lenses;
    // The attack in words: the share of each model's members LiRA finds at 1 % false positives.
    // From the ROC's own input (before the first run, the report measured earlier): no copy of its own.
    let says =
        move || attacked.with(|(r, lang)| r.as_ref().and_then(|r| attack_sentence(r, *lang)));
    view! {
        <section class="view" id="view-attack">
            <h2>{ui.tr(|t| t.lenses.attack_heading)}</h2>
            <div class="chart" id="live-attack-chart" inner_html=live_chart></div>
            <Show when=has_attack fallback=move || view! { <p class="pending">{ui.tr(|t| t.lenses.lira_pending)}</p> }>
                <div class="chart" id="roc-chart" inner_html=roc></div>
                <p class="says" id="attack-says">{says}</p>
            </Show>
            <details class="more">
                <summary>{ui.tr(|t| t.lenses.more)}</summary>
                <p class="teach">{ui.tr(|t| t.lenses.attack_teach)}</p>
                <table class="numbers" id="attack-table">
                    <tr><th>{ui.tr(|t| t.lenses.model)}</th>{move || t().attack_columns.iter().map(|c| view! { <th>{*c}</th> }).collect_view()}</tr>
                    <KeyedRows rows=Signal::derive(attack_rows(ui)) />
                </table>
            </details>
        </section>
    }
}
