//! The training lenses, each a chart and its numbers: memorization (accuracy on flipped labels),
//! per-sample influence (gradient norms inside a batch) and the amplifier (γ/σ per BN layer).

use leptos::prelude::*;

use crate::state::Ui;
use crate::views::{Cell, KeyedRows, cell, drawn_apart, pct};

/// The last epoch of each model: flipped, OOD, clean-train and test accuracy.
fn epoch_rows(ui: Ui) -> impl Fn() -> Vec<Vec<Cell>> + Send + Sync + 'static {
    move || {
        ui.report.with(|r| {
            let Some(r) = r else { return Vec::new() };
            r.runs
                .iter()
                .filter_map(|run| run.last().map(|e| (run, e)))
                .map(|(run, e)| {
                    vec![
                        cell(r.variant(run).label()),
                        cell(e.epoch.to_string()),
                        cell(pct(e.acc_flipped)),
                        cell(pct(e.acc_ood)),
                        cell(pct(e.acc_clean)),
                        cell(pct(Some(e.acc_test))),
                    ]
                })
                .collect()
        })
    }
}

/// Per model: the mean over the trained epochs of the median noisy and clean gradient norm, and
/// their ratio.
#[component]
fn GradTable(ui: Ui) -> impl IntoView {
    let rows = move || {
        ui.report.with(|r| {
            let Some(r) = r else { return Vec::new() };
            r.runs
                .iter()
                .filter_map(|run| run.grad_norm_summary().map(|g| (r.variant(run), g)))
                .map(|(variant, g)| {
                    vec![
                        cell(variant.label()),
                        cell(format!("{:.3}", g.noisy)),
                        cell(format!("{:.3}", g.clean)),
                        cell(format!("{:.2}×", g.ratio())),
                    ]
                })
                .collect()
        })
    };
    view! {
        <table class="numbers" id="grad-table">
            <tr><th>"model"</th><th>"noisy ‖∇ℓ‖ (median; mean over epochs 1…n)"</th><th>"clean ‖∇ℓ‖ (median; mean over epochs 1…n)"</th><th>"noisy / clean"</th></tr>
            <KeyedRows rows=Signal::derive(rows) />
        </table>
    }
}

#[component]
pub fn TrainingViews(ui: Ui) -> impl IntoView {
    // Each chart redraws only when its own inputs change: the training curves do not redraw when
    // the attack's results arrive.
    let training = Memo::new(move |_| {
        ui.report.get().map(|mut r| {
            for run in &mut r.runs {
                run.attack = None;
                run.attack_error = None;
            }
            r
        })
    });
    // The per-epoch charts do not redraw at every live read-out.
    let epochs = Memo::new(move |_| {
        training.get().map(|mut r| {
            for run in &mut r.runs {
                run.live.clear();
            }
            r
        })
    });
    // The chart, and how many live read-outs it shows.
    let accuracy = drawn_apart(training, |r| {
        r.as_ref()
            .map(|r| {
                (spotlight_plots::accuracy_curves(&[r], "Accuracy while training"), r.runs.iter().map(|x| x.live.len()).sum::<usize>())
            })
            .unwrap_or_default()
    });
    let grads = drawn_apart(epochs, |r| r.as_ref().map(spotlight_plots::grad_norm_histograms).unwrap_or_default());
    let grad_curves = drawn_apart(epochs, |r| r.as_ref().map(spotlight_plots::grad_norm_curves).unwrap_or_default());
    let gamma = drawn_apart(epochs, |r| r.as_ref().map(|r| spotlight_plots::gamma_sigma_curves(&[r])).unwrap_or_default());
    let shown = move |part: &str| !ui.hides(part);
    view! {
        <Show when=move || shown("accuracy")>
        <section class="view" id="view-accuracy">
            <h2>"Memorization: accuracy on flipped labels"</h2>
            <div class="chart" id="accuracy-chart" data-live-points=move || accuracy.with(|a| a.1.to_string()) inner_html=move || accuracy.with(|a| a.0.clone())></div>
            <details class="more">
                <summary>"How to read it, and the numbers"</summary>
                <p class="teach">"A flipped label is wrong on purpose: nothing in the image points to it, so the only way to get it
                   \"right\" is to memorize that one sample. Accuracy on flipped samples (thick lines) is memorization;
                   clean-train and test accuracy (thin) are learning. The paper: models with BN fit the flipped labels faster and further.
                   The lines move while a model trains: they follow a fixed sample of the training set (up to 64 noisy and 64 clean
                   members), several times per epoch; the markers are each epoch's measurement of all of them."</p>
                <table class="numbers" id="epoch-table">
                    <tr><th>"model"</th><th>"epoch"</th><th>"flipped"</th><th>"OOD"</th><th>"clean train"</th><th>"test"</th></tr>
                    <KeyedRows rows=Signal::derive(epoch_rows(ui)) />
                </table>
            </details>
        </section>
        </Show>
        <Show when=move || shown("gradients")>
        <section class="view" id="view-gradients">
            <h2>"Per-sample influence: gradient norms"</h2>
            <div class="chart" inner_html=grads></div>
            <details class="more">
                <summary>"How to read it, and the numbers"</summary>
                <p class="teach">"How hard one sample pulls on the model. Each probe sample joins a training batch of batch_size−1 clean
                   members; BN uses that batch's statistics (the running statistics are left alone); we take the length of the gradient
                   of that sample's own loss over every weight, before training (epoch 0) and after each epoch. The paper: with BN,
                   noisy samples' norms shift much higher than clean ones'. The histogram is the last epoch; the curves are the
                   medians per epoch; the table averages those medians over the trained epochs."</p>
                <div class="chart" inner_html=grad_curves></div>
                <GradTable ui />
            </details>
        </section>
        </Show>
        <Show when=move || shown("gamma")>
        <section class="view" id="view-gamma">
            <h2>"The amplifier: γ/σ per BN layer"</h2>
            <div class="chart" inner_html=gamma></div>
            <details class="more">
                <summary>"How to read it"</summary>
                <p class="teach">"BN divides each channel by the batch's standard deviation σ and multiplies it by a learned scale γ.
                   The paper shows that in a (stochastic) gradient-descent step the progress on an outlier is multiplied by (γ/σ)², and
                   that outliers push γ up — a feedback loop. With Adam (the default optimizer) the step on each weight is normalized by
                   the running size of that weight's own gradients, so the factor enters once, not squared. The chart shows, per BN layer, the median
                   over channels of γ/σ with the batch σ (measured on a fixed batch), from epoch 0, the untrained model. Above the line
                   γ/σ = 1, BN amplifies — but γ/σ starts above 1 already at initialization (γ = 1, and with PyTorch-style
                   initialization the σ of the pre-BN activations is below 1), so what shows the feedback loop is the change from
                   epoch 0 and the difference between noise levels (compare a run with 0% and one with 20% flipped labels). The
                   regularizer holds γ/σ down, by one of four rules: a penalty λ times the sum over BN layers of the mean over
                   channels of (γ/σ)² with σ held fixed (the gradient reaches γ alone: inert, kept for comparison), of (γ/σ)² with the
                   gradient through σ too, or of the hinge max(0, γ/σ − 1)², which charges only channels above 1; or no penalty but
                   clipping |γ| ≤ τ·σ after each step."</p>
            </details>
        </section>
        </Show>
    }
}
