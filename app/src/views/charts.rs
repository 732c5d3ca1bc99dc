//! The training lenses, each a chart and its numbers: memorization (accuracy on flipped labels),
//! per-sample influence (how far one step moves a sample's own margin) and the amplifier (γ/σ per
//! BN layer).

use leptos::prelude::*;
use spotlight_core::Report;
use spotlight_i18n::Lang;
use spotlight_i18n::lenses::Outliers;
use spotlight_plots::model_name;

use crate::state::Ui;
use crate::views::{Cell, KeyedRows, cell, drawn_apart, pct};

/// A table's header row: the model, then `columns`, in the page's language.
fn header(
    ui: Ui,
    columns: fn(&'static spotlight_i18n::lenses::Lenses) -> &'static [&'static str],
) -> impl IntoView {
    move || {
        let t = &ui.t().lenses;
        view! { <tr><th>{t.model}</th>{columns(t).iter().map(|c| view! { <th>{*c}</th> }).collect_view()}</tr> }
    }
}

/// The last epoch of each model: flipped, OOD, clean-train and test accuracy.
fn epoch_rows(ui: Ui) -> impl Fn() -> Vec<Vec<Cell>> + Send + Sync + 'static {
    move || {
        let lang = ui.lang.get();
        ui.report.with(|r| {
            let Some(r) = r else { return Vec::new() };
            r.runs
                .iter()
                .filter_map(|run| run.last().map(|e| (run, e)))
                .map(|(run, e)| {
                    vec![
                        cell(model_name(r.variant(run), lang)),
                        cell(lang.int(e.epoch as u64)),
                        cell(pct(e.acc_flipped, lang)),
                        cell(pct(e.acc_ood, lang)),
                        cell(pct(e.acc_clean, lang)),
                        cell(pct(Some(e.acc_test), lang)),
                    ]
                })
                .collect()
        })
    }
}

/// Per model, at the last epoch: the median push of one step on a noisy and on a clean probe's own
/// margin, their ratio, and how the scale-free gradients of the two groups rank.
#[component]
fn GradTable(ui: Ui) -> impl IntoView {
    let rows = move || {
        let lang = ui.lang.get();
        ui.report.with(|r| {
            let Some(r) = r else { return Vec::new() };
            r.runs
                .iter()
                .filter_map(|run| run.mechanism_summary().map(|g| (r.variant(run), g)))
                .map(|(variant, g)| {
                    vec![
                        cell(model_name(variant, lang)),
                        cell(lang.num(g.noisy, 3)),
                        cell(lang.num(g.clean, 3)),
                        cell(g.ratio().map_or("–".into(), |x| format!("{}×", lang.num(x, 2)))),
                        cell(g.scaled_auc.map_or("–".into(), |a| lang.num(a, 2))),
                    ]
                })
                .collect()
        })
    };
    view! {
        <table class="numbers" id="grad-table">
            {header(ui, |t| &t.grad_columns)}
            <KeyedRows rows=Signal::derive(rows) />
        </table>
    }
}

/// The theory lab's bridge to LeNet (`Report::bridge`): per epoch, Π(γ/σ)² against the measured
/// ratio of one SGD step's self-influence, BN ÷ no-BN. From the report the lenses draw (before the
/// first run, the one measured earlier).
#[component]
fn BridgeTable(ui: Ui) -> impl IntoView {
    let times =
        |x: Option<f64>, lang: Lang| x.map_or("–".into(), |x| format!("{}×", lang.num(x, 2)));
    let rows = move || {
        let lang = ui.lang.get();
        let bridge = ui.report.with(|r| r.as_ref().map(Report::bridge)).or_else(|| {
            let first = ui.runs_started.get() == 0;
            first.then(|| crate::state::measured_earlier().map(Report::bridge)).flatten()
        });
        bridge.map_or_else(Vec::new, |rows| {
            rows.into_iter()
                .map(|b| {
                    vec![
                        cell(lang.int(b.epoch as u64)),
                        cell(format!("{}×", lang.num(b.predicted, 1))),
                        cell(times(b.noisy, lang)),
                        cell(times(b.clean, lang)),
                    ]
                })
                .collect()
        })
    };
    view! {
        <table class="numbers" id="bridge-table">
            <tr>{move || ui.t().lenses.bridge_columns.iter().map(|c| view! { <th>{*c}</th> }).collect_view()}</tr>
            <KeyedRows rows=Signal::derive(rows) />
        </table>
    }
}

/// How many outliers each model fits, in a sentence (or what the sentence waits for).
pub fn memorized_sentence(report: Option<&Report>, lang: Lang) -> String {
    let t = &lang.texts().lenses;
    let outliers =
        report.is_some_and(|r| r.config.label_noise > 0.0 || r.config.ood_fraction > 0.0);
    report.and_then(|r| r.memorized()).map_or_else(
        || match report {
            None => t.memorized_waits.to_string(),
            Some(_) if outliers => t.memorized_soon.to_string(),
            Some(_) => t.memorized_none.to_string(),
        },
        |m| {
            (t.memorized_says)(&Outliers {
                epoch: lang.int(m.epoch as u64),
                ood: m.ood,
                of: lang.int(m.of as u64),
                models: m
                    .models
                    .iter()
                    .map(|&(v, n)| (model_name(v, lang), lang.int(n as u64)))
                    .collect(),
            })
        },
    )
}

#[component]
pub fn TrainingViews(ui: Ui) -> impl IntoView {
    // Each chart redraws only when its own inputs change: the training curves do not redraw when
    // the attack's results arrive. The page's language is part of the input: the charts are
    // drawn in it, and redrawn when it changes.
    let training = Memo::new(move |_| {
        let report = ui.shown_report().map(|mut r| {
            for run in &mut r.runs {
                run.attack = None;
                run.attack_error = None;
            }
            r
        });
        (report, ui.lang.get())
    });
    // The per-epoch charts do not redraw at every live read-out.
    let epochs = Memo::new(move |_| {
        let (report, lang) = training.get();
        let report = report.map(|mut r| {
            for run in &mut r.runs {
                run.live.clear();
            }
            r
        });
        (report, lang)
    });
    // The chart, and how many live read-outs it shows.
    let accuracy = drawn_apart(training, |(r, lang)| {
        r.as_ref()
            .map(|r| {
                let title = lang.texts().lenses.accuracy_chart;
                (
                    spotlight_plots::accuracy_curves(&[r], title, *lang),
                    r.runs.iter().map(|x| x.live.len()).sum::<usize>(),
                )
            })
            .unwrap_or_default()
    });
    let grads = drawn_apart(epochs, |(r, lang)| {
        r.as_ref().map(|r| spotlight_plots::grad_norm_histograms(r, *lang)).unwrap_or_default()
    });
    let grad_curves = drawn_apart(epochs, |(r, lang)| {
        r.as_ref().map(|r| spotlight_plots::grad_norm_curves(r, *lang)).unwrap_or_default()
    });
    // GroupNorm and LayerNorm divide by each sample's own σ: their lines are not BN's quantity.
    let per_sample_sigma = move || {
        ui.report.with(|r| {
            r.as_ref().is_some_and(|r| r.runs.iter().any(|run| r.variant(run).norm().per_sample()))
        })
    };
    let gamma = drawn_apart(epochs, |(r, lang)| {
        r.as_ref().map(|r| spotlight_plots::gamma_sigma_curves(&[r], *lang)).unwrap_or_default()
    });
    let shown = move |part: &str| !ui.hides(part);
    // The lesson in words, under the chart, as the run goes: how many outliers each model fits.
    // From the report the charts draw (before the first run, the one measured earlier): no copy of
    // its own.
    let memorized =
        move || training.with(|(report, lang)| memorized_sentence(report.as_ref(), *lang));
    view! {
        <Show when=move || shown("accuracy")>
        <section class="view" id="view-accuracy">
            <h2>{ui.tr(|t| t.lenses.accuracy_heading)}</h2>
            // The live read-outs drawn of this page's run (none while the measured-earlier report shows).
            <div class="chart" id="accuracy-chart" data-live-points=move || if ui.report.with(Option::is_some) { accuracy.with(|a| a.1.to_string()) } else { "0".into() }
                inner_html=move || accuracy.with(|a| a.0.clone())></div>
            <p class="says" id="memorized-says" aria-live="polite">{memorized}</p>
            <details class="more">
                <summary>{ui.tr(|t| t.lenses.more)}</summary>
                <p class="teach">{ui.tr(|t| t.lenses.accuracy_teach)}</p>
                <table class="numbers" id="epoch-table">
                    {header(ui, |t| &t.epoch_columns)}
                    <KeyedRows rows=Signal::derive(epoch_rows(ui)) />
                </table>
            </details>
        </section>
        </Show>
        <Show when=move || shown("gradients")>
        <section class="view" id="view-gradients">
            <h2>{ui.tr(|t| t.lenses.gradients_heading)}</h2>
            <div class="chart" inner_html=grads></div>
            <details class="more">
                <summary>{ui.tr(|t| t.lenses.more)}</summary>
                <p class="teach">{ui.tr(|t| t.lenses.gradients_teach)}</p>
                <div class="chart" inner_html=grad_curves></div>
                <GradTable ui />
            </details>
        </section>
        </Show>
        <Show when=move || shown("gamma")>
        <section class="view" id="view-gamma">
            <h2>{move || if per_sample_sigma() { ui.tr(|t| t.lenses.gamma_heading_any)() } else { ui.tr(|t| t.lenses.gamma_heading)() }}</h2>
            <div class="chart" inner_html=gamma></div>
            <Show when=per_sample_sigma>
                <p class="note" id="gamma-per-sample">{ui.tr(|t| t.lenses.gamma_per_sample)}</p>
            </Show>
            <Show when=move || shown("theory")>
                <p class="to-theory"><a href=format!("#{}", super::theory::ID) on:click=move |ev| {
                    ev.prevent_default();
                    super::theory::open();
                }>{ui.tr(|t| t.theory.open)}</a></p>
            </Show>
            <details class="more">
                <summary>{ui.tr(|t| t.lenses.read)}</summary>
                <p class="teach">{ui.tr(|t| t.lenses.gamma_teach)}</p>
                <p class="teach">{ui.tr(|t| t.lenses.bridge_teach)}</p>
                <BridgeTable ui />
            </details>
        </section>
        </Show>
    }
}
