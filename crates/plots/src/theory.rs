//! The theory lab's four charts (`spotlight_core::theory`): the data with each model's boundary,
//! the outlier's margin, the measured growth factor against the theorem's (γ/σ)², and γ. Each
//! takes `upto`, how many steps to show (0: before training), so that the panel animates a run by
//! redrawing with a growing `upto`; every range is fixed over the whole run, so nothing jumps.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use spotlight_core::Variant;
use spotlight_core::report::median_of;
use spotlight_core::theory::{Line as Boundary, ModelState, Snapshot, TheoryReport, fitted_from};
use spotlight_i18n::theory::Theory;

use super::legend::{Legend, Mark};
use super::svg::Svg;
use super::{
    Area, BN_COLOR, CAPTION, Dash, GREY, Lang, Line, PLAIN_COLOR, TEXT, WIDTH, describe, lighter,
    marks, mesh, model_name, stroke, svg, text_size, tick,
};

/// Class +1's filled circles and class −1's hollow squares: greys, since colour means a model.
const POS_COLOR: RGBColor = RGBColor(60, 60, 60);
const NEG_COLOR: RGBColor = RGBColor(130, 130, 130);

/// What each chart shows at `upto`, in one sentence — the data (the outlier's margins), the
/// margins (the step each model fitted it from), the ratio (the measured factor over the predicted,
/// in the median) and γ (with and without the outlier) — as the page writes under the charts and
/// each chart's text alternative says after "Step k of N".
pub fn theory_sentences(report: &TheoryReport, upto: usize, lang: Lang) -> [String; 4] {
    let (t, upto) = (texts(lang), upto.min(report.steps.len()));
    let now = snapshot(report, upto);
    let num = |m: f64| describe::num(m, lang);
    let data = (t.data_says)(
        &num(now.plain.outlier_margin),
        now.bn.as_ref().map(|b| num(b.outlier_margin)).as_deref(),
    );
    let fitted = |v: Variant| {
        fitted_from(&report.steps[..upto], |s: &Snapshot| state(s, v).map(|m| m.outlier_margin))
    };
    let bn = has_bn(report);
    let margins = (t.margin_says)(bn.then(|| fitted(Variant::Bn)), fitted(Variant::Plain));
    if !bn {
        return [data, margins, t.no_bn.into(), t.no_bn.into()];
    }
    let n = report.steps[..upto].iter().filter(|s| s.predicted.is_some()).count();
    let same_g = ratio_points(report, upto, Ratio::SameG);
    let med = median_of(same_g.iter().map(|&(_, x, y)| y / x).collect())
        .map_or(lang.texts().charts.not_available.into(), num);
    let ratio = (t.ratio_says)(n, &med, same_g.iter().filter(|p| p.2 <= 0.0).count());
    // Before the first step the twin is the run itself (the same initialization).
    let with = now.gamma.unwrap_or(f64::NAN);
    let without =
        if upto == 0 { with } else { report.twin_gamma.get(upto - 1).copied().unwrap_or(f64::NAN) };
    let gamma = (t.gamma_says)(&num(with), &num(without));
    [data, margins, ratio, gamma]
}

/// The data in the signal plane, the outlier ringed, and each model's boundary after step `upto`
/// (BN solid vermillion, no-BN dashed blue), clipped to the points' range.
pub fn theory_data(report: &TheoryReport, upto: usize, lang: Lang) -> String {
    let (t, upto) = (texts(lang), upto.min(report.steps.len()));
    let now = snapshot(report, upto);
    let [says, ..] = theory_sentences(report, upto, lang);
    let desc = sentences([(t.at_step)(upto, report.steps.len()), says]);
    let frame = std::cell::Cell::new(None);
    let svg = chart(340, t.data_title, &desc, lang, |root| {
        let pts = &report.points;
        let (xr, yr) = (span(pts.iter().map(|p| p.x), 0.08), span(pts.iter().map(|p| p.y), 0.08));
        let mut chart = build(root).build_cartesian_2d(xr.0..xr.1, yr.0..yr.1).map_err(err)?;
        let (a, b) = (chart.backend_coord(&(xr.0, yr.0)), chart.backend_coord(&(xr.1, yr.1)));
        frame.set(Some([
            xr.0,
            yr.0,
            f64::from(a.0),
            f64::from(a.1),
            xr.1,
            yr.1,
            f64::from(b.0),
            f64::from(b.1),
        ]));
        mesh(&mut chart)
            .x_labels(5)
            .y_labels(5)
            .x_label_formatter(&|v| tick(v, lang))
            .y_label_formatter(&|v| tick(v, lang))
            .draw()
            .map_err(err)?;
        let mut keys = Legend::default();
        let clean = |label: i8| -> Vec<(f64, f64)> {
            let them =
                pts.iter().enumerate().filter(|&(i, p)| i != report.outlier && p.label == label);
            them.map(|(_, p)| (p.x, p.y)).collect()
        };
        let (pos, neg) =
            (Mark::Dot(4, POS_COLOR.filled()), Mark::Square(NEG_COLOR.stroke_width(2)));
        marks(&mut chart, clean(1), pos)?;
        marks(&mut chart, clean(-1), neg)?;
        keys.add(t.class_pos, pos);
        keys.add(t.class_neg, neg);
        if let Some(o) = pts.get(report.outlier) {
            let mark = if o.label > 0 { pos } else { neg };
            marks(&mut chart, vec![(o.x, o.y)], mark)?;
            let ring = BLACK.stroke_width(3);
            chart.draw_series([Circle::new((o.x, o.y), 11, ring)]).map_err(err)?;
            keys.add(t.outlier, Mark::Dot(8, ring));
        }
        for (variant, line) in models(now) {
            let (color, dash) = look(variant);
            let style = color.stroke_width(3);
            if let Some([a, b]) = segment(line, xr, yr) {
                stroke(&mut chart, vec![a, b], style, dash)?;
            }
            keys.add(model_name(variant, lang), Mark::Line(style, dash));
        }
        Ok(keys)
    });
    // Where the plane lies in the SVG's own units, for a page that places the outlier by a click:
    // `data-frame="x0 y0 px0 py0 x1 y1 px1 py1"`, two corners in data and in SVG coordinates.
    match frame.get() {
        Some(f) => {
            let f: Vec<String> = f.iter().map(f64::to_string).collect();
            svg.replacen("<svg", &format!("<svg data-frame=\"{}\"", f.join(" ")), 1)
        }
        None => svg,
    }
}

/// The point of the plane at `(px, py)` in a data chart's SVG units, from its `data-frame`
/// ([`theory_data`]); `None` outside the plotting frame (a title, a key) or if the frame does not
/// read.
pub fn theory_point(frame: &str, px: f64, py: f64) -> Option<(f64, f64)> {
    let f: Vec<f64> = frame.split_whitespace().map(str::parse).collect::<Result<_, _>>().ok()?;
    let [x0, y0, px0, py0, x1, y1, px1, py1] = f.as_slice().try_into().ok()?;
    let inside = |v: f64, a: f64, b: f64| v >= a.min(b) && v <= a.max(b);
    if !(inside(px, px0, px1) && inside(py, py0, py1)) {
        return None;
    }
    let along = |v: f64, p0: f64, p1: f64, d0: f64, d1: f64| d0 + (v - p0) * (d1 - d0) / (p1 - p0);
    let (x, y) = (along(px, px0, px1, x0, x1), along(py, py0, py1, y0, y1));
    (x.is_finite() && y.is_finite()).then_some((x, y))
}

/// The outlier's margin over steps 0..=`upto`, BN and no-BN, beside the twin run's (the outlier
/// never trained on: thinner, lighter), with the line margin = 0.
pub fn theory_margins(report: &TheoryReport, upto: usize, lang: Lang) -> String {
    let (t, n) = (texts(lang), report.steps.len());
    let upto = upto.min(n);
    let (mut lines, mut all) = (Vec::new(), vec![0.0]);
    for (variant, twin) in
        [(Variant::Bn, &report.twin_margin_bn), (Variant::Plain, &report.twin_margin_plain)]
    {
        let margin = |s: &Snapshot| state(s, variant).map(|m| m.outlier_margin);
        // The whole run's values set the axis, so that it stays put as the lines grow.
        let whole = over_steps(report, n, margin);
        if whole.is_empty() {
            continue;
        }
        all.extend(whole.iter().map(|p| p.1).chain(twin.iter().copied()));
        let ((color, dash), name) = (look(variant), model_name(variant, lang));
        lines.push(Line {
            label: format!("{name}, {}", t.with_outlier),
            color,
            dash,
            width: 3,
            points: whole.into_iter().take(upto + 1).collect(),
        });
        lines.push(Line {
            label: format!("{name}, {}", t.without_outlier),
            color: lighter(color),
            dash,
            width: 2,
            points: twin_steps(twin, upto),
        });
    }
    let [_, says, ..] = theory_sentences(report, upto, lang);
    let mut desc = vec![(t.at_step)(upto, n), says];
    desc.extend(lines.iter().map(|l| last_said(l, lang)));
    let y = span(all.into_iter(), 0.08);
    step_chart(t.margin_title, t.margin_axis, &sentences(desc), n, y, &lines, Some(0.0), lang)
}

/// Log-log: each measured step (outlier in the batch) up to `upto`, the measured growth factor
/// against the predicted (γ/σ)² — BN's step over the same step without (γ/σ)² (dots, BN's colour)
/// and BN's step over no-BN's (grey triangles) — with the diagonal measured = predicted. Measured
/// values ≤ 0 cannot be drawn there: the text alternative counts them. Without a BN model (nothing
/// measured), a line saying so, as [`theory_gamma`].
pub fn theory_ratio(report: &TheoryReport, upto: usize, lang: Lang) -> String {
    let (t, upto) = (texts(lang), upto.min(report.steps.len()));
    if !has_bn(report) {
        return no_bn(t.ratio_title, lang);
    }
    let series = [
        (t.same_g, Mark::Dot(5, BN_COLOR.filled()), Ratio::SameG),
        (t.two_models, Mark::Triangle(6, GREY.filled()), Ratio::Models),
    ];
    let measured = |n: usize, r: Ratio| ratio_points(report, n, r);
    let all: Vec<f64> = series
        .iter()
        .flat_map(|&(.., r)| measured(report.steps.len(), r))
        .flat_map(|(_, x, y)| [x, y])
        .filter(|v| *v > 0.0)
        .collect();
    let (lo, hi) = log_span(&all);
    let non_positive = |r: Ratio| measured(upto, r).iter().filter(|p| p.2 <= 0.0).count();
    let [_, _, says, _] = theory_sentences(report, upto, lang);
    let mut desc = vec![(t.at_step)(upto, report.steps.len()), says];
    for &(label, _, r) in &series {
        if let Some(&(step, x, y)) = measured(upto, r).last() {
            let (x, y) = (describe::num(x, lang), describe::num(y, lang));
            desc.push(format!(
                "{label} ({} {step}): {} {y}, {} {x}; ≤ 0: {}",
                t.step_axis,
                t.measured_axis,
                t.predicted_axis,
                non_positive(r)
            ));
        }
    }
    chart(360, t.ratio_title, &sentences(desc), lang, |root| {
        let mut chart = build(root)
            .build_cartesian_2d((lo..hi).log_scale(), (lo..hi).log_scale())
            .map_err(err)?;
        mesh(&mut chart)
            .x_desc(t.predicted_axis)
            .y_desc(t.measured_axis)
            .x_labels(5)
            .y_labels(5)
            .x_label_formatter(&|v| log_tick(*v, lang))
            .y_label_formatter(&|v| log_tick(*v, lang))
            .draw()
            .map_err(err)?;
        let mut keys = Legend::default();
        let diagonal = BLACK.mix(0.5).stroke_width(1);
        stroke(&mut chart, vec![(lo, lo), (hi, hi)], diagonal, Dash::Solid)?;
        keys.add(t.diagonal, Mark::Line(diagonal, Dash::Solid));
        for (label, mark, r) in series {
            let drawn = measured(upto, r).into_iter().filter(|p| p.2 > 0.0);
            marks(&mut chart, drawn.map(|(_, x, y)| (x, y)).collect(), mark)?;
            keys.add(label, mark);
        }
        Ok(keys)
    })
}

/// γ over steps 0..=`upto` with the outlier in training (BN's colour, solid) and without (the twin:
/// grey, short dashes). Without a BN model, a line saying so (`no_bn`).
pub fn theory_gamma(report: &TheoryReport, upto: usize, lang: Lang) -> String {
    let (t, upto) = (texts(lang), upto.min(report.steps.len()));
    if !has_bn(report) {
        return no_bn(t.gamma_title, lang);
    }
    let gamma = |s: &Snapshot| s.gamma;
    let lines = [
        Line {
            label: t.with_outlier.into(),
            color: BN_COLOR,
            dash: Dash::Solid,
            width: 3,
            points: over_steps(report, upto, gamma),
        },
        Line {
            label: t.without_outlier.into(),
            color: GREY,
            dash: Dash::Short,
            width: 2,
            points: twin_steps(&report.twin_gamma, upto),
        },
    ];
    let all = over_steps(report, report.steps.len(), gamma).into_iter().map(|p| p.1);
    let y = span(all.chain(report.twin_gamma.iter().copied()), 0.08);
    let [.., says] = theory_sentences(report, upto, lang);
    let desc = sentences([(t.at_step)(upto, report.steps.len()), says]);
    step_chart(t.gamma_title, t.gamma_axis, &desc, report.steps.len(), y, &lines, None, lang)
}

fn texts(lang: Lang) -> &'static Theory {
    &lang.texts().theory
}

/// Whether the run trained a BN model (it has a γ).
fn has_bn(report: &TheoryReport) -> bool {
    report.initial.gamma.is_some() || report.steps.iter().any(|s| s.after.gamma.is_some())
}

/// A chart with nothing to draw without a BN model: its title and a line saying so.
fn no_bn(title: &str, lang: Lang) -> String {
    let says = texts(lang).no_bn;
    let h = PAD + wrap(says, TEXT, WIDTH - 2 * PAD).len() as u32 * row(TEXT);
    chart(h, title, says, lang, |root| {
        draw_wrapped(root, says, TEXT, HPos::Left)?;
        Ok(Legend::default())
    })
}

/// `parts` as sentences: each ended by a full stop (unless it has one).
fn sentences(parts: impl IntoIterator<Item = String>) -> String {
    let ended = parts.into_iter().map(|p| if p.ends_with('.') { p } else { p + "." });
    ended.collect::<Vec<_>>().join(" ")
}

fn err(e: impl ToString) -> String {
    e.to_string()
}

/// The read-outs after step `k` (0: before the first).
fn snapshot(report: &TheoryReport, k: usize) -> &Snapshot {
    if k == 0 { &report.initial } else { &report.steps[k - 1].after }
}

/// A model's read-out in a snapshot, if it was trained.
fn state(s: &Snapshot, variant: Variant) -> Option<&ModelState> {
    match variant {
        Variant::Plain => Some(&s.plain),
        _ => s.bn.as_ref(),
    }
}

/// The models trained, BN first, with their boundaries.
fn models(s: &Snapshot) -> impl Iterator<Item = (Variant, &Boundary)> {
    [Variant::Bn, Variant::Plain].into_iter().filter_map(|v| state(s, v).map(|m| (v, &m.line)))
}

/// A model's colour and dash, as everywhere in the crate.
fn look(variant: Variant) -> (RGBColor, Dash) {
    (if variant == Variant::Plain { PLAIN_COLOR } else { BN_COLOR }, Dash::of(variant))
}

/// `get` of each snapshot from before training to after step `upto`, at its step.
fn over_steps(
    report: &TheoryReport,
    upto: usize,
    get: impl Fn(&Snapshot) -> Option<f64>,
) -> Vec<(f64, f64)> {
    (0..=upto).filter_map(|k| get(snapshot(report, k)).map(|v| (k as f64, v))).collect()
}

/// A twin's values (one after each step) at steps 1..=`upto`.
fn twin_steps(values: &[f64], upto: usize) -> Vec<(f64, f64)> {
    values.iter().take(upto).enumerate().map(|(i, &v)| ((i + 1) as f64, v)).collect()
}

/// A line's label and its value at its last point.
fn last_said(line: &Line, lang: Lang) -> String {
    let last = line.points.last().map_or(f64::NAN, |p| p.1);
    format!("{}: {}", line.label, describe::num(last, lang))
}

/// Which measured ratio of a step.
#[derive(Clone, Copy)]
enum Ratio {
    SameG,
    Models,
}

/// (step, predicted, measured) of each step up to `upto` that has both, predicted above 0.
fn ratio_points(report: &TheoryReport, upto: usize, r: Ratio) -> Vec<(usize, f64, f64)> {
    report.steps[..upto.min(report.steps.len())]
        .iter()
        .filter_map(|s| {
            let y = match r {
                Ratio::SameG => s.ratio_same_g,
                Ratio::Models => s.ratio_models,
            }?;
            let x = s.predicted?;
            (x > 0.0 && x.is_finite() && y.is_finite()).then_some((s.step, x, y))
        })
        .collect()
}

/// The range of `values` (finite ones), widened by `pad` of its extent on each side (and to at
/// least 1 wide when they are all equal); -1..1 of nothing.
fn span(values: impl Iterator<Item = f64>, pad: f64) -> (f64, f64) {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    if lo > hi {
        return (-1.0, 1.0);
    }
    let room = if hi - lo > 1e-9 { pad * (hi - lo) } else { 0.5 };
    (lo - room, hi + room)
}

/// The log axes' range of positive `values` with some room (0.1 to 100 of nothing), at least a
/// factor of 10 wide.
fn log_span(values: &[f64]) -> (f64, f64) {
    let (lo, hi) = values
        .iter()
        .filter(|v| v.is_finite() && **v > 0.0)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)));
    if lo > hi {
        return (0.1, 100.0);
    }
    let (lo, hi) = (lo / 1.5, hi * 1.5);
    let short = (10.0 * lo / hi).max(1.0).sqrt();
    (lo / short, hi * short)
}

/// A log axis's tick: two significant digits, the language's decimal sign.
fn log_tick(v: f64, lang: Lang) -> String {
    format!("{v:.1e}").parse::<f64>().map_or_else(|_| describe::num(v, lang), |r| lang.plain(r))
}

/// Where the boundary `w0·x + w1·y + b = 0` crosses the box `x` × `y`: solved for y along x when
/// |w1| ≥ |w0| (no steeper than 45°), for x along y otherwise, then clipped (Liang–Barsky).
fn segment(l: &Boundary, x: (f64, f64), y: (f64, f64)) -> Option<[(f64, f64); 2]> {
    let (w0, w1, b) = (l.w0, l.w1, l.b);
    if !(w0.is_finite() && w1.is_finite() && b.is_finite()) || (w0 == 0.0 && w1 == 0.0) {
        return None;
    }
    let (p, q) = if w1.abs() >= w0.abs() {
        ((x.0, -(w0 * x.0 + b) / w1), (x.1, -(w0 * x.1 + b) / w1))
    } else {
        ((-(w1 * y.0 + b) / w0, y.0), (-(w1 * y.1 + b) / w0, y.1))
    };
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (d, room) in [(-dx, p.0 - x.0), (dx, x.1 - p.0), (-dy, p.1 - y.0), (dy, y.1 - p.1)] {
        if d == 0.0 {
            if room < 0.0 {
                return None;
            }
        } else if d < 0.0 {
            t0 = t0.max(room / d);
        } else {
            t1 = t1.min(room / d);
        }
    }
    (t0 < t1).then_some([(p.0 + t0 * dx, p.1 + t0 * dy), (p.0 + t1 * dx, p.1 + t1 * dy)])
}

/// The chart builder every plot here starts from (below its title).
fn build<'a, 'b>(area: &'a Area<'b>) -> ChartBuilder<'a, 'a, Svg<'b>> {
    let mut b = ChartBuilder::on(area);
    b.margin(8).margin_right(24).x_label_area_size(48).y_label_area_size(60);
    b
}

/// `text` broken into lines no wider than `width` at font `size` (a word wider stays whole).
fn wrap(text: &str, size: u32, width: u32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(l) if text_size(&format!("{l} {word}"), f64::from(size)).0 <= width => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// One line of text at `size`, in pixels.
fn row(size: u32) -> u32 {
    size * 5 / 4
}

/// Room on each side of a wrapped text.
const PAD: u32 = 10;

/// Draws `text` wrapped to `area`'s width from its top, `anchor` left or centred; returns the
/// height it took.
fn draw_wrapped(area: &Area, text: &str, size: u32, anchor: HPos) -> Result<u32, String> {
    let (w, _) = area.dim_in_pixel();
    let lines = wrap(text, size, w - 2 * PAD);
    let style = TextStyle::from(("sans-serif", size).into_font()).pos(Pos::new(anchor, VPos::Top));
    let x = if matches!(anchor, HPos::Center) { w as i32 / 2 } else { PAD as i32 };
    for (i, line) in lines.iter().enumerate() {
        let y = (PAD / 2 + i as u32 * row(size)) as i32;
        area.draw(&Text::new(line.as_str(), (x, y), style.clone())).map_err(err)?;
    }
    Ok(PAD + lines.len() as u32 * row(size))
}

/// A chart [`WIDTH`] wide: `title` on top (wrapped, not cut, on as many lines as it needs), then
/// `h` pixels that `draw` fills, its key under them; `title` and `desc` its text alternative.
fn chart(
    h: u32,
    title: &str,
    desc: &str,
    lang: Lang,
    draw: impl FnOnce(&Area) -> Result<Legend, String>,
) -> String {
    let head = PAD + wrap(title, CAPTION, WIDTH - 2 * PAD).len() as u32 * row(CAPTION);
    svg(WIDTH, head + h, title, desc, lang, |root| {
        let (top, plot) = root.split_vertically(head);
        draw_wrapped(&top, title, CAPTION, HPos::Center)?;
        draw(&plot)
    })
}

/// Lines over the steps, the x axis the whole run (so that they grow across it), `y` fixed, with
/// an optional horizontal reference line (not keyed: the axis says it).
fn step_chart(
    title: &str,
    y_axis: &str,
    desc: &str,
    steps: usize,
    y: (f64, f64),
    lines: &[Line],
    reference: Option<f64>,
    lang: Lang,
) -> String {
    let t = texts(lang);
    let steps = steps.max(1) as f64;
    chart(300, title, desc, lang, |root| {
        let mut chart = build(root).build_cartesian_2d(0f64..steps, y.0..y.1).map_err(err)?;
        mesh(&mut chart)
            .x_desc(t.step_axis)
            .y_desc(y_axis)
            .x_labels(6)
            .y_labels(6)
            .x_label_formatter(&|v| tick(v, lang))
            .y_label_formatter(&|v| tick(v, lang))
            .draw()
            .map_err(err)?;
        if let Some(r) = reference {
            stroke(&mut chart, vec![(0.0, r), (steps, r)], BLACK.mix(0.5).into(), Dash::Solid)?;
        }
        let mut keys = Legend::default();
        for l in lines {
            let style = l.color.stroke_width(l.width);
            stroke(&mut chart, l.points.clone(), style, l.dash)?;
            keys.add(l.label.as_str(), Mark::Line(style, l.dash));
        }
        Ok(keys)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use spotlight_core::theory::{TheoryConfig, run};

    fn report(config: TheoryConfig) -> TheoryReport {
        run(&config).expect("a valid config")
    }

    fn desc(svg: &str) -> &str {
        svg.split("<desc>").nth(1).and_then(|d| d.split("</desc>").next()).unwrap_or("")
    }

    /// How many `<polyline`s are stroked in `color`.
    fn strokes(svg: &str, color: RGBColor) -> usize {
        let c = format!("stroke=\"#{:02X}{:02X}{:02X}\"", color.0, color.1, color.2);
        svg.split("<polyline")
            .skip(1)
            .filter(|p| p.split('>').next().unwrap_or("").contains(&c))
            .count()
    }

    /// Every font size in `svg` (px), none below the charts' `TEXT`.
    fn assert_text_readable(name: &str, svg: &str) {
        let min = f64::from(TEXT) / 1.24 - 1e-6;
        let sizes: Vec<f64> = svg
            .split("font-size=\"")
            .skip(1)
            .filter_map(|s| s.split('"').next()?.parse().ok())
            .collect();
        assert!(!sizes.is_empty(), "{name}: no text");
        assert!(sizes.iter().all(|&s| s >= min), "{name}: font sizes {sizes:?} below {min}");
    }

    type Draw = fn(&TheoryReport, usize, Lang) -> String;

    const CHARTS: [(&str, Draw); 4] = [
        ("data", theory_data),
        ("margins", theory_margins),
        ("ratio", theory_ratio),
        ("gamma", theory_gamma),
    ];

    fn title(name: &str, t: &Theory) -> &'static str {
        match name {
            "data" => t.data_title,
            "margins" => t.margin_title,
            "ratio" => t.ratio_title,
            _ => t.gamma_title,
        }
    }

    #[test]
    fn every_chart_draws_every_step_titled_and_readable() {
        let r = report(TheoryConfig::default());
        let n = r.steps.len();
        for lang in [Lang::En, Lang::Es, Lang::Pt] {
            let t = texts(lang);
            for (name, draw) in CHARTS {
                for upto in [0, n / 2, n, n + 5] {
                    let svg = draw(&r, upto, lang);
                    let what = format!("{name} at {upto} ({lang:?})");
                    assert!(svg.starts_with("<svg") && svg.contains("role=\"img\""), "{what}");
                    assert!(!svg.contains("chart error"), "{what}: {svg}");
                    let head = format!("<title>{}</title>", title(name, t));
                    assert!(svg.contains(&head), "{what}: {svg}");
                    assert!(desc(&svg).contains(&(t.at_step)(upto.min(n), n)), "{what}");
                    assert!(!desc(&svg).contains(".."), "{what}: {}", desc(&svg));
                    assert_text_readable(&what, &svg);
                }
            }
        }
    }

    #[test]
    fn the_data_chart_draws_one_boundary_per_model() {
        let r = report(TheoryConfig::default());
        let svg = theory_data(&r, r.steps.len(), Lang::En);
        // BN solid: one polyline on the plot, one in the key; no-BN dashed: several.
        assert_eq!(strokes(&svg, BN_COLOR), 2, "{svg}");
        assert!(strokes(&svg, PLAIN_COLOR) >= 2, "{svg}");
        for (_, line) in models(snapshot(&r, r.steps.len())) {
            let pts = &r.points;
            let x = span(pts.iter().map(|p| p.x), 0.08);
            let y = span(pts.iter().map(|p| p.y), 0.08);
            let [a, b] = segment(line, x, y).expect("the fitted boundary crosses the data");
            for p in [a, b] {
                assert!(line.logit(p.0, p.1).abs() < 1e-9, "{p:?} on the line");
            }
        }
        let d = desc(&svg);
        assert!(d.contains("BN") && d.contains("no-BN"), "{d}");
    }

    #[test]
    fn a_click_on_the_data_chart_reads_back_as_its_point() {
        let r = report(TheoryConfig::default());
        let svg = theory_data(&r, 0, Lang::En);
        let frame = svg.split("data-frame=\"").nth(1).unwrap().split('"').next().unwrap();
        let f: Vec<f64> = frame.split(' ').map(|v| v.parse().unwrap()).collect();
        // The corners read back as themselves, the middle as the middle.
        assert_eq!(theory_point(frame, f[2], f[3]), Some((f[0], f[1])));
        let (x, y) = theory_point(frame, (f[2] + f[6]) / 2.0, (f[3] + f[7]) / 2.0).unwrap();
        assert!((x - (f[0] + f[4]) / 2.0).abs() < 1e-9 && (y - (f[1] + f[5]) / 2.0).abs() < 1e-9);
        // Up in the SVG is up in the plane.
        assert!(f[7] < f[3] && f[5] > f[1]);
        assert_eq!(theory_point("1 2 3", 0.0, 0.0), None);
        // Where the chart drew the outlier's ring reads back as the outlier (to a pixel).
        let ring = svg.split("<circle").find(|c| c.contains("r=\"11\"")).expect("the ring");
        let attr = |name: &str| -> f64 {
            let v = ring.split(&format!(" {name}=\"")).nth(1).unwrap().split('"').next().unwrap();
            v.parse().unwrap()
        };
        let (x, y) = theory_point(frame, attr("cx"), attr("cy")).expect("inside the frame");
        let o = &r.points[r.outlier];
        let pixel = (f[4] - f[0]) / (f[6] - f[2]);
        assert!(
            (x - o.x).abs() <= 1.5 * pixel
                && (y - o.y).abs() <= 1.5 * pixel.abs().max((f[5] - f[1]) / (f[3] - f[7])),
            "({x}, {y}) vs ({}, {})",
            o.x,
            o.y
        );
        // Outside the plotting frame (the title, the key) is no point.
        assert_eq!(theory_point(frame, f[2] - 5.0, f[3]), None);
        assert_eq!(theory_point(frame, f[2], f[7] - 5.0), None);
    }

    #[test]
    fn a_boundary_is_clipped_to_the_box_steep_or_not() {
        let boxed = |w0, w1, b| segment(&Boundary { w0, w1, b }, (-2.0, 2.0), (-1.0, 1.0));
        // Vertical: x = 0.5.
        assert_eq!(boxed(2.0, 0.0, -1.0), Some([(0.5, -1.0), (0.5, 1.0)]));
        let nearly = boxed(1.0, 1e-15, -0.5).expect("nearly vertical");
        assert!(nearly.iter().all(|p| (p.0 - 0.5).abs() < 1e-9), "{nearly:?}");
        assert_eq!((nearly[0].1, nearly[1].1), (-1.0, 1.0));
        // Horizontal: y = 0.25.
        assert_eq!(boxed(0.0, 4.0, -1.0), Some([(-2.0, 0.25), (2.0, 0.25)]));
        // The diagonal y = x leaves through the top and bottom.
        assert_eq!(boxed(1.0, -1.0, 0.0), Some([(-1.0, -1.0), (1.0, 1.0)]));
        // Outside the box, or no line at all.
        assert_eq!(boxed(1.0, 0.0, -5.0), None);
        assert_eq!(boxed(0.0, 0.0, 1.0), None);
        assert_eq!(boxed(f64::NAN, 1.0, 0.0), None);
    }

    #[test]
    fn the_ratio_chart_counts_what_log_axes_cannot_show() {
        let mut r = report(TheoryConfig::default());
        let n = r.steps.len();
        let measured: Vec<usize> = (0..n).filter(|&i| r.steps[i].ratio_same_g.is_some()).collect();
        assert!(measured.len() >= 3, "the default run measures some steps");
        for &i in &measured[..2] {
            r.steps[i].ratio_same_g = Some(-0.5);
        }
        r.steps[measured[0]].ratio_models = Some(0.0);
        // Every same-g value ≤ 0 counted: the two set here and those the run had.
        let k = r.steps.iter().filter(|s| s.ratio_same_g.is_some_and(|v| v <= 0.0)).count();
        let d = theory_ratio(&r, n, Lang::En);
        let count = format!("({k} steps measured ≤ 0 are not drawn");
        assert!(k >= 2 && desc(&d).contains(&count), "{count:?} in {}", desc(&d));
        assert!(desc(&d).contains("≤ 0: 1"), "{}", desc(&d));
        // Before the first measured step: nothing drawn, nothing ≤ 0.
        let d0 = theory_ratio(&r, 0, Lang::En);
        assert!(desc(&d0).contains(&(texts(Lang::En).ratio_says)(0, "n/a", 0)), "{}", desc(&d0));
        assert_eq!(log_span(&[]), (0.1, 100.0));
        let (lo, hi) = log_span(&[2.0, 3.0]);
        assert!(lo < 2.0 && hi > 3.0 && hi / lo >= 10.0 - 1e-9, "{lo} {hi}");
    }

    #[test]
    fn without_bn_only_the_plain_model_is_drawn() {
        let r = report(TheoryConfig { bn: false, ..TheoryConfig::default() });
        let t = texts(Lang::En);
        let gamma = theory_gamma(&r, 10, Lang::En);
        assert!(gamma.contains(t.no_bn) && !gamma.contains("chart error"), "{gamma}");
        assert_text_readable("γ without BN", &gamma);
        let ratio = theory_ratio(&r, 10, Lang::En);
        assert!(ratio.contains(t.no_bn) && !ratio.contains("chart error"), "{ratio}");
        let data = theory_data(&r, r.steps.len(), Lang::En);
        assert_eq!(strokes(&data, BN_COLOR), 0, "{data}");
        assert!(strokes(&data, PLAIN_COLOR) >= 2, "{data}");
        let margins = theory_margins(&r, r.steps.len(), Lang::En);
        assert_eq!(strokes(&margins, BN_COLOR), 0, "{margins}");
    }

    #[test]
    fn the_charts_say_the_numbers_at_the_step_shown() {
        let r = report(TheoryConfig::default());
        let k = r.steps.len() / 2;
        let now = &r.steps[k - 1].after;
        let num = |v: f64| describe::num(v, Lang::En);
        let g = theory_gamma(&r, k, Lang::En);
        let says =
            (texts(Lang::En).gamma_says)(&num(now.gamma.unwrap()), &num(r.twin_gamma[k - 1]));
        assert!(desc(&g).contains(&says), "{says:?} in {}", desc(&g));
        let m = theory_margins(&r, k, Lang::En);
        let plain = format!("no-BN, with the outlier: {}", num(now.plain.outlier_margin));
        assert!(desc(&m).contains(&plain), "{plain:?} in {}", desc(&m));
        let d = theory_data(&r, k, Lang::Es);
        assert!(desc(&d).contains(&describe::num(now.plain.outlier_margin, Lang::Es)));
    }
}
