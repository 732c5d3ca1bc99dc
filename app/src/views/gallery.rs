//! The members LiRA is most sure about, per model, tagged clean, flipped, OOD or your drawing.

use leptos::prelude::*;
use spotlight_core::Variant;
use spotlight_core::canary;
use spotlight_core::data::transforms::SampleKind;
use spotlight_core::report::Exposed;
use spotlight_i18n::canary::Gallery;
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

#[component]
fn Sample(ui: Ui, e: Exposed) -> impl IntoView {
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
    view! {
        <figure class=format!("sample {class}")>
            <SampleImage pixels=e.pixels />
            <figcaption>{move || caption(t(), kind, label, true_label)}<br/><span class="tag">{tag}</span></figcaption>
        </figure>
    }
}

#[component]
pub fn GalleryView(ui: Ui) -> impl IntoView {
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
                        <For each=move || ex.clone() key=|e| e.source_index children=move |e| view! { <Sample ui e /> } />
                        {ranked.map(|(e, at, of)| view! {
                            <span class="gallery-gap" aria-hidden="true">"⋯"</span>
                            <div class="ranked-drawing">
                                <Sample ui e />
                                <p class="rank">{move || (ui.t().canary.gallery.ranked)(at, of)}</p>
                            </div>
                        })}
                    </div>
                } />
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
