//! The guided tour: four steps through the paper's story — flip labels, watch memorization, run the
//! attack, restrain γ/σ — each pointing at its control or view. A course link opens it at a step
//! (`tour=N`); the button in the header opens it at the first.

use leptos::prelude::*;
use spotlight_core::course::{Course, TOUR_STEPS};
use wasm_bindgen::JsCast;

use crate::state::Ui;

/// The element each step points at (a CSS selector); the steps' titles and texts are the
/// language's (`ui.t().tour.steps`).
pub const TARGETS: [&str; TOUR_STEPS] = [
    "label:has(> [name=label_noise])",
    "#view-accuracy",
    "#view-attack",
    "label:has(> [name=regularizer])",
];

/// Points at a step's element: marks it (an outline) and scrolls it into view; unmarks the last.
fn point_at(target: Option<&str>) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    if let Ok(Some(old)) = doc.query_selector(".tour-target") {
        let _ = old.class_list().remove_1("tour-target");
    }
    if let Some(el) = target.and_then(|t| doc.query_selector(t).ok().flatten()) {
        // A control folded away (the settings on a phone) is unfolded first.
        if let Ok(Some(folded)) = el.closest("details:not([open])") {
            let _ = folded.set_attribute("open", "");
        }
        let _ = el.class_list().add_1("tour-target");
        let opts = web_sys::ScrollIntoViewOptions::new();
        opts.set_block(web_sys::ScrollLogicalPosition::Center);
        el.scroll_into_view_with_scroll_into_view_options(&opts);
    }
}

/// The button that opens the tour.
#[component]
pub fn TourButton(ui: Ui) -> impl IntoView {
    // The first step the page shows (a class page's tour skips the parts its course hides).
    let first = ui.course.with_value(Course::tour_steps).first().copied();
    view! { <button id="tour-open" class="tour-open" hidden=first.is_none() on:click=move |_| ui.tour.set(first)>{ui.tr(|t| t.tour.open)}</button> }
}

/// The tour's panel, while it is open.
#[component]
pub fn Tour(ui: Ui) -> impl IntoView {
    let panel = NodeRef::<leptos::html::Aside>::new();
    Effect::new(move |was_open: Option<bool>| {
        let step = ui.tour.get();
        point_at(step.map(|n| TARGETS[n - 1]));
        // On opening, the panel takes the focus, so that a keyboard user reads the step and
        // reaches its buttons; later steps leave the focus on the button pressed, unless that
        // button is now disabled (Back on the first step) and the focus fell to the page.
        if step.is_some() {
            let opening = was_open != Some(true);
            leptos::task::spawn_local(async move {
                crate::web::yield_now().await;
                let doc = web_sys::window().and_then(|w| w.document());
                let lost = doc.is_some_and(|d| {
                    d.active_element().is_none() || d.active_element() == d.body().map(Into::into)
                });
                if let Some(p) = panel.get_untracked()
                    && (opening || lost)
                {
                    let _ = p.unchecked_ref::<web_sys::HtmlElement>().focus();
                }
            });
        }
        step.is_some()
    });
    let step = move || ui.tour.get().map(|n| &ui.t().tour.steps[n - 1]);
    // The steps this page shows, and where in them the tour is.
    let steps = StoredValue::new(ui.course.with_value(Course::tour_steps));
    let index = move || {
        ui.tour
            .get()
            .and_then(|n| steps.with_value(|s| s.iter().position(|&x| x >= n)))
            .unwrap_or(0)
    };
    let shown = steps.with_value(Vec::len);
    let next = move || steps.with_value(|s| s.get(index() + 1).copied());
    let back = move || steps.with_value(|s| s.get(index().saturating_sub(1)).copied());
    let t = move || &ui.t().tour;
    view! {
        <Show when=move || ui.tour.with(Option::is_some)>
            <aside id="tour" class="tour" role="dialog" aria-labelledby="tour-title" tabindex="-1" node_ref=panel
                on:keydown=move |ev| if ev.key() == "Escape" { ui.tour.set(None) }>
                <p class="tour-count">{move || (t().count)(index() + 1, shown)}</p>
                <h3 id="tour-title">{move || step().map(|s| s.title)}</h3>
                <p id="tour-text">{move || step().map(|s| s.text)}</p>
                <div class="buttons">
                    <button id="tour-back" disabled=move || index() == 0 on:click=move |_| ui.tour.set(back())>{ui.tr(|t| t.tour.back)}</button>
                    <button id="tour-next" on:click=move |_| ui.tour.set(next())>
                        {move || if index() + 1 < shown { t().next } else { t().finish }}
                    </button>
                    <button id="tour-close" on:click=move |_| ui.tour.set(None)>{ui.tr(|t| t.tour.close)}</button>
                </div>
            </aside>
        </Show>
    }
}
