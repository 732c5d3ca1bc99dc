//! The privacy lens: LiRA's ROC and its numbers per model (online and offline LiRA, the loss
//! attack, and LiRA on the outliers alone), stepping along the ROC to the samples it flags, and
//! what more shadow models buy.

use leptos::prelude::*;
use spotlight_core::Report;
use spotlight_core::attack::{TPR_01_MIN_NON_MEMBERS, variance_for};
use spotlight_core::data::transforms::SampleKind;
use spotlight_core::report::ROC_STEPS;
use spotlight_i18n::Lang;
use spotlight_i18n::lenses::{BudgetSaid, RocFlags};
use spotlight_plots::model_name;

use crate::state::Ui;
use crate::views::gallery::SampleImage;
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
                        // 0.1 % of the non-members must be at least one sample.
                        cell(if a.non_members >= TPR_01_MIN_NON_MEMBERS {
                            lang.pct(a.lira_online.tpr_at(0.001).unwrap_or(0.0), 1)
                        } else {
                            lang.texts().lenses.too_few.to_string()
                        }),
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

/// What more shadow models buy, in a sentence per model: the share of its members LiRA finds at 1 %
/// false positives with the fewest shadow models that score every candidate and with all of them
/// (`None` without a measured curve).
pub fn budget_sentence(r: &Report, lang: Lang) -> Option<String> {
    let said: Vec<String> = r
        .runs
        .iter()
        .filter_map(|run| {
            let a = run.attack.as_ref()?;
            let points = a.budget.as_ref()?.series(true, variance_for(a.shadow_models));
            let last = points.last()?;
            // The fewest shadows that score every candidate the whole attack scores (with fewer,
            // some candidates lack an IN or an OUT model: not the same question).
            let first = points.iter().find(|p| p.scored == last.scored)?;
            (last.shadows > first.shadows).then(|| {
                (lang.texts().lenses.budget_says)(&BudgetSaid {
                    model: model_name(r.variant(run), lang),
                    first: &lang.int(first.shadows as u64),
                    with_first: &lang.pct(first.tpr_1, 1),
                    with_k: &lang.pct(last.tpr_1, 1),
                    k: &lang.int(last.shadows as u64),
                })
            })
        })
        .collect();
    (!said.is_empty()).then(|| said.join(" "))
}

/// Stepping along the ROC: a slider over the false-positive rates an attacker may accept
/// ([`ROC_STEPS`]); at each, per model, what LiRA flags there and the members it is surest of —
/// the aggregate curve as samples.
#[component]
fn RocStep(ui: Ui, attacked: Memo<(Option<Report>, Lang)>) -> impl IntoView {
    // From 0.1 % to all; it opens at 1 %, the attack's own headline.
    let last = ROC_STEPS.len() - 1;
    let step = RwSignal::new(ROC_STEPS.iter().position(|&f| f == 0.01).unwrap_or(0));
    let rows = move || {
        let fpr = ROC_STEPS[step.get().min(last)];
        attacked.with(|(r, lang)| {
            let lang = *lang;
            r.as_ref().map(|r| {
                r.runs
                    .iter()
                    .filter_map(|run| run.attack.as_ref().map(|a| (r.variant(run), a)))
                    .map(|(variant, a)| {
                        let f = a.flags_at(fpr);
                        let shown: Vec<_> = a.exposed[..f.shown].to_vec();
                        let outliers = shown.iter().filter(|e| e.kind != SampleKind::Clean).count();
                        let (n, o) = (lang.int(f.shown as u64), lang.int(outliers as u64));
                        let said = (lang.texts().lenses.roc_flags)(&RocFlags {
                            model: model_name(variant, lang),
                            fpr: &lang.pct(f.fpr, 1),
                            false_positives: &lang.int(f.false_positives as u64),
                            flagged: &lang.int(f.flagged as u64),
                            members: &lang.int(a.members as u64),
                            // Nothing to show where it flags none, or the report keeps no images.
                            shown: (f.shown > 0).then_some((n.as_str(), o.as_str())),
                        });
                        view! {
                            <p class="roc-flags">{said}</p>
                            <div class="gallery flagged">
                                {shown.into_iter().map(|e| {
                                    let class = match e.kind {
                                        SampleKind::Clean => "sample clean",
                                        SampleKind::Flipped => "sample flipped",
                                        SampleKind::Ood => "sample ood",
                                        SampleKind::Canary => "sample canary",
                                    };
                                    view! { <figure class=class><SampleImage pixels=e.pixels /></figure> }
                                }).collect_view()}
                            </div>
                        }
                    })
                    .collect_view()
            })
        })
    };
    view! {
        <div class="roc-step" id="roc-step">
            <label>
                <span>{ui.tr(|t| t.lenses.roc_step)}</span>
                <input type="range" min="0" max=last.to_string() step="1"
                    prop:value=move || step.get().to_string()
                    aria-valuetext=move || ui.lang.get().pct(ROC_STEPS[step.get().min(last)], 1)
                    on:input=move |ev| {
                        if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                            step.set(i.min(last));
                        }
                    } />
            </label>
            {rows}
        </div>
    }
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
    let budget = drawn_apart(attacked, |(r, lang)| {
        r.as_ref().map(|r| spotlight_plots::budget_curves(r, *lang)).unwrap_or_default()
    });
    let budget_says =
        move || attacked.with(|(r, lang)| r.as_ref().and_then(|r| budget_sentence(r, *lang)));
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
                <RocStep ui attacked />
            </Show>
            <details class="more">
                <summary>{ui.tr(|t| t.lenses.more)}</summary>
                <p class="teach">{ui.tr(|t| t.lenses.attack_teach)}</p>
                <table class="numbers" id="attack-table">
                    <tr><th>{ui.tr(|t| t.lenses.model)}</th>{move || t().attack_columns.iter().map(|c| view! { <th>{*c}</th> }).collect_view()}</tr>
                    <KeyedRows rows=Signal::derive(attack_rows(ui)) />
                </table>
                <div class="chart" id="budget-chart" inner_html=budget></div>
                <p class="says" id="budget-says">{budget_says}</p>
            </details>
        </section>
    }
}
