//! The language menu: the page's languages, each by its own name; a pick switches every text of
//! the page and the links it writes (`Ui::set_lang`).

use leptos::prelude::*;
use spotlight_i18n::Lang;

use crate::state::Ui;

#[component]
pub fn LanguageMenu(ui: Ui) -> impl IntoView {
    view! {
        <label class="lang-menu">
            <span>{ui.tr(|t| t.controls.language)}</span>
            <select id="lang" name="lang" prop:value=move || ui.lang.get().code()
                on:change=move |ev| {
                    if let Some(lang) = Lang::parse(&event_target_value(&ev)) {
                        ui.set_lang(lang);
                    }
                }>
                {Lang::ALL
                    .into_iter()
                    .map(|l| view! { <option value=l.code()>{l.name()}</option> })
                    .collect_view()}
            </select>
        </label>
    }
}
