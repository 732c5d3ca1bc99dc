//! The share link: the whole experiment (and the backend the page was opened with) in a URL, with a
//! copy button and the link itself, selectable, for when the clipboard is refused.

use leptos::prelude::*;
use leptos::task::spawn_local;
use spotlight_core::course::{self, Course, TOUR_STEPS};
use spotlight_i18n::controls::{Controls, LinkTexts};

use crate::state::Ui;
use crate::web;

/// A link with a button that copies it, the link itself shown, selectable (for when the clipboard
/// is refused), and what the copy did. `ids`: the button's and the link's; `texts`: its texts among
/// the page's (in the page's language, followed when it changes).
#[component]
fn CopyableLink(
    ui: Ui,
    ids: (&'static str, &'static str),
    texts: fn(&'static Controls) -> &'static LinkTexts,
    #[prop(into)] link: Signal<String>,
) -> impl IntoView {
    // What the last copy did: nothing yet, done, or the browser's reason for refusing.
    let copied = RwSignal::new(None::<Result<(), String>>);
    let said = move || {
        let t = &ui.t().controls;
        match copied.get() {
            None => String::new(),
            Some(Ok(())) => texts(t).done.to_string(),
            Some(Err(e)) => format!("{} ({e}); {}", t.copy_failed, t.select_below),
        }
    };
    view! {
        <div class="buttons">
            <button id=ids.0 on:click=move |_| {
                let text = link.get_untracked();
                spawn_local(async move {
                    copied.set(Some(web::copy(&text).await));
                });
            }>{move || texts(&ui.t().controls).button}</button>
        </div>
        <input id=ids.1 class="share" readonly prop:value=move || link.get() aria-label=move || texts(&ui.t().controls).label />
        <span class="copied">{said}</span>
    }
}

#[component]
pub fn ShareLink(ui: Ui) -> impl IntoView {
    let link =
        Signal::derive(move || format!("{}?{}", web::base_url(), ui.share_query(&ui.config.get())));
    view! { <CopyableLink ui ids=("copy-link", "share-link") texts=|t| &t.share link /> }
}

/// A teacher's course link: the experiment in the controls, the parts of the page the class sees
/// (unticked: hidden), the tour's first step and the page's language, with a copy button.
#[component]
pub fn CourseLink(ui: Ui) -> impl IntoView {
    let parts = course::parts();
    let shown = RwSignal::new(parts.iter().map(|p| !ui.hides(p)).collect::<Vec<bool>>());
    let tour = RwSignal::new(0usize);
    let course = move || {
        let hidden =
            course::parts().into_iter().zip(shown.get()).filter(|(_, s)| !s).map(|(p, _)| p);
        Course::new(hidden, (tour.get() > 0).then(|| tour.get()))
            .with_lang(Some(ui.lang.get().code()))
    };
    let link = Signal::derive(move || {
        format!("{}?{}", web::base_url(), ui.link_query(&ui.config.get(), course()))
    });
    let boxes = parts
        .into_iter()
        .enumerate()
        .map(|(i, part)| {
            let label = move || ui.t().fields.part(part).unwrap_or(part);
            view! {
                <label class="toggle">
                    <input type="checkbox" name=format!("show-{part}") prop:checked=move || shown.with(|s| s[i])
                        on:change=move |ev| shown.update(|s| s[i] = event_target_checked(&ev)) />
                    <span>{label}</span>
                </label>
            }
        })
        .collect_view();
    view! {
        <details class="course more" id="course">
            <summary>{ui.tr(|t| t.controls.course)}</summary>
            <p class="hint">{ui.tr(|t| t.controls.course_hint)}</p>
            <div class="buttons">
                <button id="course-none" on:click=move |_| shown.update(|s| s.fill(false))>{ui.tr(|t| t.controls.course_none)}</button>
                <button id="course-all" on:click=move |_| shown.update(|s| s.fill(true))>{ui.tr(|t| t.controls.course_all)}</button>
            </div>
            <div class="course-parts">{boxes}</div>
            <label class="field">
                <span>{ui.tr(|t| t.controls.tour_opens)}</span>
                <select name="course-tour" on:change=move |ev| tour.set(event_target_value(&ev).parse().unwrap_or(0))>
                    <option value="0">{ui.tr(|t| t.controls.no_tour)}</option>
                    {(1..=TOUR_STEPS).map(|n| view! { <option value=n.to_string()>{move || format!("{n}. {}", ui.t().tour.steps[n - 1].title)}</option> }).collect_view()}
                </select>
            </label>
            <CopyableLink ui ids=("copy-course-link", "course-link") texts=|t| &t.course_link link />
        </details>
    }
}
