//! Spotlight's charts, as SVG strings drawn with plotters: the app puts them in the page, the CLI
//! writes them to files. One module per lens of the paper (`training`, `gradients`, `gamma`,
//! `attack`), the paper panel's (`paper`) and the theory lab's (`theory`); here what they share:
//! the models' colours and dashes, the text size, the frame every chart is drawn in, [`lines`].

mod attack;
mod describe;
mod gamma;
mod gradients;
mod legend;
mod paper;
mod svg;
mod theory;
mod training;

pub use attack::{budget_curves, roc_curves, sample_history, sample_lira};
pub use gamma::gamma_sigma_curves;
pub use gradients::{grad_norm_curves, grad_norm_histograms};
pub use paper::{paper_charts, tradeoff_chart};
/// The charts' language (every public chart function takes one, last).
pub use spotlight_i18n::Lang;
pub use svg::text_size;
pub use theory::{
    theory_data, theory_gamma, theory_margins, theory_point, theory_ratio, theory_sentences,
};
pub use training::{accuracy_curves, live_attack_curves};

use legend::{Legend, Mark};
use plotters::coord::Shift;
use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use spotlight_core::Variant;
use spotlight_core::config::Norm;
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
/// GroupNorm's bluish green and LayerNorm's sky blue (the same palette).
const GN_COLOR: RGBColor = RGBColor(0, 158, 115);
const LN_COLOR: RGBColor = RGBColor(86, 180, 233);
const GREY: RGBColor = RGBColor(120, 120, 120);

/// How a line is stroked: BN solid, no-BN in long dashes, BN with the regularizer in short ones,
/// GroupNorm in longer dashes, LayerNorm dotted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dash {
    Solid,
    Long,
    Short,
    Longer,
    Dotted,
}

impl Dash {
    fn of(variant: Variant) -> Self {
        match variant {
            Variant::Bn => Self::Solid,
            Variant::Plain => Self::Long,
            Variant::BnReg => Self::Short,
            Variant::Gn => Self::Longer,
            Variant::Ln => Self::Dotted,
        }
    }

    /// Its dash and gap lengths (`None`: solid).
    pub(crate) fn pattern(self) -> Option<(u32, u32)> {
        match self {
            Self::Solid => None,
            Self::Long => Some((9, 5)),
            Self::Short => Some((3, 3)),
            Self::Longer => Some((16, 4)),
            Self::Dotted => Some((1, 4)),
        }
    }
}

/// A model's colour.
fn color_of_variant(variant: Variant) -> RGBColor {
    match variant {
        Variant::BnReg => REG_COLOR,
        Variant::Bn => BN_COLOR,
        Variant::Plain => PLAIN_COLOR,
        Variant::Gn => GN_COLOR,
        Variant::Ln => LN_COLOR,
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
    match dash.pattern() {
        None => chart.draw_series(LineSeries::new(points, style)).map(drop),
        Some((on, off)) => {
            chart.draw_series(DashedLineSeries::new(points, on, off, style)).map(drop)
        }
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
    lang.texts().charts.models.of(variant)
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
    color_of_variant(report.variant(run))
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
/// circle for BN, a triangle for no-BN, a square for BN with the regularizer, a cross for
/// GroupNorm, a ring for LayerNorm.
fn model_mark(variant: Variant, style: ShapeStyle) -> Mark {
    match variant {
        Variant::Bn => Mark::Dot(5, style),
        Variant::Plain => Mark::Triangle(6, style),
        Variant::BnReg => Mark::Square(style),
        Variant::Gn => Mark::Cross(6, style),
        Variant::Ln => Mark::Ring(5, style),
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
        Mark::Cross(r, _) => {
            let st = mark.drawn_style();
            chart.draw_series(points.into_iter().map(|p| Cross::new(p, r, st))).map(drop)
        }
        Mark::Ring(r, _) => {
            let st = mark.drawn_style();
            chart.draw_series(points.into_iter().map(|p| Circle::new(p, r, st))).map(drop)
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

fn lighter(c: RGBColor) -> RGBColor {
    RGBColor(
        ((u16::from(c.0) + 255) / 2) as u8,
        ((u16::from(c.1) + 255) / 2) as u8,
        ((u16::from(c.2) + 255) / 2) as u8,
    )
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

    /// The shadow-count chart draws each model's curves (online and offline) from its attack's
    /// budget, and nothing for a report measured before it existed.
    #[test]
    fn the_budget_chart_draws_what_more_shadows_buy() {
        use spotlight_core::attack::{budget_curve, roc, shadow_membership};
        let (n, k) = (200, 4);
        let keep = shadow_membership(n, k, 1);
        let is_member: Vec<bool> = (0..n).map(|i| i % 2 == 0).collect();
        // φ of each shadow: high where it trained on the candidate; the target's high on members.
        let shadow_phi: Vec<Option<Vec<f64>>> = (0..k)
            .map(|s| {
                Some(
                    (0..n)
                        .map(|i| if keep[s][i] { 2.0 } else { 0.0 } + (i % 7) as f64 * 0.1)
                        .collect(),
                )
            })
            .collect();
        let target: Vec<f64> =
            (0..n).map(|i| if is_member[i] { 2.0 } else { 0.0 } + (i % 5) as f64 * 0.1).collect();
        let r0 = roc(&[0.9, 0.8], &[0.1, 0.2]).unwrap();
        let attack = AttackReport {
            shadow_models: k,
            members: n / 2,
            non_members: n / 2,
            loss: r0.clone(),
            lira_online: r0.clone(),
            lira_offline: r0.clone(),
            lira_noisy: None,
            group_means: vec![],
            exposed: vec![],
            canary: None,
            steps: vec![],
            budget: Some(budget_curve(&target, &shadow_phi, &keep, &is_member)),
        };
        let run = ModelRun { attack: Some(attack), ..ModelRun::new(Variant::Bn) };
        let mut r = Report { config: Default::default(), backend: "test".into(), runs: vec![run] };
        let svg = budget_curves(&r, Lang::En);
        // Online and offline, 3 points each (2, 3 and 4 shadows), in the text alternative too.
        assert!(svg.contains("<title>What more shadow models buy"), "{svg}");
        for line in ["BN: LiRA:", "BN: offline LiRA:"] {
            let said = &svg[svg.find(line).expect(line)..];
            let said = &said[..said.find(". ").unwrap_or(said.len())];
            assert_eq!(said.matches(" at shadows ").count(), 3, "{said}");
        }
        r.runs[0].attack.as_mut().unwrap().budget = None;
        assert_eq!(budget_curves(&r, Lang::En), "");
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
    /// A GroupNorm and a LayerNorm model beside BN: every chart draws them, in their own colours
    /// and dashes, named, and the γ/σ chart has their layers too (the report's round trip is the
    /// core's test).
    #[test]
    fn every_chart_draws_groupnorm_and_layernorm() {
        let runs: Vec<ModelRun> = [Variant::Bn, Variant::Gn, Variant::Ln]
            .into_iter()
            .map(|v| ModelRun {
                epochs: (0..3).map(|e| epoch(e, 0.2 * e as f64)).collect(),
                ..ModelRun::new(v)
            })
            .collect();
        let r = Report { config: Default::default(), backend: "test".into(), runs };
        let color = |c: RGBColor| format!("stroke=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2);
        for (name, svg) in [
            ("accuracy", accuracy_curves(&[&r], "t", Lang::En)),
            ("γ/σ", gamma_sigma_curves(&[&r], Lang::En)),
            ("gradient curves", grad_norm_curves(&r, Lang::En)),
            ("gradient histograms", grad_norm_histograms(&r, Lang::En)),
        ] {
            assert!(!svg.contains("chart error"), "{name}: {svg}");
            for (model, c) in [("GroupNorm", GN_COLOR), ("LayerNorm", LN_COLOR)] {
                assert!(svg.contains(model), "{name}: no {model} in {svg}");
                if name != "gradient histograms" {
                    assert!(svg.contains(&color(c)), "{name}: {model}'s colour missing");
                }
            }
        }
        assert!(gamma_sigma_curves(&[&r], Lang::En).contains("GroupNorm conv1"));
    }

    /// A member's margin over the epochs: its points in words, the line at 0, the model's colour;
    /// nothing without a history.
    #[test]
    fn a_samples_history_draws_its_margin_around_zero() {
        use spotlight_core::report::SampleEpoch;
        let h: Vec<SampleEpoch> = [(2.3, -1.5), (1.1, 0.5), (0.2, 2.0)]
            .iter()
            .enumerate()
            .map(|(epoch, &(loss, margin))| SampleEpoch { epoch, loss, margin })
            .collect();
        let svg = sample_history(&h, Variant::Gn, Lang::En);
        assert!(svg.contains("<title>Its margin over the epochs</title>"), "{svg}");
        assert!(svg.contains("GroupNorm: -1.50 at epoch 0"), "{svg}");
        assert!(svg.contains("2.00 at epoch 2") && svg.contains("reference line at 0"), "{svg}");
        assert!(svg.contains(&format!("#{:02X}{:02X}{:02X}", GN_COLOR.0, GN_COLOR.1, GN_COLOR.2)));
        assert_eq!(sample_history(&[], Variant::Bn, Lang::En), "");
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
