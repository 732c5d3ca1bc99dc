//! A chart's key, drawn *below* its plotting area (never over the data), its entries flowing left
//! to right in rows, and sized by [`crate::svg::text_size`] (plotters' own series labels measure
//! their text through the font backend, in the page).

use crate::svg::text_size;
use crate::{Area, Dash, TEXT};
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// How a key shows its series.
#[derive(Clone, Copy)]
pub enum Mark {
    Line(ShapeStyle, Dash),
    Dot(u32, ShapeStyle),
    Square(ShapeStyle),
    Triangle(u32, ShapeStyle),
    Cross(u32, ShapeStyle),
    /// A circle's outline.
    Ring(u32, ShapeStyle),
}

impl Mark {
    /// The style its shape is drawn in, in a key and on a chart alike: a cross's and a ring's lines
    /// 2 pixels wide, a ring unfilled; the others as given.
    pub fn drawn_style(self) -> ShapeStyle {
        match self {
            Mark::Cross(_, s) => s.stroke_width(2),
            Mark::Ring(_, s) => ShapeStyle { filled: false, ..s }.stroke_width(2),
            Mark::Line(s, _) | Mark::Dot(_, s) | Mark::Square(s) | Mark::Triangle(_, s) => s,
        }
    }
}

/// The keys of one chart, in drawing order (an entry given twice is kept once).
#[derive(Default)]
pub struct Legend(Vec<(String, Mark)>);

/// One row of keys.
const ROW: i32 = (TEXT as i32 * 5) / 4;
const PAD: i32 = 6;
/// Room for the mark, left of the label.
const MARK: i32 = 30;
/// Room between two entries of a row.
const GAP: i32 = 16;

impl Legend {
    pub fn add(&mut self, label: impl Into<String>, mark: Mark) {
        let label = label.into();
        if !self.0.iter().any(|(l, _)| *l == label) {
            self.0.push((label, mark));
        }
    }

    /// Where each entry goes in a strip `width` pixels wide: (x, row) per entry, and the rows.
    fn layout(&self, width: i32) -> (Vec<(i32, i32)>, i32) {
        let (mut x, mut row, mut at) = (PAD, 0, Vec::new());
        for (label, _) in &self.0 {
            let w = MARK + text_size(label, f64::from(TEXT)).0 as i32;
            if x > PAD && x + w > width - PAD {
                x = PAD;
                row += 1;
            }
            at.push((x, row));
            x += w + GAP;
        }
        (at, if self.0.is_empty() { 0 } else { row + 1 })
    }

    /// Draws the key on `area` (the strip under a chart, in pixels) and returns the height it
    /// took (0 without entries).
    pub fn draw_below(&self, area: &Area) -> Result<u32, String> {
        let (w, _) = area.dim_in_pixel();
        let (at, rows) = self.layout(w as i32);
        if rows == 0 {
            return Ok(0);
        }
        let e = |e: DrawingAreaErrorKind<std::io::Error>| e.to_string();
        let style = TextStyle::from(("sans-serif", TEXT).into_font())
            .pos(Pos::new(HPos::Left, VPos::Center));
        for ((label, mark), (x, row)) in self.0.iter().zip(at) {
            let y = PAD + ROW * row + ROW / 2;
            match *mark {
                Mark::Line(s, dash) => match dash.pattern() {
                    None => area.draw(&PathElement::new(vec![(x, y), (x + 22, y)], s)),
                    Some((on, off)) => {
                        area.draw(&DashedPathElement::new(vec![(x, y), (x + 22, y)], on, off, s))
                    }
                },
                Mark::Dot(r, s) => area.draw(&Circle::new((x + 11, y), r, s)),
                Mark::Square(s) => area.draw(&Rectangle::new([(x + 4, y - 6), (x + 18, y + 6)], s)),
                Mark::Triangle(r, s) => area.draw(&TriangleMarker::new((x + 11, y), r, s)),
                Mark::Cross(r, _) => area.draw(&Cross::new((x + 11, y), r, mark.drawn_style())),
                Mark::Ring(r, _) => area.draw(&Circle::new((x + 11, y), r, mark.drawn_style())),
            }
            .map_err(e)?;
            area.draw(&Text::new(label.as_str(), (x + MARK, y), style.clone())).map_err(e)?;
        }
        Ok((2 * PAD + ROW * rows) as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_flow_into_rows_and_repeat_once() {
        let mut keys = Legend::default();
        for label in ["BN", "no-BN", "BN", "a longer label for the clean members"] {
            keys.add(label, Mark::Dot(4, BLACK.filled()));
        }
        assert_eq!(keys.0.len(), 3, "a label given twice is kept once");
        let (at, rows) = keys.layout(2000);
        assert_eq!(rows, 1);
        assert!(at.windows(2).all(|p| p[0].0 < p[1].0));
        let (at, rows) = keys.layout(200);
        assert_eq!(rows, 2, "{at:?}");
        assert_eq!(at[2], (PAD, 1), "an entry that does not fit starts the next row");
        assert!(at[1].0 > PAD && at[1].1 == 0, "{at:?}");
        assert_eq!(Legend::default().layout(300).1, 0);
    }
}
