//! The members LiRA is most sure about, per model, tagged clean, flipped, OOD or your drawing.

use leptos::prelude::*;
use spotlight_core::Variant;
use spotlight_core::canary;
use spotlight_core::data::transforms::SampleKind;
use spotlight_core::report::Exposed;
use spotlight_i18n::canary::{Gallery, HistorySaid, SampleSaid};
use spotlight_plots::model_name;

use crate::state::Ui;

/// A gallery caption: the label trained with and the dataset's (OOD images and drawings have none).
fn caption(t: &Gallery, kind: SampleKind, label: u8, true_label: Option<u8>) -> String {
    let given = t.given;
    match (kind, true_label) {
        (SampleKind::Canary, _) => format!("{given} {label} · {}", t.your_drawing),
        (_, Some(x)) => format!("{given} {label} · {} {x}", t.true_label),
        (_, None) => format!("{given} {label} · {}", t.ood_image),
    }
}

/// The student's drawing where it ranks among the members: itself, its place, the member count.
type Ranked = (Exposed, usize, usize);

/// Each attacked model with its most exposed samples, and the student's drawing where it ranks
/// among the members when it is not one of them.
fn exposed(ui: Ui) -> Vec<(Variant, Vec<Exposed>, Option<Ranked>)> {
    ui.report.with(|r| {
        let Some(r) = r else { return Vec::new() };
        let drawing = (!r.config.canary.is_empty())
            .then(|| canary::decode(&r.config.canary).ok())
            .flatten()
            .map(|p| canary::to_image(&p));
        r.runs
            .iter()
            .filter_map(|run| {
                let a = run.attack.as_ref()?;
                let shown = a.exposed.iter().any(|e| e.kind == SampleKind::Canary);
                let ranked = match (&drawing, &a.canary) {
                    (Some(pixels), Some(s)) if !shown => s.member_rank.map(|at| {
                        let e = Exposed {
                            source_index: usize::MAX,
                            kind: SampleKind::Canary,
                            label: r.config.canary_label,
                            true_label: None,
                            score: s.score,
                            pixels: pixels.clone(),
                            lira: s.lira.clone(),
                        };
                        (e, at, a.members)
                    }),
                    _ => None,
                };
                Some((r.variant(run), a.exposed.clone(), ranked))
            })
            .collect()
    })
}

/// The sample whose LiRA picture is open: its model, and itself.
type Opened = RwSignal<Option<(Variant, Exposed)>>;

#[component]
fn Sample(ui: Ui, e: Exposed, variant: Variant, opened: Opened) -> impl IntoView {
    let class = match e.kind {
        SampleKind::Clean => "clean",
        SampleKind::Flipped => "flipped",
        SampleKind::Ood => "ood",
        SampleKind::Canary => "canary",
    };
    let (kind, label, true_label) = (e.kind, e.label, e.true_label);
    let t = move || &ui.t().canary.gallery;
    let tag = move || match kind {
        SampleKind::Clean => t().clean,
        SampleKind::Flipped => t().flipped,
        SampleKind::Ood => t().ood,
        SampleKind::Canary => t().your_drawing,
    };
    // A sample the attack scored opens its LiRA picture, by click or by Enter / Space.
    let scored = e.lira.is_some();
    let (pixels, index) = (e.pixels.clone(), e.source_index);
    let open = move || opened.set(Some((variant, e.clone())));
    let is_open = move || {
        opened.with(|o| o.as_ref().is_some_and(|(v, x)| *v == variant && x.source_index == index))
    };
    view! {
        <figure class=format!("sample {class}") class:scored=scored class:open=is_open
            tabindex=scored.then_some("0") role=scored.then_some("button")
            aria-pressed=move || scored.then(|| is_open().to_string())
            on:click={let open = open.clone(); move |_| if scored { open() }}
            on:keydown=move |ev| if scored && (ev.key() == "Enter" || ev.key() == " ") { ev.prevent_default(); open() }>
            <SampleImage pixels />
            <figcaption>{move || caption(t(), kind, label, true_label)}<br/><span class="tag">{tag}</span></figcaption>
        </figure>
    }
}

/// The open sample as LiRA saw it: its image and captions, the shadows' φ and the Gaussians fitted
/// to them with the attacked model's φ, and the same in words.
#[component]
fn SampleLiraView(ui: Ui, opened: Opened) -> impl IntoView {
    let chart = move || {
        let lang = ui.lang.get();
        opened.with(|o| {
            o.as_ref()
                .and_then(|(v, e)| {
                    e.lira.as_ref().map(|s| spotlight_plots::sample_lira(s, *v, lang))
                })
                .unwrap_or_default()
        })
    };
    let says = move || {
        let lang = ui.lang.get();
        opened.with(|o| {
            let s = o.as_ref()?.1.lira.as_ref()?;
            let num = |x: f64| lang.num(x, 2);
            let (phi, mu_out, score) = (num(s.phi), num(s.fitted.mu_out), num(s.online));
            let mu_in = s.fitted.mu_in.map(num);
            Some((lang.texts().canary.gallery.sample_says)(&SampleSaid {
                phi: &phi,
                mu_in: mu_in.as_deref(),
                mu_out: &mu_out,
                score: &score,
            }))
        })
    };
    let heading = move || {
        let lang = ui.lang.get();
        opened.with(|o| {
            o.as_ref().map(|(v, e)| {
                let t = &lang.texts().canary.gallery;
                format!(
                    "{} — {}",
                    (t.model)(model_name(*v, lang)),
                    caption(t, e.kind, e.label, e.true_label)
                )
            })
        })
    };
    // Its margin over the epochs, where the run kept it.
    let history = move || {
        let lang = ui.lang.get();
        opened.with(|o| {
            let (v, e) = o.as_ref()?;
            let h = &e.lira.as_ref()?.history;
            (!h.is_empty()).then(|| spotlight_plots::sample_history(h, *v, lang))
        })
    };
    let history_says = move || {
        let lang = ui.lang.get();
        opened.with(|o| {
            let h = &o.as_ref()?.1.lira.as_ref()?.history;
            let (first, last) = (h.first()?, h.last()?);
            let num = |x: f32| lang.num(f64::from(x), 2);
            // The first epoch from which on the margin stayed above 0.
            let since = h
                .iter()
                .rposition(|p| p.margin <= 0.0)
                .map_or(Some(first.epoch), |k| h.get(k + 1).map(|p| p.epoch))
                .map(|e| lang.plain(e));
            let (lf, ll, mf, ml) =
                (num(first.loss), num(last.loss), num(first.margin), num(last.margin));
            Some((lang.texts().canary.gallery.history_says)(&HistorySaid {
                loss_first: &lf,
                loss_last: &ll,
                margin_first: &mf,
                margin_last: &ml,
                last_epoch: &lang.plain(last.epoch),
                since: since.as_deref(),
            }))
        })
    };
    let pixels = move || opened.with(|o| o.as_ref().map(|(_, e)| e.pixels.clone()));
    view! {
        <Show when=move || opened.with(Option::is_some)>
            <div id="sample-lira" class="sample-lira" role="region" aria-live="polite">
                <h3>{heading}</h3>
                {move || pixels().map(|p| view! { <SampleImage pixels=p /> })}
                <div class="chart" inner_html=chart></div>
                <p class="says">{says}</p>
                {move || history().map(|svg| view! {
                    <div class="chart" id="sample-history" inner_html=svg></div>
                    <p class="says" id="sample-history-says">{history_says}</p>
                })}
                <button class="secondary" on:click=move |_| opened.set(None)>{ui.tr(|t| t.canary.gallery.close)}</button>
            </div>
        </Show>
    }
}

#[component]
pub fn GalleryView(ui: Ui) -> impl IntoView {
    let opened: Opened = RwSignal::new(None);
    // A report without the open sample (a new run's) closes its picture; a refresh of the same
    // run's report (a shadow model or an attack ending) leaves it open.
    Effect::new(move |_| {
        let gone = ui.report.with(|r| {
            opened.with_untracked(|o| {
                let Some((variant, e)) = o else { return false };
                let a = r.as_ref().and_then(|r| {
                    r.runs.iter().find(|run| r.variant(run) == *variant)?.attack.as_ref()
                });
                match (a, e.kind) {
                    (Some(a), SampleKind::Canary) => a.canary.is_none(),
                    (Some(a), _) => !a.exposed.iter().any(|x| x.source_index == e.source_index),
                    (None, _) => true,
                }
            })
        });
        if gone {
            opened.set(None);
        }
    });
    view! {
        <section class="view" id="view-gallery">
            <h2>{ui.tr(|t| t.canary.gallery.title)}</h2>
            <p class="teach">{ui.tr(|t| t.canary.gallery.teach)}</p>
            <For each=move || exposed(ui)
                key=|(variant, ex, ranked)| {
                    let at = ranked.as_ref().map(|r| r.1);
                    (variant.key(), ex.iter().map(|e| e.source_index).collect::<Vec<_>>(), at)
                }
                children=move |(variant, ex, ranked)| view! {
                    <h3>{move || { let lang = ui.lang.get(); (lang.texts().canary.gallery.model)(model_name(variant, lang)) }}</h3>
                    <div class="gallery">
                        <For each=move || ex.clone() key=|e| e.source_index children=move |e| view! { <Sample ui e variant opened /> } />
                        {ranked.map(|(e, at, of)| view! {
                            <span class="gallery-gap" aria-hidden="true">"⋯"</span>
                            <div class="ranked-drawing">
                                <Sample ui e variant opened />
                                <p class="rank">{move || (ui.t().canary.gallery.ranked)(at, of)}</p>
                            </div>
                        })}
                    </div>
                } />
            <p class="hint">{ui.tr(|t| t.canary.gallery.open_hint)}</p>
            <SampleLiraView ui opened />
        </section>
    }
}

/// A 28×28 gray-scale sample on a canvas (one element, where an SVG would need 784).
#[component]
pub fn SampleImage(pixels: Vec<u8>) -> impl IntoView {
    use wasm_bindgen::JsCast;
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    Effect::new(move |_| {
        let Some(c) = canvas.get() else { return };
        let Ok(Some(ctx)) = c.get_context("2d") else { return };
        let Ok(ctx) = ctx.dyn_into::<web_sys::CanvasRenderingContext2d>() else { return };
        let rgba: Vec<u8> = pixels.iter().flat_map(|&p| [p, p, p, 255]).collect();
        if let Ok(img) = web_sys::ImageData::new_with_u8_clamped_array_and_sh(
            wasm_bindgen::Clamped(&rgba),
            28,
            28,
        ) {
            let _ = ctx.put_image_data(&img, 0.0, 0.0);
        }
    });
    view! { <canvas class="digit" width="28" height="28" node_ref=canvas></canvas> }
}
