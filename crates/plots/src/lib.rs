//! Spotlight's charts, as SVG strings drawn with plotters: the app puts them in the page, the CLI
//! writes them to files. One drawing per lens of the paper.

mod describe;
mod legend;
mod svg;
mod theory;

/// The charts' language (every public chart function takes one, last).
pub use spotlight_i18n::Lang;
pub use svg::text_size;
pub use theory::{theory_data, theory_gamma, theory_margins, theory_point, theory_ratio};

use legend::{Legend, Mark};
use plotters::coord::Shift;
use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use spotlight_core::Variant;
use spotlight_core::paper::PaperTable;
use spotlight_core::report::{AttackReport, EpochRecord, LivePoint, ModelRun, Report, median};
use spotlight_i18n::charts::Charts;

/// The models' colours, everywhere: from Okabe and Ito's palette, which stays distinguishable with
/// each common colour-vision deficiency — BN vermillion, no-BN blue, BN with the regularizer
/// reddish purple. The lines differ in their dashes too ([`Dash`]), so that no chart tells the
/// models apart by colour alone.
pub const BN_COLOR: RGBColor = RGBColor(213, 94, 0);
pub const PLAIN_COLOR: RGBColor = RGBColor(0, 114, 178);
const REG_COLOR: RGBColor = RGBColor(204, 121, 167);
const GREY: RGBColor = RGBColor(120, 120, 120);

/// How a line is stroked: BN solid, no-BN in long dashes, BN with the regularizer in short ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dash {
    Solid,
    Long,
    Short,
}

impl Dash {
    fn of(variant: Variant) -> Self {
        match variant {
            Variant::Bn => Self::Solid,
            Variant::Plain => Self::Long,
            Variant::BnReg => Self::Short,
        }
    }
}

/// Draws a line through `points` in `style`, dashed as `dash` says.
fn stroke<CT>(
    chart: &mut ChartContext<'_, svg::Svg<'_>, CT>,
    points: Vec<CT::From>,
    style: ShapeStyle,
    dash: Dash,
) -> Result<(), String>
where
    CT: CoordTranslate,
    CT::From: Clone + 'static,
{
    match dash {
        Dash::Solid => chart.draw_series(LineSeries::new(points, style)).map(drop),
        Dash::Long => chart.draw_series(DashedLineSeries::new(points, 9, 5, style)).map(drop),
        Dash::Short => chart.draw_series(DashedLineSeries::new(points, 3, 3, style)).map(drop),
    }
    .map_err(|e| e.to_string())
}

type Area<'a> = DrawingArea<svg::Svg<'a>, Shift>;

/// The size of every chart text (axes, ticks, keys), in plotters' units (an SVG font of size ÷
/// 1.24 px): a chart is drawn [`WIDTH`] wide and shown at most that wide, and at its narrowest (a
/// 390 px phone, ~350 px for the chart) its text is still ≥ 11 px (the browser tests measure it).
pub(crate) const TEXT: u32 = 21;
/// A chart's title.
const CAPTION: u32 = 21;
/// The width every chart is drawn at.
pub const WIDTH: u32 = 480;
/// The most a chart's key may take under it (a key that needs less is cropped away).
const KEY_ROOM: u32 = 260;

/// Configures a chart's mesh with the charts' text size.
fn mesh<'a, 'b, X, Y>(
    chart: &'b mut ChartContext<'a, svg::Svg<'a>, Cartesian2d<X, Y>>,
) -> plotters::chart::MeshStyle<'a, 'b, X, Y, svg::Svg<'a>>
where
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let mut m = chart.configure_mesh();
    m.label_style(("sans-serif", TEXT))
        .axis_desc_style(("sans-serif", TEXT))
        .max_light_lines(1)
        .light_line_style(BLACK.mix(0.06));
    m
}
/// One number of an epoch, when it has it.
type Field = fn(&EpochRecord) -> Option<f64>;
/// One number of a live read-out, when it has it.
type LiveField = fn(&LivePoint) -> Option<f64>;

/// A chart drawn by `draw` on a `w` × `h` area, its key (what `draw` returns) under it, with
/// `title` and `desc` (the numbers behind it, in words) as its text alternative.
fn svg(
    w: u32,
    h: u32,
    title: &str,
    desc: &str,
    lang: Lang,
    draw: impl FnOnce(&Area) -> Result<Legend, String>,
) -> String {
    let mut s = String::new();
    let key_height;
    {
        let root = svg::Svg(SVGBackend::with_string(&mut s, (w, h + KEY_ROOM))).into_drawing_area();
        let (plot, below) = root.split_vertically(h);
        let result = root
            .fill(&WHITE)
            .map_err(|e| e.to_string())
            .and_then(|_| draw(&plot))
            .and_then(|keys| keys.draw_below(&below));
        match result {
            Ok(used) => key_height = used.min(KEY_ROOM),
            Err(e) => {
                drop((plot, below, root));
                return format!(
                    "<svg xmlns='http://www.w3.org/2000/svg' width='{w}' height='40'><text x='4' y='20'>{}: {}</text></svg>",
                    lang.texts().charts.chart_error,
                    e.replace('<', "&lt;")
                );
            }
        }
        let _ = root.present();
    }
    describe::annotate(&crop(&s, w, h + KEY_ROOM, h + key_height), title, desc)
}

/// The SVG `s` (drawn `w` × `from`) with its height and view box cut to `to`: what its key did not use.
fn crop(s: &str, w: u32, from: u32, to: u32) -> String {
    let head_end = s.find('>').unwrap_or(0);
    let (head, rest) = s.split_at(head_end);
    let head = head
        .replacen(&format!("height=\"{from}\""), &format!("height=\"{to}\""), 1)
        .replacen(&format!("viewBox=\"0 0 {w} {from}\""), &format!("viewBox=\"0 0 {w} {to}\""), 1);
    format!("{head}{rest}")
}

/// A model's name in `lang`: "BN", "no-BN", "BN + γ/σ reg" in English.
pub fn model_name(variant: Variant, lang: Lang) -> &'static str {
    let m = &lang.texts().charts.models;
    match variant {
        Variant::BnReg => m.bn_reg,
        Variant::Bn => m.bn,
        Variant::Plain => m.no_bn,
    }
}

fn run_name(report: &Report, run: &ModelRun, lang: Lang) -> &'static str {
    model_name(report.variant(run), lang)
}

/// An axis's tick label: plotters' own (English; a whole number without decimals), with the
/// language's decimal sign.
fn tick(v: &f64, lang: Lang) -> String {
    let s = if v.fract() == 0.0 && v.abs() < 1e9 {
        format!("{v:.0}")
    } else {
        RangedCoordf64::format(v)
    };
    match lang {
        Lang::En => s,
        _ => s.replace('.', ","),
    }
}

fn dash_of(report: &Report, run: &ModelRun) -> Dash {
    Dash::of(report.variant(run))
}

fn color_of(report: &Report, run: &ModelRun) -> RGBColor {
    match report.variant(run) {
        Variant::BnReg => REG_COLOR,
        Variant::Bn => BN_COLOR,
        Variant::Plain => PLAIN_COLOR,
    }
}

/// A group of samples in [`accuracy_curves`], named in the chart's language.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Group {
    NoisyLive,
    CleanLive,
    Flipped,
    Ood,
    CleanTrain,
    Test,
}

impl Group {
    fn label(self, t: &Charts) -> &'static str {
        match self {
            Self::NoisyLive => t.noisy_live,
            Self::CleanLive => t.clean_live,
            Self::Flipped => t.flipped,
            Self::Ood => t.ood,
            Self::CleanTrain => t.clean_train,
            Self::Test => t.test,
        }
    }
}

/// A model's mark at its epoch points, so that no chart tells the models apart by colour alone: a
/// circle for BN, a triangle for no-BN, a square for BN with the regularizer.
fn model_mark(variant: Variant, style: ShapeStyle) -> Mark {
    match variant {
        Variant::Bn => Mark::Dot(5, style),
        Variant::Plain => Mark::Triangle(6, style),
        Variant::BnReg => Mark::Square(style),
    }
}

/// Draws `mark` at each of `points`.
fn marks<CT>(
    chart: &mut ChartContext<'_, svg::Svg<'_>, CT>,
    points: Vec<(f64, f64)>,
    mark: Mark,
) -> Result<(), String>
where
    CT: CoordTranslate<From = (f64, f64)>,
{
    match mark {
        Mark::Dot(r, st) => {
            chart.draw_series(points.into_iter().map(|p| Circle::new(p, r, st))).map(drop)
        }
        Mark::Triangle(r, st) => {
            chart.draw_series(points.into_iter().map(|p| TriangleMarker::new(p, r, st))).map(drop)
        }
        Mark::Square(st) | Mark::Line(st, _) => chart
            .draw_series(
                points
                    .into_iter()
                    .map(|p| EmptyElement::at(p) + Rectangle::new([(-5, -5), (5, 5)], st)),
            )
            .map(drop),
    }
    .map_err(|e| e.to_string())
}

/// Accuracy over training, every model on the same axes, in two panels: above, memorization (the
/// noisy members, which only memorization fits), below, learning (clean members and the test set).
/// Colour (and the mark at each epoch) says the model; the line says what is measured, once, in
/// the key. With live read-outs the lines follow them within each epoch (noisy and clean members
/// of the live sample), and each epoch's measurement of *all* flipped (and OOD) members is a
/// filled mark; without, lines join the epoch measurements. Test accuracy is dashed. The x axis
/// ends at the run's last epoch.
pub fn accuracy_curves(reports: &[&Report], title: &str, lang: Lang) -> String {
    const LIVE: [(Group, LiveField); 2] =
        [(Group::NoisyLive, |p| p.acc_noisy), (Group::CleanLive, |p| p.acc_clean)];
    const EPOCHS: [(Group, Field); 4] = [
        (Group::Flipped, |e| e.acc_flipped),
        (Group::Ood, |e| e.acc_ood),
        (Group::CleanTrain, |e| e.acc_clean),
        (Group::Test, |e| Some(e.acc_test)),
    ];
    let t = &lang.texts().charts;
    let live_points = |run: &ModelRun, get: LiveField| -> Vec<(f64, f64)> {
        run.live.iter().filter_map(|p| get(p).map(|a| (p.at, a))).collect()
    };
    let epoch_points = |run: &ModelRun, get: Field| -> Vec<(f64, f64)> {
        run.epochs.iter().filter_map(|e| get(e).map(|a| (e.epoch as f64, a))).collect()
    };
    let mut desc = vec![t.accuracy_desc.to_string()];
    for r in reports {
        for run in &r.runs {
            let name = run_name(r, run, lang);
            for (group, get) in EPOCHS {
                let pts = epoch_points(run, get);
                if !pts.is_empty() {
                    desc.push(describe::series(
                        &format!("{name}, {}", group.label(t)),
                        t.epoch,
                        &pts,
                        describe::pct,
                        lang,
                    ));
                }
            }
            for (group, get) in LIVE {
                let pts = live_points(run, get);
                if !pts.is_empty() {
                    desc.push(describe::series(
                        &format!("{name}, {}", group.label(t)),
                        t.epoch,
                        &pts,
                        describe::pct,
                        lang,
                    ));
                }
            }
        }
    }
    svg(WIDTH, 430, title, &desc.join(". "), lang, |root| {
        let epochs = reports.iter().map(|r| r.config.epochs).max().unwrap_or(1).max(1);
        let (upper, lower) = root.split_vertically(250);
        let mut keys = Legend::default();
        // The models, once: their colour and mark.
        for r in reports {
            for run in &r.runs {
                keys.add(
                    run_name(r, run, lang),
                    model_mark(r.variant(run), color_of(r, run).filled()),
                );
            }
        }
        let ink = BLACK.mix(0.75);
        for (panel, memorization) in [(&upper, true), (&lower, false)] {
            let mut chart = ChartBuilder::on(panel)
                .caption(
                    if memorization { t.memorized } else { t.learned },
                    ("sans-serif", CAPTION),
                )
                .margin(8)
                .margin_right(24)
                .x_label_area_size(if memorization { 8 } else { 44 })
                .y_label_area_size(56)
                .build_cartesian_2d(0f64..epochs as f64, 0f64..1f64)
                .map_err(|e| e.to_string())?;
            let (y_fmt, x_fmt) = (|v: &f64| describe::pct(*v, lang), |v: &f64| tick(v, lang));
            let mut m = mesh(&mut chart);
            // (The panel's title says what is measured; the ticks say it is a share.)
            m.y_labels(if memorization { 6 } else { 3 }).y_label_formatter(&y_fmt);
            if memorization {
                m.x_labels(0);
            } else {
                m.x_labels(epochs.min(10) + 1).x_desc(t.epoch_axis).x_label_formatter(&x_fmt);
            }
            m.draw().map_err(|e| e.to_string())?;
            for r in reports {
                for run in &r.runs {
                    let c = color_of(r, run);
                    let mark = model_mark(r.variant(run), c.filled());
                    let live = !run.live.is_empty();
                    if live {
                        let (group, get) = LIVE[usize::from(!memorization)];
                        let width = if memorization { 3 } else { 2 };
                        stroke(
                            &mut chart,
                            live_points(run, get),
                            c.stroke_width(width),
                            Dash::Solid,
                        )?;
                        keys.add(group.label(t), Mark::Line(ink.stroke_width(width), Dash::Solid));
                    }
                    for (group, get) in EPOCHS {
                        let pts = epoch_points(run, get);
                        let noisy = matches!(group, Group::Flipped | Group::Ood);
                        if pts.is_empty() || noisy != memorization {
                            continue;
                        }
                        let label = group.label(t);
                        if group == Group::Test {
                            // Dashed for what it measures, the model's mark at each epoch (never colour alone).
                            stroke(&mut chart, pts.clone(), c.stroke_width(2), Dash::Long)?;
                            marks(&mut chart, pts, model_mark(r.variant(run), c.stroke_width(1)))?;
                            keys.add(label, Mark::Line(ink.stroke_width(2), Dash::Long));
                        } else if !live {
                            let width = if memorization { 3 } else { 2 };
                            let dash = if group == Group::Ood { Dash::Short } else { Dash::Solid };
                            stroke(&mut chart, pts.clone(), c.stroke_width(width), dash)?;
                            marks(&mut chart, pts, mark)?;
                            keys.add(label, Mark::Line(ink.stroke_width(width), dash));
                        } else if group == Group::CleanTrain {
                            // The live clean line says it; the whole group's epochs add little.
                        } else {
                            // The whole group's accuracy at each epoch's end: the model's mark,
                            // filled for flipped, open for OOD.
                            let filled = group == Group::Flipped;
                            let style = if filled { c.filled() } else { c.stroke_width(2) };
                            marks(&mut chart, pts, model_mark(r.variant(run), style))?;
                            let ink_style = if filled { ink.filled() } else { ink.stroke_width(2) };
                            keys.add(
                                format!("{label}, {}", t.all_per_epoch),
                                Mark::Dot(5, ink_style),
                            );
                        }
                    }
                }
            }
        }
        Ok(keys)
    })
}

/// The loss-threshold attack's AUC over training, from the live read-outs (members of the live
/// sample against its non-members), with chance (0.5) marked. Empty without live read-outs.
pub fn live_attack_curves(report: &Report, lang: Lang) -> String {
    let t = &lang.texts().charts;
    let series: Vec<Line> = report
        .runs
        .iter()
        .map(|run| Line {
            label: format!("{}: {}", run_name(report, run, lang), t.loss_attack),
            color: color_of(report, run),
            dash: dash_of(report, run),
            width: 2,
            points: run.live.iter().filter_map(|p| p.loss_auc.map(|a| (p.at, a))).collect(),
        })
        .filter(|l| !l.points.is_empty())
        .collect();
    if series.is_empty() {
        return String::new();
    }
    lines(t.live_attack_title, t.epoch, "AUC", &series, Some((0.5, t.chance)), lang)
}

/// The scale-free gradient per unit of error of each probe (last epoch, `Mechanism::scaled_grad`),
/// histograms of clean vs noisy, one panel per model: to be compared within a model.
pub fn grad_norm_histograms(report: &Report, lang: Lang) -> String {
    let t = &lang.texts().charts;
    let scaled =
        |r: &ModelRun| r.last().and_then(|e| e.mechanism.as_ref()).map(|m| m.scaled_grad.clone());
    let runs: Vec<&ModelRun> = report.runs.iter().filter(|r| scaled(r).is_some()).collect();
    let mut desc = vec![t.grad_hist_desc.to_string()];
    for run in &runs {
        let g = scaled(run).unwrap_or_default();
        for (group, v) in [(t.clean, &g.clean), (t.noisy, &g.noisy)] {
            if let Some(m) = median(v) {
                let said = (t.median_over)(&describe::num(m, lang), &lang.plain(v.len()));
                desc.push(format!("{}, {group}: {said}", run_name(report, run, lang)));
            }
        }
    }
    let panel_h = 170;
    svg(
        WIDTH,
        panel_h * runs.len().max(1) as u32,
        t.grad_hist_title,
        &desc.join(". "),
        lang,
        |root| {
            let all: Vec<f64> = runs
                .iter()
                .flat_map(|r| {
                    let g = scaled(r).unwrap_or_default();
                    g.clean
                        .iter()
                        .chain(&g.noisy)
                        .map(|&x| f64::from(x).max(1e-6).log10())
                        .collect::<Vec<_>>()
                })
                .collect();
            if all.is_empty() {
                root.draw(&Text::new(t.no_grad_norms, (10, 20), ("sans-serif", TEXT)))
                    .map_err(|e| e.to_string())?;
                return Ok(Legend::default());
            }
            let (lo, hi) = all.iter().fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
            let (lo, hi) = (lo.floor(), (hi + 1e-9).ceil().max(lo.floor() + 1.0));
            let bins = 24usize;
            let width = (hi - lo) / bins as f64;
            // One panel a model, stacked (each as wide as the chart, on a phone too), the x axis once.
            let panels = root.split_evenly((runs.len().max(1), 1));
            let mut keys = Legend::default();
            keys.add(t.clean, Mark::Square(GREY.mix(0.6).filled()));
            for (i, (run, panel)) in runs.iter().zip(panels.iter()).enumerate() {
                let last = i + 1 == runs.len();
                let g = scaled(run).unwrap_or_default();
                let hist = |v: &[f32]| {
                    let mut h = vec![0f64; bins];
                    for &x in v {
                        let b = ((f64::from(x).max(1e-6).log10() - lo) / width).floor() as isize;
                        h[b.clamp(0, bins as isize - 1) as usize] += 1.0;
                    }
                    let n = v.len().max(1) as f64;
                    h.into_iter().map(move |c| c / n).collect::<Vec<f64>>()
                };
                let (hc, hn) = (hist(&g.clean), hist(&g.noisy));
                let ymax = hc.iter().chain(&hn).cloned().fold(0.05, f64::max) * 1.1;
                let mut chart = ChartBuilder::on(panel)
                    .caption(
                        format!("{}: {}", run_name(report, run, lang), t.per_sample),
                        ("sans-serif", TEXT),
                    )
                    .margin(6)
                    .margin_right(24)
                    .x_label_area_size(if last { 44 } else { 4 })
                    .y_label_area_size(60)
                    .build_cartesian_2d(lo..hi, 0f64..ymax)
                    .map_err(|e| e.to_string())?;
                let fmt = |v: &f64| tick(v, lang);
                let mut m = mesh(&mut chart);
                m.y_desc(t.fraction).y_labels(3).y_label_formatter(&fmt);
                if last {
                    m.x_desc(t.log_grad_norm).x_labels(5).x_label_formatter(&fmt);
                } else {
                    m.x_labels(0);
                }
                m.draw().map_err(|e| e.to_string())?;
                let noisy = format!("{}: {}", run_name(report, run, lang), t.noisy);
                for (h, c, label) in
                    [(&hc, GREY, t.clean.to_string()), (&hn, color_of(report, run), noisy)]
                {
                    chart
                        .draw_series(h.iter().enumerate().map(|(i, &v)| {
                            let x0 = lo + i as f64 * width;
                            Rectangle::new([(x0, 0.0), (x0 + width, v)], c.mix(0.45).filled())
                        }))
                        .map_err(|e| e.to_string())?;
                    keys.add(label, Mark::Square(c.mix(0.6).filled()));
                }
            }
            Ok(keys)
        },
    )
}

/// One line of a [`lines`] chart.
pub struct Line {
    pub label: String,
    pub color: RGBColor,
    pub dash: Dash,
    pub width: u32,
    pub points: Vec<(f64, f64)>,
}

/// A chart of lines on linear axes (the range fitted to the data, from 0), with an optional
/// horizontal reference line.
pub fn lines(
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[Line],
    reference: Option<(f64, &str)>,
    lang: Lang,
) -> String {
    let t = &lang.texts().charts;
    // The x axis named by its first word ("epoch"), for the text alternative.
    let x_name = x_desc.split_whitespace().next().unwrap_or("x");
    let mut desc = vec![format!("{y_desc} {} {x_name}", t.by)];
    desc.extend(
        series.iter().map(|l| describe::series(&l.label, x_name, &l.points, describe::num, lang)),
    );
    if let Some((y, label)) = reference {
        desc.push(format!("{} {}: {label}", t.reference_at, describe::num(y, lang)));
    }
    svg(WIDTH, 300, title, &desc.join(". "), lang, |root| {
        let pts = series.iter().flat_map(|l| l.points.iter());
        let (xmax, ymax) = pts
            .fold((1.0f64, reference.map_or(0.0, |r| r.0)), |(a, b), &(x, y)| (a.max(x), b.max(y)));
        let ymax = if ymax > 0.0 { ymax * 1.1 } else { 1.0 };
        let mut chart = ChartBuilder::on(root)
            .caption(title, ("sans-serif", CAPTION))
            .margin(10)
            .margin_right(24)
            .x_label_area_size(48)
            .y_label_area_size(60)
            .build_cartesian_2d(0f64..xmax, 0f64..ymax)
            .map_err(|e| e.to_string())?;
        mesh(&mut chart)
            .x_desc(x_desc)
            .y_desc(y_desc)
            // Whole epochs as ticks, up to 10 of them (beyond, plotters' own choice).
            .x_labels(if xmax <= 10.0 { xmax.ceil() as usize + 1 } else { 10 })
            .x_label_formatter(&|v| tick(v, lang))
            .y_label_formatter(&|v| tick(v, lang))
            .draw()
            .map_err(|e| e.to_string())?;
        let mut keys = Legend::default();
        if let Some((y, label)) = reference {
            let style = BLACK.mix(0.6).stroke_width(1);
            stroke(&mut chart, vec![(0.0, y), (xmax, y)], style, Dash::Solid)?;
            keys.add(label, Mark::Line(style, Dash::Solid));
        }
        for l in series {
            let style = l.color.stroke_width(l.width);
            stroke(&mut chart, l.points.clone(), style, l.dash)?;
            keys.add(l.label.as_str(), Mark::Line(style, l.dash));
        }
        Ok(keys)
    })
}

/// The BN layers' looks in the γ/σ chart (Okabe–Ito: vermillion, orange, sky blue, bluish green;
/// each with its own dash as well).
const LAYER_LOOKS: [(RGBColor, Dash); 4] = [
    (BN_COLOR, Dash::Solid),
    (RGBColor(230, 159, 0), Dash::Long),
    (RGBColor(86, 180, 233), Dash::Short),
    (RGBColor(0, 158, 115), Dash::Long),
];

/// γ/σ per BN layer over the epochs — the median over channels with the batch σ (the paper's σ),
/// epoch 0 the untrained model — with the line γ/σ = 1.
pub fn gamma_sigma_curves(reports: &[&Report], lang: Lang) -> String {
    let t = &lang.texts().charts;
    let mut series = Vec::new();
    for r in reports {
        for run in r.runs.iter().filter(|run| run.batch_norm) {
            let layers = run.epochs.first().map_or(0, |e| e.gamma_sigma.len());
            for l in 0..layers {
                let (layer_color, dash) = LAYER_LOOKS[l % LAYER_LOOKS.len()];
                let color = if r.variant(run) == Variant::BnReg { REG_COLOR } else { layer_color };
                series.push(Line {
                    label: format!(
                        "{} {}",
                        run_name(r, run, lang),
                        run.epochs[0].gamma_sigma[l].layer
                    ),
                    color,
                    dash,
                    width: 2,
                    points: run
                        .epochs
                        .iter()
                        .filter_map(|e| {
                            e.gamma_sigma.get(l).map(|g| (e.epoch as f64, g.batch_median))
                        })
                        .collect(),
                });
            }
        }
    }
    lines(t.gamma_title, t.epoch_axis, t.median_gamma_sigma, &series, Some((1.0, "γ/σ = 1")), lang)
}

/// Median per-step self-influence (`Mechanism::influence_run`: one step of the run's optimizer
/// moves the sample's own margin this much, per unit learning rate) of the noisy (thick) and clean
/// probes over the epochs, per model. Margins are logits: comparable across models.
pub fn grad_norm_curves(report: &Report, lang: Lang) -> String {
    let t = &lang.texts().charts;
    let mut series = Vec::new();
    for run in &report.runs {
        for (noisy, group, width) in [(true, t.noisy, 3u32), (false, t.clean, 1)] {
            let points = run
                .epochs
                .iter()
                .filter_map(|e| {
                    let g = &e.mechanism.as_ref()?.influence_run;
                    median(if noisy { &g.noisy } else { &g.clean }).map(|m| (e.epoch as f64, m))
                })
                .collect();
            series.push(Line {
                label: format!("{}: {group}", run_name(report, run, lang)),
                color: color_of(report, run),
                dash: dash_of(report, run),
                width,
                points,
            });
        }
    }
    lines(t.grad_curves_title, t.epoch_axis, t.gradient_norm, &series, None, lang)
}

/// A noise level's look in the paper's γ charts: none grey and solid, low sky blue in long
/// dashes, high vermillion in short ones.
fn noise_look(noise: f64) -> (RGBColor, Dash) {
    if noise <= 0.0 {
        (GREY, Dash::Solid)
    } else if noise < 0.03 {
        (RGBColor(86, 180, 233), Dash::Long)
    } else {
        (BN_COLOR, Dash::Short)
    }
}

fn lighter(c: RGBColor) -> RGBColor {
    RGBColor(
        ((u16::from(c.0) + 255) / 2) as u8,
        ((u16::from(c.1) + 255) / 2) as u8,
        ((u16::from(c.2) + 255) / 2) as u8,
    )
}

fn epoch_points(v: &[f64]) -> Vec<(f64, f64)> {
    v.iter().enumerate().map(|(e, &y)| (e as f64, y)).collect()
}

/// The paper panel's charts from a merged [`PaperTable`] (means over seeds): (title, SVG) for
/// memorization, gradient norms, γ/σ and γ (the feedback loop), and the λ trade-off.
pub fn paper_charts(table: &PaperTable, lang: Lang) -> Vec<(&'static str, String)> {
    let t = &lang.texts().charts;
    let name = |bn: bool| model_name(Variant::unregularized(bn), lang);
    let mut memo = Vec::new();
    let mut grads = Vec::new();
    let mut gs = Vec::new();
    let mut gamma = Vec::new();
    for c in &table.curves {
        let tag = format!("{} {}", name(c.batch_norm), lang.pct(c.noise, 0));
        let color = if c.batch_norm { BN_COLOR } else { PLAIN_COLOR };
        let dash = Dash::of(Variant::unregularized(c.batch_norm));
        if c.noise > 0.0 {
            let width = if c.noise > 0.03 { 3 } else { 1 };
            memo.push(Line {
                label: tag.clone(),
                color,
                dash,
                width,
                points: epoch_points(&c.flipped_acc),
            });
            grads.push(Line {
                label: format!("{tag} {}", t.noisy),
                color,
                dash,
                width,
                points: epoch_points(&c.influence_noisy),
            });
            grads.push(Line {
                label: format!("{tag} {}", t.clean),
                color: lighter(color),
                dash,
                width: 1,
                points: epoch_points(&c.influence_clean),
            });
        }
        if c.batch_norm && !c.gamma_sigma.is_empty() {
            let layers = c.gamma_sigma.len() as f64;
            let mean = |m: &Vec<Vec<f64>>| -> Vec<f64> {
                (0..m[0].len()).map(|e| m.iter().map(|l| l[e]).sum::<f64>() / layers).collect()
            };
            let (color, dash) = noise_look(c.noise);
            let line = |per_layer| Line {
                label: format!("{} {}", lang.pct(c.noise, 0), t.noise),
                color,
                dash,
                width: 2,
                points: epoch_points(&mean(per_layer)),
            };
            gs.push(line(&c.gamma_sigma));
            gamma.push(line(&c.mean_gamma));
        }
    }
    vec![
        ("memorization", lines(t.paper_memo_title, t.epoch, t.flipped_acc_pct, &memo, None, lang)),
        ("gradients", lines(t.paper_grads_title, t.epoch, t.gradient_norm, &grads, None, lang)),
        (
            "gamma-sigma",
            lines(t.paper_gs_title, t.epoch_axis, "γ/σ", &gs, Some((1.0, "γ/σ = 1")), lang),
        ),
        ("gamma", lines(t.paper_gamma_title, t.epoch_axis, t.mean_gamma, &gamma, None, lang)),
        ("tradeoff", tradeoff_chart(table, lang)),
    ]
}

/// The regularizer's privacy–utility trade-off: flipped-label accuracy (%) and LiRA AUC (×100)
/// against test accuracy, one point per λ (λ = 0 without the regularizer), mean over seeds.
pub fn tradeoff_chart(table: &PaperTable, lang: Lang) -> String {
    let t = &lang.texts().charts;
    let title = t.tradeoff_title;
    let mut desc = vec![t.tradeoff_desc.to_string()];
    for p in &table.tradeoff {
        let auc = p
            .lira_auc
            .as_ref()
            .map(|a| format!(", LiRA AUC {}", describe::num(a.mean, lang)))
            .unwrap_or_default();
        desc.push(format!(
            "λ = {}: {} {}, {} {}{auc}",
            lang.plain(p.lambda),
            t.test_accuracy,
            describe::percent(p.test_acc.mean, lang),
            t.flipped_label_accuracy,
            describe::percent(p.flipped_acc.mean, lang)
        ));
    }
    svg(WIDTH, 300, title, &desc.join(". "), lang, |root| {
        let pts = &table.tradeoff;
        if pts.is_empty() {
            root.draw(&Text::new(t.no_sweep, (10, 20), ("sans-serif", TEXT)))
                .map_err(|e| e.to_string())?;
            return Ok(Legend::default());
        }
        let (xlo, xhi) = pts.iter().fold((f64::MAX, f64::MIN), |(a, b), p| {
            (a.min(p.test_acc.mean), b.max(p.test_acc.mean))
        });
        let (xlo, xhi) = (xlo - 1.0, xhi + 1.0);
        let ymax = pts
            .iter()
            .flat_map(|p| {
                std::iter::once(p.flipped_acc.mean)
                    .chain(p.lira_auc.as_ref().map(|a| 100.0 * a.mean))
            })
            .fold(10.0, f64::max)
            * 1.15;
        let mut chart = ChartBuilder::on(root)
            .caption(title, ("sans-serif", CAPTION))
            .margin(10)
            .margin_right(24)
            .x_label_area_size(48)
            .y_label_area_size(60)
            .build_cartesian_2d(xlo..xhi, 0f64..ymax)
            .map_err(|e| e.to_string())?;
        mesh(&mut chart)
            .x_desc(format!("{} (%)", t.test_accuracy))
            .y_desc("%  /  AUC × 100")
            .x_label_formatter(&|v| tick(v, lang))
            .y_label_formatter(&|v| tick(v, lang))
            .draw()
            .map_err(|e| e.to_string())?;
        let flipped: Vec<(f64, f64)> =
            pts.iter().map(|p| (p.test_acc.mean, p.flipped_acc.mean)).collect();
        let mut keys = Legend::default();
        chart
            .draw_series(flipped.into_iter().map(|p| Circle::new(p, 5, BN_COLOR.filled())))
            .map_err(|e| e.to_string())?;
        keys.add(format!("{} (%)", t.flipped_label_accuracy), Mark::Dot(4, BN_COLOR.filled()));
        let auc: Vec<(f64, f64)> = pts
            .iter()
            .filter_map(|p| p.lira_auc.as_ref().map(|a| (p.test_acc.mean, 100.0 * a.mean)))
            .collect();
        chart
            .draw_series(auc.into_iter().map(|p| TriangleMarker::new(p, 5, PLAIN_COLOR.filled())))
            .map_err(|e| e.to_string())?;
        keys.add("LiRA AUC × 100", Mark::Triangle(4, PLAIN_COLOR.filled()));
        for p in pts {
            chart
                .draw_series(std::iter::once(Text::new(
                    format!("λ={}", lang.plain(p.lambda)),
                    (p.test_acc.mean, p.flipped_acc.mean + ymax * 0.04),
                    ("sans-serif", TEXT),
                )))
                .map_err(|e| e.to_string())?;
        }
        Ok(keys)
    })
}

/// ROC curves of LiRA (and the loss attack, thinner) on log-log axes, with the chance line.
pub fn roc_curves(report: &Report, lang: Lang) -> String {
    let t = &lang.texts().charts;
    let title = t.roc_title;
    let attacks: Vec<(&ModelRun, &AttackReport)> =
        report.runs.iter().filter_map(|r| r.attack.as_ref().map(|a| (r, a))).collect();
    let mut desc = vec![t.roc_desc.to_string()];
    for (run, a) in &attacks {
        for (roc, label) in [(&a.lira_online, "LiRA"), (&a.loss, t.loss_attack)] {
            let low: Vec<String> = roc
                .tpr_at_low_fpr
                .iter()
                .map(|&(fpr, tpr)| {
                    (t.tpr_at_fpr)(&describe::pct(tpr, lang), &describe::pct(fpr, lang))
                })
                .collect();
            desc.push(format!(
                "{} {label}: AUC {}; {}",
                run_name(report, run, lang),
                lang.num(roc.auc, 3),
                low.join(", ")
            ));
        }
    }
    svg(WIDTH, 400, title, &desc.join(". "), lang, |root| {
        let lo = 1e-3f64;
        let mut chart = ChartBuilder::on(root)
            .caption(title, ("sans-serif", CAPTION))
            .margin(10)
            .margin_right(24)
            .x_label_area_size(48)
            .y_label_area_size(60)
            .build_cartesian_2d((lo..1f64).log_scale(), (lo..1f64).log_scale())
            .map_err(|e| e.to_string())?;
        mesh(&mut chart)
            .x_desc(t.fpr_axis)
            .y_desc(t.tpr_axis)
            .x_label_formatter(&|x| format!("{x:.0e}"))
            .y_label_formatter(&|y| format!("{y:.0e}"))
            .draw()
            .map_err(|e| e.to_string())?;
        let mut keys = Legend::default();
        stroke(&mut chart, vec![(lo, lo), (1.0, 1.0)], BLACK.mix(0.4).into(), Dash::Solid)?;
        keys.add(t.chance, Mark::Line(BLACK.mix(0.4).into(), Dash::Solid));
        for (run, a) in attacks {
            let (c, dash) = (color_of(report, run), dash_of(report, run));
            let name = run_name(report, run, lang);
            for (roc, label, width) in [(&a.lira_online, "LiRA", 3u32), (&a.loss, t.loss, 1u32)] {
                let pts: Vec<(f64, f64)> =
                    roc.points.iter().map(|&(x, y)| (x.max(lo), y.max(lo))).collect();
                stroke(&mut chart, pts, c.stroke_width(width), dash)?;
                keys.add(
                    format!("{name} {label}: AUC {}", lang.num(roc.auc, 3)),
                    Mark::Line(c.stroke_width(width), dash),
                );
            }
        }
        Ok(keys)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use spotlight_core::report::{GradNorms, LayerGammaSigma, Mechanism, ProbeValues};

    #[test]
    fn empty_report_charts_do_not_panic() {
        let r = Report { config: Default::default(), backend: "test".into(), runs: vec![] };
        for svg in [
            accuracy_curves(&[&r], "t", Lang::En),
            grad_norm_histograms(&r, Lang::En),
            gamma_sigma_curves(&[&r], Lang::En),
            grad_norm_curves(&r, Lang::En),
            roc_curves(&r, Lang::En),
        ] {
            assert!(svg.contains("<svg") && !svg.contains("chart error"), "{svg}");
        }
        let t = spotlight_core::paper::claims(&[]);
        for (_, svg) in paper_charts(&t, Lang::En) {
            assert!(svg.contains("<svg") && !svg.contains("chart error"), "{svg}");
        }
    }

    fn probes() -> ProbeValues {
        ProbeValues { clean: vec![0.5, 1.0, 1.5, 2.0], noisy: vec![3.0, 4.0, 5.0] }
    }

    fn epoch(epoch: usize, acc: f64) -> EpochRecord {
        EpochRecord {
            epoch,
            train_loss: 1.0 - acc,
            penalty: Some(2.0),
            acc_clean: Some(acc),
            acc_flipped: Some(acc / 2.0),
            flipped_as_true: Some(0.5),
            acc_ood: None,
            acc_test: acc,
            gamma_sigma: vec![LayerGammaSigma {
                layer: "conv1".into(),
                batch: 2.0 + acc,
                batch_median: 1.5 + acc,
                frac_above_one: 0.8,
                running: 2.0,
                mean_gamma: 1.0 + acc,
                steps: (epoch > 0).then_some(2.0),
            }],
            grad_norms: GradNorms { clean: vec![0.5, 1.0, 1.5, 2.0], noisy: vec![3.0, 4.0, 5.0] },
            mechanism: Some(Mechanism {
                influence_sgd: probes(),
                influence_run: probes(),
                scaled_grad: probes(),
                gamma_push: vec![probes()],
            }),
            canary: None,
        }
    }

    /// Charts of a real (hand-made) report draw their data: a placeholder or an empty frame fails.
    #[test]
    fn charts_draw_the_report_they_are_given() {
        let run = ModelRun {
            epochs: (0..3).map(|e| epoch(e, 0.3 * e as f64)).collect(),
            ..ModelRun::new(Variant::Bn)
        };
        let r = Report { config: Default::default(), backend: "test".into(), runs: vec![run] };
        // The same run with live read-outs: lines through them, the epochs as markers.
        let mut live = r.clone();
        live.runs[0].live = (0..9)
            .map(|k| LivePoint {
                at: k as f64 / 4.0,
                acc_noisy: Some(0.1 * k as f64),
                acc_clean: Some(0.5),
                loss_auc: Some(0.5 + 0.02 * k as f64),
            })
            .collect();
        let count = |svg: &str, what: &str| svg.matches(what).count();
        assert_eq!(live_attack_curves(&r, Lang::En), "", "no live read-outs, no chart");
        for (name, svg, what, at_least) in [
            ("accuracy", accuracy_curves(&[&r], "t", Lang::En), "<polyline", 3),
            ("accuracy, live", accuracy_curves(&[&live], "t", Lang::En), "<polyline", 3),
            // The flipped members' accuracy at each epoch's end (3 marks), and the key's.
            (
                "accuracy, live: the epochs as markers",
                accuracy_curves(&[&live], "t", Lang::En),
                "<circle",
                4,
            ),
            ("live attack", live_attack_curves(&live, Lang::En), "<polyline", 2),
            ("γ/σ", gamma_sigma_curves(&[&r], Lang::En), "<polyline", 1),
            ("gradient curves", grad_norm_curves(&r, Lang::En), "<polyline", 2),
            ("gradient histograms", grad_norm_histograms(&r, Lang::En), "<rect", 4),
        ] {
            assert!(!svg.contains("chart error"), "{name}: {svg}");
            assert!(count(&svg, what) >= at_least, "{name}: {} {what} in {svg}", count(&svg, what));
        }
    }

    /// Every chart carries its text alternative, with the numbers it draws; the models differ in
    /// their dashes, not only in colour.
    #[test]
    fn charts_say_their_numbers_and_dash_the_models_apart() {
        let runs = vec![
            ModelRun {
                epochs: (0..3).map(|e| epoch(e, 0.3 * e as f64)).collect(),
                ..ModelRun::new(Variant::Bn)
            },
            ModelRun {
                epochs: (0..3).map(|e| epoch(e, 0.2 * e as f64)).collect(),
                ..ModelRun::new(Variant::Plain)
            },
        ];
        let r = Report { config: Default::default(), backend: "test".into(), runs };
        let desc = |svg: &str| {
            svg.split("<desc>").nth(1).and_then(|d| d.split("</desc>").next()).map(str::to_string)
        };
        for (name, svg, said) in [
            // Flipped accuracy is half of 0.6 at epoch 2 (BN), of 0.4 (no-BN).
            (
                "accuracy",
                accuracy_curves(&[&r], "t", Lang::En),
                vec![
                    "BN, flipped: 0% at epoch 0, 15% at epoch 1, 30% at epoch 2",
                    "no-BN, flipped:",
                ],
            ),
            (
                "γ/σ",
                gamma_sigma_curves(&[&r], Lang::En),
                vec!["BN conv1: 1.50 at epoch 0", "reference line at 1.00"],
            ),
            (
                "gradient curves",
                grad_norm_curves(&r, Lang::En),
                vec!["BN: noisy: 4.00 at epoch 0", "no-BN: clean: 1.25 at epoch 0"],
            ),
            (
                "gradient histograms",
                grad_norm_histograms(&r, Lang::En),
                vec!["BN, noisy: median 4.00 over 3 samples"],
            ),
        ] {
            assert!(svg.contains(" role=\"img\"><title>"), "{name}: {svg}");
            let d = desc(&svg).unwrap_or_else(|| panic!("{name}: no desc in {svg}"));
            for s in said {
                assert!(d.contains(s), "{name}: {s:?} not in {d:?}");
            }
        }
        // BN's line is solid (one polyline per series), no-BN's dashed (many short ones).
        let lines = grad_norm_curves(&r, Lang::En);
        let strokes = |color: RGBColor| {
            lines
                .matches(&format!("stroke=\"#{:02X}{:02X}{:02X}\"", color.0, color.1, color.2))
                .count()
        };
        assert!(strokes(PLAIN_COLOR) > 2 * strokes(BN_COLOR), "{lines}");
    }
    /// A chart in Spanish says its title, axes and keys in Spanish, and none of them in English.
    #[test]
    fn a_spanish_chart_is_in_spanish() {
        let runs = vec![
            ModelRun {
                epochs: (0..3).map(|e| epoch(e, 0.3 * e as f64)).collect(),
                ..ModelRun::new(Variant::Bn)
            },
            ModelRun {
                epochs: (0..3).map(|e| epoch(e, 0.2 * e as f64)).collect(),
                ..ModelRun::new(Variant::Plain)
            },
        ];
        let r = Report { config: Default::default(), backend: "test".into(), runs };
        let (en, es) = (&Lang::En.texts().charts, &Lang::Es.texts().charts);
        let title = |svg: &str| {
            svg.split("<title>").nth(1).and_then(|d| d.split("</title>").next()).map(str::to_string)
        };
        for (svg, want, not) in [
            (grad_norm_curves(&r, Lang::Es), es.grad_curves_title, en.grad_curves_title),
            (gamma_sigma_curves(&[&r], Lang::Es), es.gamma_title, en.gamma_title),
            (grad_norm_histograms(&r, Lang::Es), es.grad_hist_title, en.grad_hist_title),
            (roc_curves(&r, Lang::Es), es.roc_title, en.roc_title),
        ] {
            assert_eq!(title(&svg).as_deref(), Some(want), "{svg}");
            assert!(!svg.contains(not), "{svg}");
            for english in ["epoch", "untrained", "no-BN", "noisy", "clean", "chance"] {
                assert!(!svg.contains(english), "{english:?} in {svg}");
            }
        }
        // Its numbers are written the Spanish way: a decimal comma, "15 %".
        let acc = accuracy_curves(&[&r], es.accuracy, Lang::Es);
        assert!(
            acc.contains("sin BN, etiqueta invertida:") && acc.contains("15\u{a0}% en la época 1"),
            "{acc}"
        );
        assert!(acc.contains("\n50\u{a0}%\n</text>"), "percent ticks the Spanish way: {acc}");
        let gs = gamma_sigma_curves(&[&r], Lang::Es);
        let ticks: Vec<&str> = gs
            .split("</text>")
            .filter_map(|t| t.trim().rsplit('\n').next())
            .filter(|t| t.chars().any(|c| c.is_ascii_digit()))
            .collect();
        assert!(
            ticks.iter().any(|t| t.contains(',')) && !ticks.iter().any(|t| t.contains('.')),
            "tick labels with a decimal comma: {ticks:?}"
        );
    }
}
