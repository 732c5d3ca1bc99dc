//! The SVG the charts draw on, with text sized from a table of glyph widths instead of by the page.
//!
//! plotters sizes text through its font backend, and on wasm32 that is always its `web` backend: a
//! `<span>` appended to the page and its `offsetWidth` read back, one forced layout per label. A
//! chart has dozens of labels, so each redraw held the page's thread for 100–300 ms. Here every
//! size plotters asks for comes from [`text_size`] — the same on every target, so the app's and
//! the CLI's charts are laid out alike — and the legends ([`crate::legend`]) are sized the same way.

use plotters::backend::DrawingBackend;
use plotters::prelude::SVGBackend;
use plotters_backend::{BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind};

/// plotters draws an SVG font at its size ÷ 1.24 (`plotters-svg`'s `draw_text`).
const SVG_FONT_SCALE: f64 = 1.24;

/// Advance widths of Helvetica/Arial (per mille of the em) for ASCII 32–126; other characters
/// count as a digit. An estimate: the browser's own sans-serif may differ by ~10 %, which moves a
/// legend's edge by a few pixels, never the data.
const WIDTHS: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278,
    278, // ' '..'/'
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584,
    556, // '0'..'?'
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722,
    778, // '@'..'O'
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469,
    556, // 'P'..'_'
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556,
    556, // '`'..'o'
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // 'p'..'~'
];

/// Width and height in pixels of `text` drawn at plotters' font `size`.
pub fn text_size(text: &str, size: f64) -> (u32, u32) {
    let em = size / SVG_FONT_SCALE;
    let per_mille: u32 = text
        .chars()
        .map(|c| match c as u32 {
            code @ 32..=126 => u32::from(WIDTHS[(code - 32) as usize]),
            _ => 556,
        })
        .sum();
    ((em * f64::from(per_mille) / 1000.0).ceil() as u32, (em * 1.15).ceil() as u32)
}

/// plotters' SVG backend, drawing unchanged, with [`text_size`] answering for the text.
pub struct Svg<'a>(pub SVGBackend<'a>);

impl DrawingBackend for Svg<'_> {
    type ErrorType = std::io::Error;

    fn get_size(&self) -> (u32, u32) {
        self.0.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: plotters_backend::BackendColor,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.fill_polygon(vert, style)
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_text(text, style, pos)
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        Ok(text_size(text, style.size()))
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.blit_bitmap(pos, size, src)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_sized_by_its_characters_and_font_size() {
        // Helvetica: "0.5" = 556 + 278 + 556 per mille; at size 12.4 the em is 10 px.
        assert_eq!(text_size("0.5", 12.4), (14, 12));
        assert!(text_size("mmmm", 11.0).0 > text_size("iiii", 11.0).0);
        assert_eq!(
            text_size("γ", 12.4).0,
            text_size("0", 12.4).0,
            "other characters count as a digit"
        );
        assert_eq!(text_size("", 18.0).0, 0);
        assert!(text_size("epoch", 22.0).0 > text_size("epoch", 11.0).0);
    }
}
