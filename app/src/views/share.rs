//! The share link: the whole experiment (and the backend the page was opened with) in a URL, with a
//! copy button and the link itself, selectable, for when the clipboard is refused.

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::state::Ui;
use crate::web;

#[component]
pub fn ShareLink(ui: Ui) -> impl IntoView {
    let copied = RwSignal::new(String::new());
    let link_text = move || format!("{}?{}", web::base_url(), ui.share_query(&ui.config.get()));
    view! {
        <div class="buttons">
            <button id="copy-link" on:click=move |_| {
                let text = link_text();
                spawn_local(async move {
                    copied.set(match web::copy(&text).await {
                        Ok(()) => "Link copied.".into(),
                        Err(e) => format!("Copy failed ({e}); select the link below."),
                    });
                });
            }>"Copy link"</button>
        </div>
        <input id="share-link" class="share" readonly prop:value=link_text aria-label="share link" />
        <span class="copied">{move || copied.get()}</span>
    }
}
