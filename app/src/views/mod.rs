//! The page's views, one file each, in page order: the banner and notices, the controls (with the
//! share link), progress, the charts, the attack, the gallery, the paper panel and the benchmark.

use leptos::prelude::*;

pub mod attack;
pub mod banner;
pub mod bench;
pub mod charts;
pub mod controls;
pub mod gallery;
pub mod paper;
pub mod progress;
pub mod share;

/// A share as a percentage, or a dash where there is none.
fn pct(x: Option<f64>) -> String {
    x.map_or("—".into(), |v| format!("{:.1}%", 100.0 * v))
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
