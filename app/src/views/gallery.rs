//! The members LiRA is most sure about, per model, tagged clean, flipped, OOD or your drawing.

use leptos::prelude::*;
use spotlight_core::Variant;
use spotlight_core::data::transforms::SampleKind;
use spotlight_core::report::Exposed;

use crate::state::Ui;

/// A gallery caption: the label trained with and the dataset's (OOD images and drawings have none).
fn caption(kind: SampleKind, label: u8, true_label: Option<u8>) -> String {
    match (kind, true_label) {
        (SampleKind::Canary, _) => format!("given {label} · your drawing"),
        (_, Some(t)) => format!("given {label} · true {t}"),
        (_, None) => format!("given {label} · OOD image"),
    }
}

/// Each attacked model with its most exposed samples.
fn exposed(ui: Ui) -> Vec<(Variant, Vec<Exposed>)> {
    ui.report.with(|r| {
        let Some(r) = r else { return Vec::new() };
        r.runs.iter().filter_map(|run| run.attack.as_ref().map(|a| (r.variant(run), a.exposed.clone()))).collect()
    })
}

#[component]
fn Sample(e: Exposed) -> impl IntoView {
    let (tag, class) = match e.kind {
        SampleKind::Clean => ("clean", "clean"),
        SampleKind::Flipped => ("flipped", "flipped"),
        SampleKind::Ood => ("OOD", "ood"),
        SampleKind::Canary => ("your drawing", "canary"),
    };
    view! {
        <figure class=format!("sample {class}")>
            <SampleImage pixels=e.pixels />
            <figcaption>{caption(e.kind, e.label, e.true_label)}<br/><span class="tag">{tag}</span></figcaption>
        </figure>
    }
}

#[component]
pub fn GalleryView(ui: Ui) -> impl IntoView {
    view! {
        <section class="view" id="view-gallery">
            <h2>"Most exposed training samples"</h2>
            <p class="teach">"The members LiRA is most sure about. Count the red (flipped) and orange (OOD) tags: the outliers the model
               memorized are the ones it leaks."</p>
            <For each=move || exposed(ui)
                key=|(variant, ex)| (variant.key(), ex.iter().map(|e| e.source_index).collect::<Vec<_>>())
                children=|(variant, ex)| view! {
                    <h3>{format!("{} model", variant.label())}</h3>
                    <div class="gallery">
                        <For each=move || ex.clone() key=|e| e.source_index children=|e| view! { <Sample e /> } />
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
        if let Ok(img) = web_sys::ImageData::new_with_u8_clamped_array_and_sh(wasm_bindgen::Clamped(&rgba), 28, 28) {
            let _ = ctx.put_image_data(&img, 0.0, 0.0);
        }
    });
    view! { <canvas class="digit" width="28" height="28" node_ref=canvas></canvas> }
}
