//! Each chart's text alternative: the numbers behind its lines, written into the SVG as `<title>`
//! and `<desc>` (with `role="img"`), which screen readers read and the CLI's files keep.

use spotlight_i18n::Lang;
use spotlight_i18n::charts::Summary;

/// A number as a chart reader would say it: three significant digits, no trailing noise. English
/// as it always was (ungrouped: the CLI's files), other languages their own way.
pub fn num(y: f64, lang: Lang) -> String {
    if !y.is_finite() {
        return lang.texts().charts.not_available.into();
    }
    let a = y.abs();
    let decimals = if a >= 100.0 || a == 0.0 {
        0
    } else if a >= 10.0 {
        1
    } else if a >= 1.0 {
        2
    } else {
        3
    };
    match lang {
        Lang::En => format!("{y:.decimals$}"),
        _ => lang.num(y, decimals),
    }
}

/// A share as a percentage.
pub fn pct(y: f64, lang: Lang) -> String {
    if y.is_finite() { lang.pct(y, 0) } else { lang.texts().charts.not_available.into() }
}

/// A number already in percent (`12.5` for 12.5 %), with its sign written the language's way.
pub fn percent(y: f64, lang: Lang) -> String {
    let sign = lang.pct(0.0, 0);
    format!("{}{}", num(y, lang), sign.trim_start_matches('0'))
}

/// One line of a chart in words: each point when there are few, else where it starts, peaks and
/// ends. `x_name` names the x axis ("epoch"); `y` formats a value.
pub fn series(
    label: &str,
    x_name: &str,
    points: &[(f64, f64)],
    y: fn(f64, Lang) -> String,
    lang: Lang,
) -> String {
    let t = &lang.texts().charts;
    let at = |&(px, py): &(f64, f64)| {
        let x = if px.fract() == 0.0 { format!("{px:.0}") } else { num(px, lang) };
        (t.at)(&y(py, lang), x_name, &x)
    };
    match points {
        [] => format!("{label}: {}", t.no_data),
        few if few.len() <= 6 => {
            format!("{label}: {}", few.iter().map(at).collect::<Vec<_>>().join(", "))
        }
        many => {
            let top = many
                .iter()
                .copied()
                .fold((f64::NAN, f64::MIN), |t, p| if p.1 > t.1 { p } else { t });
            let n = lang.plain(many.len());
            format!(
                "{label}: {}",
                (t.summary)(&Summary {
                    count: &n,
                    first: &at(&many[0]),
                    last: &at(&many[many.len() - 1]),
                    top: &at(&top),
                })
            )
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
    format!(
        "{open} role=\"img\"><title>{}</title><desc>{}</desc>{}",
        escape(title),
        escape(desc),
        &rest[1..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_series_read_as_words() {
        let en = Lang::En;
        assert_eq!(num(0.12345, en), "0.123");
        assert_eq!(num(12.345, en), "12.3");
        assert_eq!(num(1234.5, en), "1234");
        assert_eq!(pct(0.875, en), "88%");
        assert_eq!(percent(12.25, en), "12.2%");
        assert_eq!(en.plain(0.001), "0.001");
        assert_eq!(
            series("BN", "epoch", &[(0.0, 0.1), (1.0, 0.5)], pct, en),
            "BN: 10% at epoch 0, 50% at epoch 1"
        );
        let many: Vec<(f64, f64)> =
            (0..10).map(|i| (f64::from(i), if i == 4 { 0.9 } else { 0.2 })).collect();
        assert_eq!(
            series("x", "epoch", &many, pct, en),
            "x: 10 points, from 20% at epoch 0 to 20% at epoch 9, highest 90% at epoch 4"
        );
    }

    #[test]
    fn numbers_and_series_read_in_spanish_and_portuguese() {
        assert_eq!(num(0.12345, Lang::Es), "0,123");
        assert_eq!(num(12345.0, Lang::Es), "12.345");
        assert_eq!(num(f64::NAN, Lang::Pt), "n/d");
        assert_eq!(pct(0.875, Lang::Es), "88\u{a0}%");
        assert_eq!(percent(12.25, Lang::Es), "12,2\u{a0}%");
        assert_eq!(percent(12.25, Lang::Pt), "12,2%");
        assert_eq!(Lang::Pt.plain(0.001), "0,001");
        assert_eq!(
            series("BN", "época", &[(0.0, 0.1), (1.5, 0.5)], pct, Lang::Es),
            "BN: 10\u{a0}% en la época 0, 50\u{a0}% en la época 1,50"
        );
        assert_eq!(series("BN", "época", &[], pct, Lang::Pt), "BN: sem dados");
    }

    #[test]
    fn annotate_adds_role_title_and_desc() {
        let s = annotate(
            "<svg width=\"4\" height=\"4\" xmlns=\"http://www.w3.org/2000/svg\">\n<rect/></svg>",
            "a < b",
            "c & d",
        );
        assert_eq!(
            s,
            "<svg width=\"4\" height=\"4\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\"><title>a &lt; b</title><desc>c &amp; d</desc>\n<rect/></svg>"
        );
    }
}
