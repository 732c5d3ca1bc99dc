//! Each chart's text alternative: the numbers behind its lines, written into the SVG as `<title>`
//! and `<desc>` (with `role="img"`), which screen readers read and the CLI's files keep.

/// A number as a chart reader would say it: three significant digits, no trailing noise.
pub fn num(y: f64) -> String {
    if !y.is_finite() {
        return "n/a".into();
    }
    let a = y.abs();
    if a >= 100.0 || a == 0.0 {
        format!("{y:.0}")
    } else if a >= 10.0 {
        format!("{y:.1}")
    } else if a >= 1.0 {
        format!("{y:.2}")
    } else {
        format!("{y:.3}")
    }
}

/// A share as a percentage.
pub fn pct(y: f64) -> String {
    if y.is_finite() { format!("{:.0}%", 100.0 * y) } else { "n/a".into() }
}

/// One line of a chart in words: each point when there are few, else where it starts, peaks and
/// ends. `x_name` names the x axis ("epoch"); `y` formats a value.
pub fn series(label: &str, x_name: &str, points: &[(f64, f64)], y: fn(f64) -> String) -> String {
    let at = |&(px, py): &(f64, f64)| format!("{} at {x_name} {}", y(py), if px.fract() == 0.0 { format!("{px:.0}") } else { num(px) });
    match points {
        [] => format!("{label}: no data"),
        few if few.len() <= 6 => format!("{label}: {}", few.iter().map(at).collect::<Vec<_>>().join(", ")),
        many => {
            let top = many.iter().copied().fold((f64::NAN, f64::MIN), |t, p| if p.1 > t.1 { p } else { t });
            format!("{label}: {} points, from {} to {}, highest {}", many.len(), at(&many[0]), at(&many[many.len() - 1]), at(&top))
        }
    }
}

/// Escapes text for an SVG element's content.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Gives a drawn SVG its role, title and description: `role="img"` on the root element, then
/// `<title>` and `<desc>` as its first children.
pub fn annotate(svg: &str, title: &str, desc: &str) -> String {
    let Some(start) = svg.find("<svg") else { return svg.to_string() };
    let Some(end) = svg[start..].find('>').map(|e| start + e) else { return svg.to_string() };
    let (open, rest) = svg.split_at(end);
    let open = open.strip_suffix('/').unwrap_or(open);
    format!("{open} role=\"img\"><title>{}</title><desc>{}</desc>{}", escape(title), escape(desc), &rest[1..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_series_read_as_words() {
        assert_eq!(num(0.12345), "0.123");
        assert_eq!(num(12.345), "12.3");
        assert_eq!(num(1234.5), "1234");
        assert_eq!(pct(0.875), "88%");
        assert_eq!(series("BN", "epoch", &[(0.0, 0.1), (1.0, 0.5)], pct), "BN: 10% at epoch 0, 50% at epoch 1");
        let many: Vec<(f64, f64)> = (0..10).map(|i| (f64::from(i), if i == 4 { 0.9 } else { 0.2 })).collect();
        assert_eq!(series("x", "epoch", &many, pct), "x: 10 points, from 20% at epoch 0 to 20% at epoch 9, highest 90% at epoch 4");
    }

    #[test]
    fn annotate_adds_role_title_and_desc() {
        let s = annotate("<svg width=\"4\" height=\"4\" xmlns=\"http://www.w3.org/2000/svg\">\n<rect/></svg>", "a < b", "c & d");
        assert_eq!(
            s,
            "<svg width=\"4\" height=\"4\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\"><title>a &lt; b</title><desc>c &amp; d</desc>\n<rect/></svg>"
        );
    }
}
