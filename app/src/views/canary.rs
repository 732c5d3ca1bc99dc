//! Be the outlier: a 28×28 pad to draw a canary and the label to plant it with — it lives in the
//! config, so in the share link — and, after a run, what each model made of it and how sure the
//! attacker is that it was trained on.

use leptos::ev::{KeyboardEvent, PointerEvent};
use leptos::prelude::*;
use spotlight_core::Variant;
use spotlight_core::canary::{self, SIDE};
use spotlight_core::config::DatasetName;
use spotlight_core::report::{CanaryPoint, CanaryScore};
use spotlight_i18n::Texts;
use spotlight_i18n::canary::{Scored, Verdict};
use spotlight_plots::model_name;

use crate::state::Ui;
use crate::views::gallery::SampleImage;

const PIXELS: usize = SIDE * SIDE;

/// Inks the pixels within the brush (a plus of five pixels: MNIST's strokes are 2–3 pixels wide)
/// along the segment from `a` to `b`, in pixel coordinates.
fn ink(px: &mut [bool], a: (f64, f64), b: (f64, f64)) {
    let steps = ((b.0 - a.0).hypot(b.1 - a.1) * 2.0).ceil().max(1.0) as usize;
    for s in 0..=steps {
        let t = s as f64 / steps as f64;
        let (x, y) = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
        let (cx, cy) = (x.floor() as i64, y.floor() as i64);
        for (dx, dy) in [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)] {
            let (u, v) = (cx + dx, cy + dy);
            if (0..SIDE as i64).contains(&u) && (0..SIDE as i64).contains(&v) {
                px[v as usize * SIDE + u as usize] = true;
            }
        }
    }
}

/// A class as a reader knows it: "3" on MNIST, "3 (dress)" on Fashion-MNIST.
fn class_text(t: &Texts, dataset: DatasetName, class: u8) -> String {
    let class = class.min(9);
    match dataset {
        DatasetName::Mnist => class.to_string(),
        DatasetName::Fashion => format!("{class} ({})", t.canary.fashion[usize::from(class)]),
    }
}

/// The config's canary as pixels (none: blank).
fn pixels_of(text: &str) -> Vec<bool> {
    if text.is_empty() {
        vec![false; PIXELS]
    } else {
        canary::decode(text).unwrap_or_else(|_| vec![false; PIXELS])
    }
}

/// The keyboard's cursor on the pad: where it is and whether its pen is down.
#[derive(Clone, Copy, PartialEq)]
struct Cursor {
    x: usize,
    y: usize,
    pen: bool,
}

fn paint(canvas: &web_sys::HtmlCanvasElement, px: &[bool], cursor: Option<Cursor>) {
    use wasm_bindgen::JsCast;
    let Ok(Some(ctx)) = canvas.get_context("2d") else { return };
    let Ok(ctx) = ctx.dyn_into::<web_sys::CanvasRenderingContext2d>() else { return };
    let mut rgba: Vec<u8> =
        px.iter().flat_map(|&p| if p { [255, 255, 255, 255] } else { [0, 0, 0, 255] }).collect();
    // The keyboard's cursor: orange with the pen down, blue with it up.
    if let Some(c) = cursor {
        let i = 4 * (c.y * SIDE + c.x);
        rgba[i..i + 4].copy_from_slice(&if c.pen {
            [230, 159, 0, 255]
        } else {
            [86, 180, 233, 255]
        });
    }
    if let Ok(img) = web_sys::ImageData::new_with_u8_clamped_array_and_sh(
        wasm_bindgen::Clamped(&rgba),
        SIDE as u32,
        SIDE as u32,
    ) {
        let _ = ctx.put_image_data(&img, 0.0, 0.0);
    }
}

/// The drawing pad, its label, Clear and Undo. A drawing with ink is planted in the next run.
#[component]
pub fn CanaryPad(ui: Ui) -> impl IntoView {
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let pixels = RwSignal::new(vec![false; PIXELS]);
    let undo = StoredValue::new(Vec::<Vec<bool>>::new());
    // Where the pointer last inked, while a stroke goes on.
    let last = StoredValue::new(None::<(f64, f64)>);
    // The keyboard's cursor, while the pad has the focus.
    let cursor = RwSignal::new(None::<Cursor>);
    // The config's canary (a link, a preset) → the pad; the pad → the canvas.
    Effect::new(move |_| {
        let px = ui.config.with(|c| pixels_of(&c.canary));
        if px != pixels.get_untracked() {
            pixels.set(px);
        }
    });
    Effect::new(move |_| {
        let (px, cur) = (pixels.get(), cursor.get());
        if let Some(c) = canvas.get() {
            paint(&c, &px, cur);
        }
    });
    // The pad → the config (and the share link).
    let commit = move || {
        let px = pixels.get_untracked();
        let mut c = ui.config.get_untracked();
        c.canary = if px.iter().any(|&p| p) { canary::encode(&px) } else { String::new() };
        if c != ui.config.get_untracked() {
            ui.set_config(c);
        }
    };
    let at = move |ev: &PointerEvent| -> Option<(f64, f64)> {
        let c = canvas.get()?;
        let (w, h) = (f64::from(c.client_width().max(1)), f64::from(c.client_height().max(1)));
        Some((
            f64::from(ev.offset_x()) * SIDE as f64 / w,
            f64::from(ev.offset_y()) * SIDE as f64 / h,
        ))
    };
    let stroke = move |p: (f64, f64)| {
        let from = last.get_value().unwrap_or(p);
        pixels.update(|px| ink(px, from, p));
        last.set_value(Some(p));
    };
    let down = move |ev: PointerEvent| {
        ev.prevent_default();
        let Some(p) = at(&ev) else { return };
        if let Some(c) = canvas.get() {
            let _ = c.set_pointer_capture(ev.pointer_id());
        }
        undo.update_value(|u| u.push(pixels.get_untracked()));
        last.set_value(None);
        stroke(p);
    };
    let moved = move |ev: PointerEvent| {
        if last.get_value().is_some()
            && let Some(p) = at(&ev)
        {
            stroke(p);
        }
    };
    let up = move |_: PointerEvent| {
        if last.get_value().is_some() {
            last.set_value(None);
            commit();
        }
    };
    // The keyboard: arrows move the cursor (inking with the pen down), Space or Enter lowers or
    // lifts the pen; a lifted pen ends the stroke, as a released mouse button does.
    let key = move |ev: KeyboardEvent| {
        let keys = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", " ", "Enter"];
        let Some(c) = cursor.get_untracked() else {
            // Focused by a click: the first key shows the cursor.
            if keys.contains(&ev.key().as_str()) {
                ev.prevent_default();
                cursor.set(Some(Cursor { x: SIDE / 2, y: SIDE / 2, pen: false }));
            }
            return;
        };
        let (dx, dy): (i64, i64) = match ev.key().as_str() {
            "ArrowLeft" => (-1, 0),
            "ArrowRight" => (1, 0),
            "ArrowUp" => (0, -1),
            "ArrowDown" => (0, 1),
            " " | "Enter" => {
                ev.prevent_default();
                let centre = (c.x as f64 + 0.5, c.y as f64 + 0.5);
                if c.pen {
                    commit();
                } else {
                    undo.update_value(|u| u.push(pixels.get_untracked()));
                    pixels.update(|px| ink(px, centre, centre));
                }
                cursor.set(Some(Cursor { pen: !c.pen, ..c }));
                return;
            }
            _ => return,
        };
        ev.prevent_default();
        let step = |v: usize, d: i64| (v as i64 + d).clamp(0, SIDE as i64 - 1) as usize;
        let to = Cursor { x: step(c.x, dx), y: step(c.y, dy), ..c };
        if c.pen {
            pixels.update(|px| {
                ink(
                    px,
                    (c.x as f64 + 0.5, c.y as f64 + 0.5),
                    (to.x as f64 + 0.5, to.y as f64 + 0.5),
                )
            });
        }
        cursor.set(Some(to));
    };
    // Only a keyboard's focus shows the cursor (a click on the pad focuses it too).
    let focus = move |_| {
        if canvas.get().is_some_and(|c| c.matches(":focus-visible").unwrap_or(true)) {
            cursor.set(Some(Cursor { x: SIDE / 2, y: SIDE / 2, pen: false }));
        }
    };
    let blur = move |_| {
        if cursor.get_untracked().is_some_and(|c| c.pen) {
            commit();
        }
        cursor.set(None);
    };
    let clear = move |_| {
        undo.update_value(|u| u.push(pixels.get_untracked()));
        pixels.set(vec![false; PIXELS]);
        commit();
    };
    let back = move |_| {
        if let Some(px) = undo.try_update_value(|u| u.pop()).flatten() {
            pixels.set(px);
            commit();
        }
    };
    let dataset = move || ui.config.with(|c| c.dataset);
    let label = move || ui.config.with(|c| c.canary_label.to_string());
    let set_label = move |ev: leptos::ev::Event| {
        if let Ok(l) = event_target_value(&ev).parse::<u8>() {
            let mut c = ui.config.get_untracked();
            c.canary_label = l.min(9);
            ui.set_config(c);
        }
    };
    let planted = move || ui.config.with(|c| !c.canary.is_empty());
    let t = move || &ui.t().canary;
    view! {
        <section class="canary-pad" aria-label=ui.tr(|t| t.canary.pad_aria)>
            <h3>{ui.tr(|t| t.canary.pad_title)}</h3>
            <p class="teach">{ui.tr(|t| t.canary.pad_teach)}</p>
            <canvas id="canary-pad" width=SIDE.to_string() height=SIDE.to_string() node_ref=canvas tabindex="0"
                role="application" aria-label=ui.tr(|t| t.canary.canvas_aria) aria-describedby="canary-keys"
                on:pointerdown=down on:pointermove=moved on:pointerup=up on:pointercancel=up
                on:keydown=key on:focus=focus on:blur=blur></canvas>
            <p id="canary-keys" class="sized">{ui.tr(|t| t.canary.keys)}</p>
            <div class="canary-tools">
                <label class="field">
                    <span>{ui.tr(|t| t.canary.label)}</span>
                    <select name="canary_label" prop:value=label on:change=set_label>
                        {move || {
                            let (texts, dataset) = (ui.t(), dataset());
                            (0..10u8).map(|i| view! { <option value=i.to_string()>{class_text(texts, dataset, i)}</option> }).collect_view()
                        }}
                    </select>
                </label>
                <button id="canary-undo" on:click=back>{ui.tr(|t| t.canary.undo)}</button>
                <button id="canary-clear" on:click=clear>{ui.tr(|t| t.canary.clear)}</button>
            </div>
            <p id="canary-status" class="sized" aria-live="polite">
                {move || if planted() { t().planted } else { t().empty }}
            </p>
        </section>
    }
}

/// One model's view of the canary: its read-outs per epoch and the attack's score.
#[derive(Clone, PartialEq)]
struct Followed {
    model: Variant,
    epochs: Vec<(usize, CanaryPoint)>,
    score: Option<CanaryScore>,
}

fn followed(ui: Ui) -> Vec<Followed> {
    ui.report.with(|r| {
        let Some(r) = r else { return Vec::new() };
        r.runs
            .iter()
            .map(|run| Followed {
                model: r.variant(run),
                epochs: run
                    .epochs
                    .iter()
                    .filter_map(|e| e.canary.clone().map(|c| (e.epoch, c)))
                    .collect(),
                score: run.attack.as_ref().and_then(|a| a.canary.clone()),
            })
            .filter(|f| !f.epochs.is_empty())
            .collect()
    })
}

/// After a run with a canary: what each model predicted for it over the epochs, the probability
/// it gave the planted label, its gradient norm, and the attacker's confidence, side by side.
#[component]
pub fn CanaryView(ui: Ui) -> impl IntoView {
    let models = Memo::new(move |_| followed(ui));
    let report_canary = move || {
        ui.report.with(|r| {
            r.as_ref().map(|r| (r.config.canary.clone(), r.config.canary_label, r.config.dataset))
        })
    };
    let picture = move || {
        report_canary().filter(|(c, _, _)| !c.is_empty()).map(|(c, l, d)| {
            let pixels = canary::to_image(&pixels_of(&c));
            view! {
                <figure class="sample canary">
                    <SampleImage pixels />
                    <figcaption>{move || {
                        let t = ui.t();
                        format!("{}{}", t.canary.planted_as, class_text(t, d, l))
                    }}</figcaption>
                </figure>
            }
        })
    };
    let verdict = move || {
        let m = models.get();
        let lang = ui.lang.get();
        let t = &lang.texts().canary;
        let scored: Vec<String> = m
            .iter()
            .filter_map(|f| {
                f.score.as_ref().map(|s| {
                    (t.scored)(&Scored {
                        model: model_name(f.model, lang),
                        confidence: &lang.pct(s.confidence, 0),
                        rank: &lang.plain(s.rank),
                        of: &lang.plain(s.candidates),
                        clean: &lang.pct(s.median_clean_member, 0),
                        non_member: &lang.pct(s.median_non_member, 0),
                    })
                })
            })
            .collect();
        if scored.is_empty() {
            t.no_attack.to_string()
        } else {
            format!("{}{}.", t.confidence, scored.join("; "))
        }
    };
    // Each model's verdict in words: did it learn the label, would the attacker call it a member.
    let said = move || {
        let m = models.get();
        let lang = ui.lang.get();
        let t = &lang.texts().canary;
        let label = ui.report.with(|r| r.as_ref().map(|r| r.config.canary_label));
        m.iter()
            .map(|f| {
                let s = f.score.as_ref();
                (t.verdict)(&Verdict {
                    model: model_name(f.model, lang),
                    learned: f.epochs.last().is_some_and(|(_, p)| Some(p.predicted) == label),
                    likely: s.and_then(CanaryScore::likely_member),
                    above: s
                        .and_then(|s| s.above_non_members)
                        .map(|a| lang.int((100.0 * a).floor() as u64))
                        .unwrap_or_default(),
                    rank: s.map(|s| lang.plain(s.rank)).unwrap_or_default(),
                    of: s.map(|s| lang.plain(s.candidates)).unwrap_or_default(),
                })
            })
            .map(|line| view! { <li>{line}</li> })
            .collect_view()
    };
    let header = move || {
        let lang = ui.lang.get();
        let t = &lang.texts().canary;
        models
            .get()
            .iter()
            .flat_map(|f| {
                [(t.predicts)(model_name(f.model, lang)), t.p_label.into(), "‖∇ℓ‖".into()]
            })
            .collect::<Vec<_>>()
    };
    let rows = move || {
        let m = models.get();
        let lang = ui.lang.get();
        let epochs: Vec<usize> =
            m.first().map(|f| f.epochs.iter().map(|(e, _)| *e).collect()).unwrap_or_default();
        epochs
            .into_iter()
            .map(|e| {
                let mut row = vec![e.to_string()];
                for f in &m {
                    match f.epochs.iter().find(|(x, _)| *x == e) {
                        Some((_, p)) => row.extend([
                            p.predicted.to_string(),
                            lang.pct(p.p_label, 0),
                            lang.num(f64::from(p.grad_norm), 2),
                        ]),
                        None => row.extend(["—".to_string(), "—".into(), "—".into()]),
                    }
                }
                row
            })
            .collect::<Vec<_>>()
    };
    view! {
        <Show when=move || !models.with(Vec::is_empty)>
            <section class="view" id="view-canary">
                <h2>{ui.tr(|t| t.canary.title)}</h2>
                <div class="canary-result">
                    {picture}
                    <div>
                        <ul id="canary-said" class="says">{said}</ul>
                        <p id="canary-verdict" class="teach">{verdict}</p>
                    </div>
                </div>
                <p class="teach">{ui.tr(|t| t.canary.teach)}</p>
                <table class="numbers" id="canary-table">
                    <tr><th>{ui.tr(|t| t.canary.epoch)}</th>{move || header().into_iter().map(|h| view! { <th>{h}</th> }).collect_view()}</tr>
                    {move || rows().into_iter().map(|r| view! { <tr>{r.into_iter().map(|c| view! { <td>{c}</td> }).collect_view()}</tr> }).collect_view()}
                </table>
            </section>
        </Show>
    }
}
