//! A chart's key, drawn in a corner of its plotting area and sized by [`crate::svg::text_size`]
//! (plotters' own series labels measure their text through the font backend, in the page).

use crate::svg::text_size;
use crate::{Area, Dash};
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
}

/// Where the key sits in the plotting area.
#[derive(Clone, Copy)]
pub enum Corner {
    UpperLeft,
    UpperRight,
    LowerRight,
}

/// The keys of one chart, in drawing order.
#[derive(Default)]
pub struct Legend(Vec<(String, Mark)>);

const FONT: f64 = 11.0;
const ROW: i32 = 14;
const PAD: i32 = 5;
/// Room for the mark, left of the label.
const MARK: i32 = 26;

impl Legend {
    pub fn add(&mut self, label: impl Into<String>, mark: Mark) {
        self.0.push((label.into(), mark));
    }

    /// Draws the key on `area` (a plotting area, in pixels), nothing when it has no entries.
    pub fn draw(&self, area: &Area, corner: Corner) -> Result<(), String> {
        if self.0.is_empty() {
            return Ok(());
        }
        let text_w = self.0.iter().map(|(label, _)| text_size(label, FONT).0 as i32).max().unwrap_or(0);
        let (w, h) = (2 * PAD + MARK + text_w, 2 * PAD + ROW * self.0.len() as i32);
        let (aw, ah) = area.dim_in_pixel();
        let (aw, ah) = (aw as i32, ah as i32);
        let (x0, y0) = match corner {
            Corner::UpperLeft => (PAD, PAD),
            Corner::UpperRight => (aw - w - PAD, PAD),
            Corner::LowerRight => (aw - w - PAD, ah - h - PAD),
        };
        let e = |e: DrawingAreaErrorKind<std::io::Error>| e.to_string();
        area.draw(&Rectangle::new([(x0, y0), (x0 + w, y0 + h)], WHITE.mix(0.85).filled())).map_err(e)?;
        area.draw(&Rectangle::new([(x0, y0), (x0 + w, y0 + h)], BLACK.mix(0.3))).map_err(e)?;
        let style = TextStyle::from(("sans-serif", FONT).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
        for (i, (label, mark)) in self.0.iter().enumerate() {
            let (x, y) = (x0 + PAD, y0 + PAD + ROW * i as i32 + ROW / 2);
            match *mark {
                Mark::Line(s, Dash::Solid) => area.draw(&PathElement::new(vec![(x, y), (x + 18, y)], s)),
                Mark::Line(s, Dash::Long) => area.draw(&DashedPathElement::new(vec![(x, y), (x + 18, y)], 9, 5, s)),
                Mark::Line(s, Dash::Short) => area.draw(&DashedPathElement::new(vec![(x, y), (x + 18, y)], 3, 3, s)),
                Mark::Dot(r, s) => area.draw(&Circle::new((x + 9, y), r, s)),
                Mark::Square(s) => area.draw(&Rectangle::new([(x + 3, y - 5), (x + 15, y + 5)], s)),
                Mark::Triangle(r, s) => area.draw(&TriangleMarker::new((x + 9, y), r, s)),
            }
            .map_err(e)?;
            area.draw(&Text::new(label.as_str(), (x + MARK, y), style.clone())).map_err(e)?;
        }
        Ok(())
    }
}
