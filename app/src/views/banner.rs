//! The backend banner and the notices (what in a link or a control could not be used as given).

use leptos::prelude::*;

use crate::state::{Activity, Ui};

/// Which backend the page trains on, why when it is not WebGPU, and where the models train.
#[component]
pub fn Banner(ui: Ui) -> impl IntoView {
    let text = move || match ui.backend.get() {
        None => "Backend: starting (WebGPU if this browser has it, else the CPU)…".to_string(),
        Some(be) => {
            let ran = !matches!(ui.activity.get(), Activity::Idle | Activity::Benchmarking);
            let place = match ui.gpu_on_page.get() {
                Some(why) if be.gpu => format!("training on the page's thread: {why}"),
                _ => "training in Web Workers".into(),
            };
            format!("{} {} — {place}", if ran { "Training on" } else { "Backend:" }, be.describe())
        }
    };
    let class = move || if ui.backend.get().is_some_and(|b| b.gpu) { "banner gpu" } else { "banner cpu" };
    view! { <div id="backend-banner" class=class>{text}</div> }
}

#[component]
pub fn Notices(ui: Ui) -> impl IntoView {
    let keyed = move || ui.notices.get().into_iter().enumerate().collect::<Vec<_>>();
    view! {
        <Show when=move || ui.notices.with(|n| !n.is_empty())>
            <div id="notices" class="notices" role="status">
                <strong>"Some settings were not used as given:"</strong>
                <ul><For each=keyed key=|n| n.clone() children=|(_, n)| view! { <li>{n}</li> } /></ul>
                <button on:click=move |_| ui.notices.set(Vec::new())>"Dismiss"</button>
            </div>
        </Show>
    }
}
