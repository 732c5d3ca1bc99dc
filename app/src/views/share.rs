//! The share link: the whole experiment (and the backend the page was opened with) in a URL, with a
//! copy button and the link itself, selectable, for when the clipboard is refused.

use leptos::prelude::*;
use leptos::task::spawn_local;
use spotlight_core::course::{self, Course, TOUR_STEPS};

use crate::state::Ui;
use crate::views::tour::STEPS;
use crate::web;

/// A link with a button that copies it, the link itself shown, selectable (for when the clipboard
/// is refused), and what the copy did. `ids`: the button's and the link's.
#[component]
fn CopyableLink(
    ids: (&'static str, &'static str),
    button: &'static str,
    label: &'static str,
    done: &'static str,
    #[prop(into)] link: Signal<String>,
) -> impl IntoView {
    let copied = RwSignal::new(String::new());
    view! {
        <div class="buttons">
            <button id=ids.0 on:click=move |_| {
                let text = link.get_untracked();
                spawn_local(async move {
                    copied.set(match web::copy(&text).await {
                        Ok(()) => done.to_string(),
                        Err(e) => format!("Copy failed ({e}); select the link below."),
                    });
                });
            }>{button}</button>
        </div>
        <input id=ids.1 class="share" readonly prop:value=move || link.get() aria-label=label />
        <span class="copied">{move || copied.get()}</span>
    }
}

#[component]
pub fn ShareLink(ui: Ui) -> impl IntoView {
    let link = Signal::derive(move || format!("{}?{}", web::base_url(), ui.share_query(&ui.config.get())));
    view! { <CopyableLink ids=("copy-link", "share-link") button="Copy link" label="share link" done="Link copied." link /> }
}

/// A teacher's course link: the experiment in the controls, the parts of the page the class sees
/// (unticked: hidden) and the tour's first step, with a copy button.
#[component]
pub fn CourseLink(ui: Ui) -> impl IntoView {
    let parts = course::parts();
    let shown = RwSignal::new(parts.iter().map(|(p, _)| !ui.hides(p)).collect::<Vec<bool>>());
    let tour = RwSignal::new(0usize);
    let course = move || {
        let hidden = course::parts().into_iter().zip(shown.get()).filter(|(_, s)| !s).map(|((p, _), _)| p);
        Course::new(hidden, (tour.get() > 0).then(|| tour.get()))
    };
    let link = Signal::derive(move || format!("{}?{}", web::base_url(), ui.link_query(&ui.config.get(), course())));
    let boxes = parts
        .into_iter()
        .enumerate()
        .map(|(i, (part, label))| {
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
            <summary>"Course link, for a class"</summary>
            <p class="hint">"Untick what the class should not see. The link opens this experiment, with the tour at the step you pick."</p>
            <div class="course-parts">{boxes}</div>
            <label class="field">
                <span>"Tour opens at"</span>
                <select name="course-tour" on:change=move |ev| tour.set(event_target_value(&ev).parse().unwrap_or(0))>
                    <option value="0">"no tour"</option>
                    {(1..=TOUR_STEPS).map(|n| view! { <option value=n.to_string()>{format!("{n}. {}", STEPS[n - 1].title)}</option> }).collect_view()}
                </select>
            </label>
            <CopyableLink ids=("copy-course-link", "course-link") button="Copy course link" label="course link"
                done="Course link copied." link />
        </details>
    }
}
