//! The page's views, one file each, in page order: the banner and notices, the controls (with the
//! share link), progress, what just happened, the charts, the attack, the gallery, the theory lab,
//! the paper panel and the benchmark.

use std::cell::Cell as Counter;
use std::rc::Rc;

use leptos::prelude::*;

use crate::web;

pub mod attack;
pub mod banner;
pub mod bench;
pub mod canary;
pub mod charts;
pub mod controls;
pub mod gallery;
pub mod language;
pub mod paper;
pub mod progress;
pub mod share;
pub mod summary;
pub mod theory;
pub mod tour;

/// A share as a percentage in `lang`, or a dash where there is none.
fn pct(x: Option<f64>, lang: spotlight_i18n::Lang) -> String {
    x.map_or("—".into(), |v| lang.pct(v, 1))
}

/// One table cell: its text and its class (`""` for none).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Cell {
    text: String,
    class: &'static str,
}

fn cell(text: impl Into<String>) -> Cell {
    Cell { text: text.into(), class: "" }
}

/// Table rows keyed by their cells: a row whose numbers did not change is kept, not rebuilt.
#[component]
fn KeyedRows(#[prop(into)] rows: Signal<Vec<Vec<Cell>>>) -> impl IntoView {
    view! {
        <For each=move || rows.get() key=|row| row.clone() children=|row| view! {
            <tr>{row.into_iter().map(|c| view! { <td class=c.class>{c.text}</td> }).collect_view()}</tr>
        } />
    }
}

/// A chart's SVG, drawn in a browser task of its own a moment after `input` changes, and only for
/// its latest value. Drawing is most of the page's work; a report that changes four charts at once
/// then holds the page for one chart at a time.
fn drawn_apart<T, O>(input: Memo<T>, draw: impl Fn(&T) -> O + 'static) -> ReadSignal<O>
where
    T: Clone + PartialEq + Send + Sync + 'static,
    O: Default + Send + Sync + 'static,
{
    let (svg, set_svg) = signal(O::default());
    let draw = Rc::new(draw);
    let latest = Rc::new(Counter::new(0u64));
    Effect::new(move |_| {
        input.track();
        let n = latest.get() + 1;
        latest.set(n);
        let (draw, latest) = (draw.clone(), latest.clone());
        leptos::task::spawn_local(async move {
            web::yield_now().await;
            // (None: the view was disposed meanwhile.)
            if latest.get() == n
                && let Some(svg) = input.try_with_untracked(|v| draw(v))
            {
                let _ = set_svg.try_set(svg);
            }
        });
    });
    svg
}
