//! The privacy lens: LiRA's ROC and its numbers per model (online and offline LiRA, the loss
//! attack, and LiRA on the outliers alone).

use leptos::prelude::*;

use crate::state::Ui;
use crate::views::{Cell, KeyedRows, cell, drawn_apart};

fn attack_rows(ui: Ui) -> impl Fn() -> Vec<Vec<Cell>> + Send + Sync + 'static {
    move || {
        ui.report.with(|r| {
            let Some(r) = r else { return Vec::new() };
            r.runs
                .iter()
                .filter_map(|run| run.attack.as_ref().map(|a| (run, a)))
                .map(|(run, a)| {
                    vec![
                        cell(r.variant(run).label()),
                        Cell { text: format!("{:.3}", a.lira_online.auc), class: "auc" },
                        cell(format!("{:.1}%", 100.0 * a.lira_online.tpr_at(0.01).unwrap_or(0.0))),
                        cell(format!("{:.3}", a.lira_offline.auc)),
                        cell(format!("{:.3}", a.loss.auc)),
                        Cell { text: a.lira_noisy.as_ref().map_or("—".to_string(), |n| format!("{:.3}", n.auc)), class: "auc-noisy" },
                    ]
                })
                .collect()
        })
    }
}

#[component]
pub fn AttackView(ui: Ui) -> impl IntoView {
    // The ROC redraws when the attack's results arrive, not at every epoch.
    let attacked = Memo::new(move |_| ui.report.get().filter(|r| r.runs.iter().any(|x| x.attack.is_some())));
    let roc = drawn_apart(attacked, |r| r.as_ref().map(spotlight_plots::roc_curves).unwrap_or_default());
    let has_attack = move || attacked.with(|r| r.is_some());
    // The loss attack on the live sample, while the models train: redrawn at live read-outs only.
    let live = Memo::new(move |_| {
        ui.report.get().map(|mut r| {
            for run in &mut r.runs {
                run.epochs.clear();
                run.attack = None;
                run.attack_error = None;
            }
            r
        })
    });
    let live_chart = drawn_apart(live, |r| r.as_ref().map(spotlight_plots::live_attack_curves).unwrap_or_default());
    view! {
        <section class="view" id="view-attack">
            <h2>"Privacy: the membership attack"</h2>
            <div class="chart" id="live-attack-chart" inner_html=live_chart></div>
            <Show when=has_attack fallback=|| view! { <p class="pending">"LiRA runs after training (it needs at least 2 shadow models)."</p> }>
                <div class="chart" id="roc-chart" inner_html=roc></div>
            </Show>
            <details class="more">
                <summary>"How to read it, and the numbers"</summary>
                <p class="teach">"An attacker who can query the model guesses whether a sample was in its training set. LiRA trains shadow
                   models with and without each sample and compares the target's confidence with both. AUC 0.5 is guessing; what matters
                   most is the true-positive rate at a tiny false-positive rate (1%): the share of members the attacker finds while wrongly
                   accusing only 1 in 100 non-members. The last column runs LiRA on the outliers alone: flipped and OOD members against
                   flipped and OOD non-members. While the models train, the simplest attack — \"a low loss means member\" — is
                   tried on a small fixed sample of members and non-members, several times per epoch."</p>
                <table class="numbers" id="attack-table">
                    <tr><th>"model"</th><th>"LiRA AUC"</th><th>"TPR @ 1% FPR"</th><th>"offline AUC"</th><th>"loss-attack AUC"</th><th>"LiRA AUC, noisy only"</th></tr>
                    <KeyedRows rows=Signal::derive(attack_rows(ui)) />
                </table>
            </details>
        </section>
    }
}
