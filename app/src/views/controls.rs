//! The experiment's settings: a preset menu, then one control per field of the core's field table
//! (`config::FIELDS`: its kind picks the control, its range and help text fill it in), the run and
//! cancel buttons, and the share link.

use leptos::prelude::*;
use spotlight_core::config::{
    BASIC, Config, ConfigError, ConfigProblem, FIELDS, Field, Kind, presets,
};
use spotlight_i18n::controls::{CpuSize, PRESETS};
use spotlight_i18n::say::notice;

use crate::session;
use crate::state::Ui;
use crate::views::share::{CourseLink, ShareLink};

/// The field's value as a control shows it.
fn shown(ui: Ui, field: &'static Field) -> String {
    match ui.config.with(|c| c.get(field.name)) {
        Some(serde_json::Value::String(s)) => s,
        Some(v) => v.to_string(),
        None => String::new(),
    }
}

/// Applies a control's text through the field table: clamped (and said so), or refused with the
/// reason and the old value shown again; a combination that cannot run is not applied.
fn apply(ui: Ui, field: &'static Field, raw: &str) {
    let (name, lang) = (field.name, ui.lang_now());
    let redraw = move || ui.config.set(ui.config.get_untracked());
    let read = match field.read(raw) {
        Ok(read) => read,
        Err(reason) => {
            ui.notice(notice::invalid_control(lang, name, raw, &reason, &shown(ui, field)));
            return redraw();
        }
    };
    if let (Some(to), Some(r)) = (read.clamped, field.range()) {
        ui.notice(notice::clamped_control(lang, name, raw, to, r));
    }
    let mut c = ui.config.get_untracked();
    let set = c
        .set(name, read.value)
        .map_err(|e| ConfigError { field: name.to_string(), problem: ConfigProblem::Json(e) });
    if let Err(e) = set.and_then(|()| c.validate()) {
        ui.notice(notice::not_applied(lang, &e));
        return redraw();
    }
    ui.set_config(c);
}

/// One field's control, by its kind: a checkbox, a menu, a slider (fractions) or a number box. Its
/// label, help and options in the page's language (its name, or an option's value, if a text were
/// missing: the i18n crate's tests check none is).
#[component]
fn Control(ui: Ui, field: &'static Field) -> impl IntoView {
    let name = field.name;
    let value = move || shown(ui, field);
    let on_change = move |ev: leptos::ev::Event| apply(ui, field, &event_target_value(&ev));
    let label = move || ui.t().fields.field(name).map_or(name, |t| t.label);
    // A setting the rest of the config makes moot (the single model's BN in a comparison, …).
    let inert = move || ui.config.with(|c| c.inert(name));
    let help = move || ui.t().fields.field(name).map_or("", |t| t.help);
    match field.kind {
        Kind::Bool => view! {
            <label class="field toggle" title=help>
                <input type="checkbox" name=name prop:checked=move || value() == "true" prop:disabled=inert
                    on:change=move |ev| apply(ui, field, if event_target_checked(&ev) { "true" } else { "false" }) />
                <span>{label}</span>
            </label>
        }
        .into_any(),
        Kind::Choice(options) => view! {
            <label class="field" title=help>
                <span>{label}</span>
                <select name=name prop:value=value prop:disabled=inert on:change=on_change>
                    {options
                        .iter()
                        .enumerate()
                        .map(|(i, &v)| {
                            let text = move || ui.t().fields.field(name).and_then(|f| f.options.get(i).copied()).unwrap_or(v);
                            view! { <option value=v>{text}</option> }
                        })
                        .collect_view()}
                </select>
            </label>
        }
        .into_any(),
        Kind::Number(r) if r.percent => view! {
            <label class="field slider" title=help>
                <span>{label}" "<b>{move || ui.lang.get().pct(value().parse::<f64>().unwrap_or(0.0), 0)}</b></span>
                <input type="range" name=name min=r.min.to_string() max=r.max.to_string() step=r.step.to_string()
                    prop:value=value on:change=on_change />
            </label>
        }
        .into_any(),
        // A real number in a text box (`type="number"` writes the browser's decimal point, not the
        // page's language's): shown and read the language's way.
        Kind::Number(r) if !r.integer => view! {
            <label class="field" title=help>
                <span>{label}</span>
                <input type="text" inputmode="decimal" name=name autocomplete="off"
                    prop:value=move || ui.lang.get().plain(value()) prop:disabled=inert
                    on:change=move |ev| apply(ui, field, &ui.lang_now().typed_number(&event_target_value(&ev))) />
            </label>
        }
        .into_any(),
        Kind::Number(r) => view! {
            <label class="field" title=help>
                <span>{label}</span>
                <input type="number" name=name min=r.min.to_string() max=r.max.to_string() step=r.step.to_string()
                    prop:value=value prop:disabled=inert on:change=on_change />
            </label>
        }
        .into_any(),
        Kind::Seed => view! {
            <label class="field" title=help>
                <span>{label}</span>
                <input type="number" name=name min="0" step="1" prop:value=value on:change=on_change />
            </label>
        }
        .into_any(),
        // Drawn on the canary's pad (`views::canary`), not typed.
        Kind::Drawing => ().into_any(),
    }
}

#[component]
pub fn Controls(ui: Ui) -> impl IntoView {
    let running = move || {
        ui.activity.with(|a| {
            matches!(a, crate::state::Activity::Loading(_) | crate::state::Activity::Training)
        })
    };
    // Said when the page's default is not the paper-like one (a CPU backend), while the run keeps
    // its size (a link that sets another size is not "sized for the CPU").
    let sized = move || {
        let (base, full) = (ui.base.get(), Config::default());
        let kept = ui.config.with(|c| c.train_size == base.train_size && c.epochs == base.epochs);
        let size = CpuSize {
            train: base.train_size as u64,
            epochs: base.epochs as u64,
            gpu_train: full.train_size as u64,
            gpu_epochs: full.epochs as u64,
        };
        (base != full && kept).then(|| (ui.t().controls.sized)(&size))
    };
    let fields = move |basic: bool| {
        FIELDS
            .iter()
            .filter(move |f| {
                !f.name.starts_with("canary")
                    && !ui.hides(f.name)
                    && BASIC.contains(&f.name) == basic
            })
            .map(|field| view! { <Control ui field /> })
            .collect_view()
    };
    // On a phone the settings start folded under their heading, so that the lenses are near the top.
    let narrow = web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|w| w.as_f64())
        .is_some_and(|w| w <= 700.0);
    view! {
        <section class="controls" aria-label=ui.tr(|t| t.controls.section_label)>
            <div class="buttons">
                <button id="run" on:click=move |_| session::start(ui) disabled=move || ui.activity.with(|a| a.busy())>
                    {move || if ui.report.with(|r| r.is_some()) { ui.t().controls.rerun } else { ui.t().controls.run }}
                </button>
                <button id="cancel" on:click=move |_| session::stop(ui) disabled=move || !running()>{ui.tr(|t| t.controls.cancel)}</button>
            </div>
            <details class="settings more" open=!narrow>
                <summary>{ui.tr(|t| t.controls.settings)}</summary>
                <div class="settings-fields">{fields(true)}</div>
            </details>
            <p id="sized-note" class="sized">{sized}</p>
            // The canary's two fields are the pad's (`views::canary`).
            <details class="advanced more" open=ui.course_unfolds()>
                <summary>{ui.tr(|t| t.controls.advanced)}</summary>
            <label class="field wide" hidden=ui.hides("preset")>
                <span>{ui.tr(|t| t.controls.preset)}</span>
                <select name="preset" on:change=move |ev| {
                    if let Ok(i) = event_target_value(&ev).parse::<usize>()
                        && let Some(c) = presets(&ui.base.get_untracked()).into_iter().nth(i)
                    {
                        // A preset keeps the student's drawing.
                        let now = ui.config.get_untracked();
                        ui.set_config(Config { canary: now.canary, canary_label: now.canary_label, ..c })
                    }
                }>
                    <option value="">{ui.tr(|t| t.controls.paper_settings)}</option>
                    {(0..PRESETS)
                        .map(|i| view! { <option value=i.to_string()>{move || ui.t().controls.presets[i]}</option> })
                        .collect_view()}
                </select>
            </label>
                <div class="settings-fields">{fields(false)}</div>
                <Show when=move || !ui.hides("share")><ShareLink ui /></Show>
                // A class page (its link hides parts) has no builder of its own.
                <Show when=move || ui.course.with_value(|c| c.hidden().is_empty())><CourseLink ui /></Show>
            </details>
        </section>
    }
}
