//! The theory lab: the paper's analysis model (`spotlight_core::theory`: a linear filter, BN or
//! not, a linear classifier, one mislabelled outlier) trained on the page's thread — a whole run
//! takes milliseconds — and shown step by step: the data with each model's boundary, the outlier's
//! margin, the measured growth factor against the theorem's (γ/σ)², and γ with and without the
//! outlier. A fold of its own, opened from the γ/σ lens; a course link can hide it (`theory`).

use leptos::prelude::*;
use spotlight_core::theory::{self, Optimizer, TheoryConfig, TheoryReport};
use spotlight_i18n::Lang;

use crate::state::Ui;
use crate::web;

/// The id of the lab's fold (the γ/σ lens links to it).
pub const ID: &str = "theory-lab";

/// Steps a frame advances while playing, and the frame's pause.
const PLAY_STRIDE: usize = 2;
const PLAY_FRAME_MS: i32 = 40;

/// The learning rates offered, per optimizer (the core's default among them).
fn rates(o: Optimizer) -> &'static [f64] {
    match o {
        Optimizer::Sgd => &[0.01, 0.03, 0.1, 0.3, 1.0],
        Optimizer::Adam => &[0.001, 0.003, 0.01, 0.03, 0.1],
    }
}

/// The batch sizes offered.
const BATCHES: [usize; 5] = [4, 8, 16, 24, 48];

/// Opens the lab's fold and scrolls to it (from the γ/σ lens's link).
pub fn open() {
    if let Some(e) =
        web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(ID))
    {
        let _ = e.set_attribute("open", "");
        e.scroll_into_view();
    }
}

/// Where a click on the data chart falls in the plane (its SVG's `data-frame`), rounded to the
/// sliders' step and kept in their range.
fn clicked(ev: &leptos::ev::MouseEvent) -> Option<(f64, f64)> {
    use wasm_bindgen::JsCast;
    let div = ev.current_target()?.dyn_into::<web_sys::Element>().ok()?;
    let svg = div.query_selector("svg").ok()??;
    let frame = svg.get_attribute("data-frame")?;
    let width: f64 = svg.get_attribute("viewBox")?.split_whitespace().nth(2)?.parse().ok()?;
    let rect = svg.get_bounding_client_rect();
    let scale = rect.width() / width;
    let px = (f64::from(ev.client_x()) - rect.left()) / scale;
    let py = (f64::from(ev.client_y()) - rect.top()) / scale;
    let (x, y) = spotlight_plots::theory_point(&frame, px, py)?;
    let snap = |v: f64, lim: f64| ((v / 0.05).round() * 0.05).clamp(-lim, lim);
    Some((snap(x, 2.0), snap(y, 1.5)))
}

#[component]
pub fn TheoryLab(ui: Ui) -> impl IntoView {
    let config = RwSignal::new(TheoryConfig::default());
    // A run is milliseconds: the whole of it, again on every change of a setting.
    let report = Memo::new(move |_| config.with(theory::run));
    let upto = RwSignal::new(0usize);
    let playing = RwSignal::new(false);
    let open = RwSignal::new(false);
    let total = move || report.with(|r| r.as_ref().map_or(0, |r| r.steps.len()));
    // A new setting starts the run from its beginning.
    Effect::new(move |_| {
        config.track();
        upto.set(0);
        playing.set(false);
    });
    // Each Play starts a loop of its own generation; a loop whose generation is not the latest
    // ends (a Pause and a Play within one frame would otherwise leave two loops stepping).
    let generation = StoredValue::new(0u64);
    let total_now = move || report.with_untracked(|r| r.as_ref().map_or(0, |r| r.steps.len()));
    let play = move || {
        if playing.get_untracked() {
            return playing.set(false);
        }
        if upto.get_untracked() >= total_now() {
            upto.set(0);
        }
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        playing.set(true);
        leptos::task::spawn_local(async move {
            let current = move || generation.try_get_value() == Some(mine);
            while current() && playing.get_untracked() && upto.get_untracked() < total_now() {
                upto.update(|u| *u = (*u + PLAY_STRIDE).min(total_now()));
                web::sleep_ms(PLAY_FRAME_MS).await;
            }
            if current() {
                playing.set(false);
            }
        });
    };
    let set = move |f: &dyn Fn(&mut TheoryConfig)| config.update(|c| f(c));
    // The charts, drawn only while the fold is open.
    let chart = move |draw: fn(&TheoryReport, usize, Lang) -> String| {
        move || {
            if !open.get() {
                return String::new();
            }
            let (at, lang) = (upto.get(), ui.lang.get());
            report.with(|r| r.as_ref().map(|r| draw(r, at, lang)).unwrap_or_default())
        }
    };
    let said = move |k: usize| {
        move || {
            let (at, lang) = (upto.get(), ui.lang.get());
            report.with(|r| {
                let said = r.as_ref().map(|r| spotlight_plots::theory_sentences(r, at, lang));
                said.map(|mut s| std::mem::take(&mut s[k])).unwrap_or_default()
            })
        }
    };
    let error = move || {
        report.with(|r| {
            let said = |e| spotlight_i18n::say::notice::theory_error(ui.lang.get(), e);
            r.as_ref().err().map(|e| (ui.t().theory.bad_setting)(&said(e)))
        })
    };
    let t = move || &ui.t().theory;
    view! {
        <details class="view theory" id=ID on:toggle=move |ev| {
            use wasm_bindgen::JsCast;
            let o = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).is_some_and(|e| e.has_attribute("open"));
            open.set(o);
        }>
            <summary><h2>{move || t().title}</h2></summary>
            <p class="teach">{move || t().teach}</p>
            <div class="theory-controls">
                <label class="field slider">
                    <span>{move || t().outlier_x}" "<b>{move || ui.lang.get().num(config.with(|c| c.outlier_x), 2)}</b></span>
                    <input type="range" name="theory-outlier-x" min="-2" max="2" step="0.05"
                        prop:value=move || config.with(|c| c.outlier_x.to_string())
                        on:change=move |ev| if let Ok(x) = event_target_value(&ev).parse() { set(&|c| c.outlier_x = x) } />
                </label>
                <label class="field slider">
                    <span>{move || t().outlier_y}" "<b>{move || ui.lang.get().num(config.with(|c| c.outlier_y), 2)}</b></span>
                    <input type="range" name="theory-outlier-y" min="-1.5" max="1.5" step="0.05"
                        prop:value=move || config.with(|c| c.outlier_y.to_string())
                        on:change=move |ev| if let Ok(y) = event_target_value(&ev).parse() { set(&|c| c.outlier_y = y) } />
                </label>
                <label class="field">
                    <span>{move || t().optimizer}</span>
                    <select name="theory-optimizer" prop:value=move || config.with(|c| c.optimizer.label().to_lowercase())
                        on:change=move |ev| if let Some(o) = Optimizer::parse(&event_target_value(&ev)) {
                            config.update(|c| *c = c.clone().with_optimizer(o));
                        }>
                        <option value="sgd">"SGD"</option>
                        <option value="adam">"Adam"</option>
                    </select>
                </label>
                <label class="field">
                    <span>{move || t().learning_rate}</span>
                    <select name="theory-lr" prop:value=move || config.with(|c| c.lr.to_string())
                        on:change=move |ev| if let Ok(lr) = event_target_value(&ev).parse() { set(&|c| c.lr = lr) }>
                        {move || {
                            let lang = ui.lang.get();
                            // Each option says whether it is the one: the menu's value alone could be set
                            // before its new options exist (switching optimizer changes both).
                            rates(config.with(|c| c.optimizer)).iter().map(|&r| {
                                let chosen = move || config.with(|c| c.lr == r);
                                view! { <option value=r.to_string() selected=chosen>{lang.plain(r)}</option> }
                            }).collect_view()
                        }}
                    </select>
                </label>
                <label class="field">
                    <span>{move || t().batch_size}</span>
                    <select name="theory-batch" prop:value=move || config.with(|c| c.batch_size.to_string())
                        on:change=move |ev| if let Ok(b) = event_target_value(&ev).parse() { set(&|c| c.batch_size = b) }>
                        {BATCHES.iter().map(|b| view! { <option value=b.to_string()>{b.to_string()}</option> }).collect_view()}
                    </select>
                </label>
                <label class="field toggle" title=move || t().freeze_help>
                    <input type="checkbox" name="theory-freeze" prop:checked=move || config.with(|c| c.freeze_gamma)
                        on:change=move |ev| { let on = event_target_checked(&ev); set(&|c| c.freeze_gamma = on) } />
                    <span>{move || t().freeze_gamma}</span>
                </label>
                <label class="field toggle">
                    <input type="checkbox" name="theory-bn" prop:checked=move || config.with(|c| c.bn)
                        on:change=move |ev| { let on = event_target_checked(&ev); set(&|c| c.bn = on) } />
                    <span>{move || t().bn}</span>
                </label>
            </div>
            <div class="theory-play">
                <button id="theory-step" on:click=move |_| { playing.set(false); upto.update(|u| *u = (*u + 1).min(total())) }>{move || t().step}</button>
                <button id="theory-play" on:click=move |_| play()>{move || if playing.get() { t().pause } else { t().play }}</button>
                <button id="theory-reset" on:click=move |_| { playing.set(false); upto.set(0) }>{move || t().reset}</button>
                <span id="theory-at" aria-live="polite">{move || (t().at_step)(upto.get(), total())}</span>
            </div>
            <p class="error" role="alert">{error}</p>
            <div class="theory-charts">
                // A click on the plane places the outlier there (the sliders do the same by keyboard).
                <figure><div class="chart place" id="theory-data" inner_html=chart(spotlight_plots::theory_data)
                    on:click=move |ev| if let Some((x, y)) = clicked(&ev) { set(&|c| { c.outlier_x = x; c.outlier_y = y; }) }></div>
                    <figcaption class="says">{said(0)}</figcaption></figure>
                <figure><div class="chart" id="theory-margins" inner_html=chart(spotlight_plots::theory_margins)></div>
                    <figcaption class="says">{said(1)}</figcaption></figure>
                <figure><div class="chart" id="theory-ratio" inner_html=chart(spotlight_plots::theory_ratio)></div>
                    <figcaption class="says">{said(2)}</figcaption></figure>
                <figure><div class="chart" id="theory-gamma" inner_html=chart(spotlight_plots::theory_gamma)></div>
                    <figcaption class="says">{said(3)}</figcaption></figure>
            </div>
            <p class="teach ours">{move || t().ours}</p>
        </details>
    }
}
