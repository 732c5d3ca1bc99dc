//! "What just happened": at a run's end, the lesson in three sentences — what each model
//! memorized, what the attacker found, and where to go next — above the lenses that show it.

use leptos::prelude::*;

use crate::state::{Activity, Ui};
use crate::views::attack::attack_sentence;
use crate::views::charts::memorized_sentence;

#[component]
pub fn JustHappened(ui: Ui) -> impl IntoView {
    let done =
        move || matches!(ui.activity.get(), Activity::Done) && ui.report.with(Option::is_some);
    let sentences = move || {
        let lang = ui.lang.get();
        let t = &lang.texts().lenses;
        ui.report.with(|r| {
            let Some(r) = r else { return Vec::new() };
            let mut out = vec![memorized_sentence(Some(r), lang)];
            out.extend(attack_sentence(r, lang));
            // Next: the remedy if the run had none, else an outlier of the student's own.
            out.push(
                if r.config.regularizer { t.next_canary } else { t.next_regularizer }.to_string(),
            );
            out
        })
    };
    view! {
        <Show when=done>
            <section id="just-happened" class="summary" aria-live="polite">
                <h2>{ui.tr(|t| t.lenses.just_happened)}</h2>
                {move || sentences().into_iter().map(|s| view! { <p>{s}</p> }).collect_view()}
            </section>
        </Show>
    }
}
