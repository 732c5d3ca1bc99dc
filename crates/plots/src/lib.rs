//! Spotlight's charts, as SVG strings drawn with plotters: the app puts them in the page, the CLI
//! writes them to files. One drawing per lens of the paper.

mod legend;
mod svg;

pub use svg::text_size;

use legend::{Corner, Legend, Mark};
use plotters::coord::Shift;
use plotters::prelude::*;
use spotlight_core::Variant;
use spotlight_core::paper::PaperTable;
use spotlight_core::report::{AttackReport, EpochRecord, LivePoint, ModelRun, Report, median};

/// BN's colour and no-BN's, everywhere.
pub const BN_COLOR: RGBColor = RGBColor(214, 39, 40);
pub const PLAIN_COLOR: RGBColor = RGBColor(31, 119, 180);
const REG_COLOR: RGBColor = RGBColor(44, 160, 44);

type Area<'a> = DrawingArea<svg::Svg<'a>, Shift>;
/// One number of an epoch, when it has it.
type Field = fn(&EpochRecord) -> Option<f64>;
/// One number of a live read-out, when it has it.
type LiveField = fn(&LivePoint) -> Option<f64>;

fn svg(w: u32, h: u32, draw: impl FnOnce(&Area) -> Result<(), String>) -> String {
    let mut s = String::new();
    {
        let root = svg::Svg(SVGBackend::with_string(&mut s, (w, h))).into_drawing_area();
        let result = root.fill(&WHITE).map_err(|e| e.to_string()).and_then(|_| draw(&root));
        if let Err(e) = result {
            drop(root);
            return format!(
                "<svg xmlns='http://www.w3.org/2000/svg' width='{w}' height='40'><text x='4' y='20'>chart error: {}</text></svg>",
                e.replace('<', "&lt;")
            );
        }
        let _ = root.present();
    }
    s
}

fn run_name(report: &Report, run: &ModelRun) -> &'static str {
    report.variant(run).label()
}

fn color_of(report: &Report, run: &ModelRun) -> RGBColor {
    match report.variant(run) {
        Variant::BnReg => REG_COLOR,
        Variant::Bn => BN_COLOR,
        Variant::Plain => PLAIN_COLOR,
    }
}

/// Accuracy over training, of every model on one axis. With live read-outs, lines follow them
/// within each epoch — noisy members (thick) and clean members (thin) of the live sample — and each
/// epoch's measurement of *all* flipped, OOD and clean members is a marker; without, lines join
/// the epoch measurements. Test accuracy (faint) is measured per epoch.
pub fn accuracy_curves(reports: &[&Report], title: &str) -> String {
    svg(640, 380, |root| {
        let epochs = reports.iter().map(|r| r.config.epochs).max().unwrap_or(1).max(2);
        let mut chart = ChartBuilder::on(root)
            .caption(title, ("sans-serif", 18))
            .margin(10)
            .x_label_area_size(32)
            .y_label_area_size(44)
            .build_cartesian_2d(0f64..epochs as f64, 0f64..1f64)
            .map_err(|e| e.to_string())?;
        chart.configure_mesh().x_desc("epoch (0: untrained)").y_desc("accuracy").draw().map_err(|e| e.to_string())?;
        let mut keys = Legend::default();
        for r in reports {
            for run in &r.runs {
                let c = color_of(r, run);
                let name = run_name(r, run);
                let live = !run.live.is_empty();
                if live {
                    let series: [(&str, LiveField, u32); 2] =
                        [("noisy, live sample", |p| p.acc_noisy, 3), ("clean, live sample", |p| p.acc_clean, 1)];
                    for (label, get, width) in series {
                        let pts: Vec<(f64, f64)> = run.live.iter().filter_map(|p| get(p).map(|a| (p.at, a))).collect();
                        if pts.is_empty() {
                            continue;
                        }
                        chart.draw_series(LineSeries::new(pts, c.stroke_width(width))).map_err(|e| e.to_string())?;
                        keys.add(format!("{name}: {label}"), Mark::Line(c.stroke_width(width)));
                    }
                }
                let series: [(&str, Field, u32); 4] = [
                    ("flipped", |e| e.acc_flipped, 3),
                    ("OOD", |e| e.acc_ood, 2),
                    ("clean train", |e| e.acc_clean, 1),
                    ("test", |e| Some(e.acc_test), 1),
                ];
                for (label, get, width) in series {
                    let pts: Vec<(f64, f64)> = run.epochs.iter().filter_map(|e| get(e).map(|a| (e.epoch as f64, a))).collect();
                    if pts.is_empty() {
                        continue;
                    }
                    if label == "test" || !live {
                        let style = if label == "test" { c.mix(0.45).stroke_width(width) } else { c.stroke_width(width) };
                        chart.draw_series(LineSeries::new(pts, style)).map_err(|e| e.to_string())?;
                        keys.add(format!("{name}: {label}"), Mark::Line(c.stroke_width(width)));
                    } else {
                        // The whole group's accuracy at each epoch's end: filled for flipped, open
                        // for OOD and clean (smaller).
                        let (size, filled) = (width + 1, label == "flipped");
                        let style = if filled { c.filled() } else { c.stroke_width(1) };
                        chart.draw_series(pts.into_iter().map(|p| Circle::new(p, size, style))).map_err(|e| e.to_string())?;
                        keys.add(format!("{name}: {label}, all (per epoch)"), Mark::Dot(size, style));
                    }
                }
            }
        }
        keys.draw(&chart.plotting_area().strip_coord_spec(), Corner::LowerRight)
    })
}

/// The loss-threshold attack's AUC over training, from the live read-outs (members of the live
/// sample against its non-members), with chance (0.5) marked. Empty without live read-outs.
pub fn live_attack_curves(report: &Report) -> String {
    let series: Vec<Line> = report
        .runs
        .iter()
        .map(|run| Line {
            label: format!("{}: loss attack", run_name(report, run)),
            color: color_of(report, run),
            width: 2,
            points: run.live.iter().filter_map(|p| p.loss_auc.map(|a| (p.at, a))).collect(),
        })
        .filter(|l| !l.points.is_empty())
        .collect();
    if series.is_empty() {
        return String::new();
    }
    lines("The loss attack while training (AUC on the live sample)", "epoch", "AUC", &series, Some((0.5, "chance")))
}

/// Histograms of per-sample gradient norms (last epoch): clean vs noisy, per model.
pub fn grad_norm_histograms(report: &Report) -> String {
    svg(640, 300, |root| {
        let runs: Vec<&ModelRun> = report.runs.iter().filter(|r| r.last().is_some()).collect();
        let all: Vec<f64> = runs
            .iter()
            .flat_map(|r| {
                let g = &r.last().unwrap().grad_norms;
                g.clean.iter().chain(&g.noisy).map(|&x| f64::from(x).max(1e-6).log10()).collect::<Vec<_>>()
            })
            .collect();
        if all.is_empty() {
            return root.draw(&Text::new("no gradient norms yet", (10, 20), ("sans-serif", 14))).map_err(|e| e.to_string());
        }
        let (lo, hi) = all.iter().fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
        let (lo, hi) = (lo.floor(), (hi + 1e-9).ceil().max(lo.floor() + 1.0));
        let bins = 24usize;
        let width = (hi - lo) / bins as f64;
        let panels = root.split_evenly((1, runs.len().max(1)));
        for (run, panel) in runs.iter().zip(panels.iter()) {
            let g = &run.last().unwrap().grad_norms;
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
                .caption(format!("{}: ‖∇ℓ‖ per sample", run_name(report, run)), ("sans-serif", 15))
                .margin(8)
                .x_label_area_size(30)
                .y_label_area_size(40)
                .build_cartesian_2d(lo..hi, 0f64..ymax)
                .map_err(|e| e.to_string())?;
            chart.configure_mesh().x_desc("log10 gradient norm").y_desc("fraction").x_labels(5).draw().map_err(|e| e.to_string())?;
            let mut keys = Legend::default();
            for (h, c, label) in [(&hc, RGBColor(120, 120, 120), "clean"), (&hn, color_of(report, run), "noisy")] {
                chart
                    .draw_series(h.iter().enumerate().map(|(i, &v)| {
                        let x0 = lo + i as f64 * width;
                        Rectangle::new([(x0, 0.0), (x0 + width, v)], c.mix(0.45).filled())
                    }))
                    .map_err(|e| e.to_string())?;
                keys.add(label, Mark::Square(c.mix(0.6).filled()));
            }
            keys.draw(&chart.plotting_area().strip_coord_spec(), Corner::UpperRight)?;
        }
        Ok(())
    })
}

/// One line of a [`lines`] chart.
pub struct Line {
    pub label: String,
    pub color: RGBColor,
    pub width: u32,
    pub points: Vec<(f64, f64)>,
}

/// A chart of lines on linear axes (the range fitted to the data, from 0), with an optional
/// horizontal reference line.
pub fn lines(title: &str, x_desc: &str, y_desc: &str, series: &[Line], reference: Option<(f64, &str)>) -> String {
    svg(640, 320, |root| {
        let pts = series.iter().flat_map(|l| l.points.iter());
        let (xmax, ymax) = pts.fold((1.0f64, reference.map_or(0.0, |r| r.0)), |(a, b), &(x, y)| (a.max(x), b.max(y)));
        let ymax = if ymax > 0.0 { ymax * 1.1 } else { 1.0 };
        let mut chart = ChartBuilder::on(root)
            .caption(title, ("sans-serif", 17))
            .margin(10)
            .x_label_area_size(32)
            .y_label_area_size(48)
            .build_cartesian_2d(0f64..xmax, 0f64..ymax)
            .map_err(|e| e.to_string())?;
        chart.configure_mesh().x_desc(x_desc).y_desc(y_desc).draw().map_err(|e| e.to_string())?;
        let mut keys = Legend::default();
        if let Some((y, label)) = reference {
            let style = BLACK.mix(0.6).stroke_width(1);
            chart.draw_series(LineSeries::new(vec![(0.0, y), (xmax, y)], style)).map_err(|e| e.to_string())?;
            keys.add(label, Mark::Line(style));
        }
        for l in series {
            let style = l.color.stroke_width(l.width);
            chart.draw_series(LineSeries::new(l.points.clone(), style)).map_err(|e| e.to_string())?;
            keys.add(l.label.as_str(), Mark::Line(style));
        }
        keys.draw(&chart.plotting_area().strip_coord_spec(), Corner::UpperLeft)
    })
}

const LAYER_COLORS: [RGBColor; 4] = [RGBColor(214, 39, 40), RGBColor(255, 127, 14), RGBColor(148, 103, 189), RGBColor(140, 86, 75)];

/// γ/σ per BN layer over the epochs — the median over channels with the batch σ (the paper's σ),
/// epoch 0 the untrained model — with the line γ/σ = 1.
pub fn gamma_sigma_curves(reports: &[&Report]) -> String {
    let mut series = Vec::new();
    for r in reports {
        for run in r.runs.iter().filter(|run| run.batch_norm) {
            let layers = run.epochs.first().map_or(0, |e| e.gamma_sigma.len());
            for l in 0..layers {
                let color = if r.config.regularizer { REG_COLOR } else { LAYER_COLORS[l % LAYER_COLORS.len()] };
                series.push(Line {
                    label: format!("{} {}", run_name(r, run), run.epochs[0].gamma_sigma[l].layer),
                    color,
                    width: 2,
                    points: run.epochs.iter().filter_map(|e| e.gamma_sigma.get(l).map(|g| (e.epoch as f64, g.batch_median))).collect(),
                });
            }
        }
    }
    lines("γ/σ per BN layer (median over channels, batch σ)", "epoch (0: untrained)", "median |γ|/σ", &series, Some((1.0, "γ/σ = 1")))
}

/// Median per-sample gradient norm (in a training batch) of the noisy (thick) and clean probes
/// over the epochs, per model.
pub fn grad_norm_curves(report: &Report) -> String {
    let mut series = Vec::new();
    for run in &report.runs {
        for (group, width) in [("noisy", 3u32), ("clean", 1)] {
            let points = run
                .epochs
                .iter()
                .filter_map(|e| {
                    median(if group == "noisy" { &e.grad_norms.noisy } else { &e.grad_norms.clean }).map(|m| (e.epoch as f64, m))
                })
                .collect();
            series.push(Line { label: format!("{}: {group}", run_name(report, run)), color: color_of(report, run), width, points });
        }
    }
    lines("Median per-sample ‖∇ℓ‖ (in a training batch)", "epoch (0: untrained)", "gradient norm", &series, None)
}

fn noise_color(noise: f64) -> RGBColor {
    if noise <= 0.0 {
        RGBColor(120, 120, 120)
    } else if noise < 0.03 {
        RGBColor(255, 127, 14)
    } else {
        BN_COLOR
    }
}

fn lighter(c: RGBColor) -> RGBColor {
    RGBColor(((u16::from(c.0) + 255) / 2) as u8, ((u16::from(c.1) + 255) / 2) as u8, ((u16::from(c.2) + 255) / 2) as u8)
}

fn epoch_points(v: &[f64]) -> Vec<(f64, f64)> {
    v.iter().enumerate().map(|(e, &y)| (e as f64, y)).collect()
}

/// The paper panel's charts from a merged [`PaperTable`] (means over seeds): (title, SVG) for
/// memorization, gradient norms, γ/σ and γ (the feedback loop), and the λ trade-off.
pub fn paper_charts(table: &PaperTable) -> Vec<(&'static str, String)> {
    let name = |bn: bool| Variant::unregularized(bn).label();
    let mut memo = Vec::new();
    let mut grads = Vec::new();
    let mut gs = Vec::new();
    let mut gamma = Vec::new();
    for c in &table.curves {
        let tag = format!("{} {:.0}%", name(c.batch_norm), 100.0 * c.noise);
        let color = if c.batch_norm { BN_COLOR } else { PLAIN_COLOR };
        if c.noise > 0.0 {
            let width = if c.noise > 0.03 { 3 } else { 1 };
            memo.push(Line { label: tag.clone(), color, width, points: epoch_points(&c.flipped_acc) });
            grads.push(Line { label: format!("{tag} noisy"), color, width, points: epoch_points(&c.grad_noisy) });
            grads.push(Line { label: format!("{tag} clean"), color: lighter(color), width: 1, points: epoch_points(&c.grad_clean) });
        }
        if c.batch_norm && !c.gamma_sigma.is_empty() {
            let layers = c.gamma_sigma.len() as f64;
            let mean = |m: &Vec<Vec<f64>>| -> Vec<f64> { (0..m[0].len()).map(|e| m.iter().map(|l| l[e]).sum::<f64>() / layers).collect() };
            let color = noise_color(c.noise);
            gs.push(Line { label: format!("{:.0}% noise", 100.0 * c.noise), color, width: 2, points: epoch_points(&mean(&c.gamma_sigma)) });
            gamma.push(Line {
                label: format!("{:.0}% noise", 100.0 * c.noise),
                color,
                width: 2,
                points: epoch_points(&mean(&c.mean_gamma)),
            });
        }
    }
    vec![
        ("memorization", lines("Accuracy on flipped members (%), mean over seeds", "epoch", "flipped acc (%)", &memo, None)),
        ("gradients", lines("Median per-sample ‖∇ℓ‖ in a batch (noisy thick)", "epoch", "gradient norm", &grads, None)),
        ("gamma-sigma", lines("BN: median γ/σ, mean over layers, by noise", "epoch (0: untrained)", "γ/σ", &gs, Some((1.0, "γ/σ = 1")))),
        ("gamma", lines("BN: mean |γ|, mean over layers, by noise (the feedback loop)", "epoch (0: untrained)", "mean |γ|", &gamma, None)),
        ("tradeoff", tradeoff_chart(table)),
    ]
}

/// The regularizer's privacy–utility trade-off: flipped-label accuracy (%) and LiRA AUC (×100)
/// against test accuracy, one point per λ (λ = 0 without the regularizer), mean over seeds.
pub fn tradeoff_chart(table: &PaperTable) -> String {
    svg(640, 320, |root| {
        let pts = &table.tradeoff;
        if pts.is_empty() {
            return root.draw(&Text::new("no λ sweep in this run", (10, 20), ("sans-serif", 14))).map_err(|e| e.to_string());
        }
        let (xlo, xhi) = pts.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.test_acc.mean), b.max(p.test_acc.mean)));
        let (xlo, xhi) = (xlo - 1.0, xhi + 1.0);
        let ymax = pts
            .iter()
            .flat_map(|p| std::iter::once(p.flipped_acc.mean).chain(p.lira_auc.as_ref().map(|a| 100.0 * a.mean)))
            .fold(10.0, f64::max)
            * 1.15;
        let mut chart = ChartBuilder::on(root)
            .caption("The regularizer: memorization and leakage vs test accuracy", ("sans-serif", 16))
            .margin(10)
            .x_label_area_size(32)
            .y_label_area_size(44)
            .build_cartesian_2d(xlo..xhi, 0f64..ymax)
            .map_err(|e| e.to_string())?;
        chart.configure_mesh().x_desc("test accuracy (%)").y_desc("%  /  AUC × 100").draw().map_err(|e| e.to_string())?;
        let flipped: Vec<(f64, f64)> = pts.iter().map(|p| (p.test_acc.mean, p.flipped_acc.mean)).collect();
        let mut keys = Legend::default();
        chart.draw_series(flipped.into_iter().map(|p| Circle::new(p, 5, BN_COLOR.filled()))).map_err(|e| e.to_string())?;
        keys.add("flipped-label accuracy (%)", Mark::Dot(4, BN_COLOR.filled()));
        let auc: Vec<(f64, f64)> = pts.iter().filter_map(|p| p.lira_auc.as_ref().map(|a| (p.test_acc.mean, 100.0 * a.mean))).collect();
        chart.draw_series(auc.into_iter().map(|p| TriangleMarker::new(p, 5, PLAIN_COLOR.filled()))).map_err(|e| e.to_string())?;
        keys.add("LiRA AUC × 100", Mark::Triangle(4, PLAIN_COLOR.filled()));
        for p in pts {
            chart
                .draw_series(std::iter::once(Text::new(
                    format!("λ={}", p.lambda),
                    (p.test_acc.mean, p.flipped_acc.mean + ymax * 0.04),
                    ("sans-serif", 11),
                )))
                .map_err(|e| e.to_string())?;
        }
        keys.draw(&chart.plotting_area().strip_coord_spec(), Corner::UpperRight)
    })
}

/// ROC curves of LiRA (and the loss attack, thinner) on log-log axes, with the chance line.
pub fn roc_curves(report: &Report) -> String {
    svg(480, 420, |root| {
        let attacks: Vec<(&ModelRun, &AttackReport)> = report.runs.iter().filter_map(|r| r.attack.as_ref().map(|a| (r, a))).collect();
        let lo = 1e-3f64;
        let mut chart = ChartBuilder::on(root)
            .caption("Membership attack ROC (log-log)", ("sans-serif", 18))
            .margin(10)
            .x_label_area_size(34)
            .y_label_area_size(48)
            .build_cartesian_2d((lo..1f64).log_scale(), (lo..1f64).log_scale())
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("false positive rate (axis floor 10⁻³)")
            .y_desc("true positive rate")
            .x_label_formatter(&|x| format!("{x:.0e}"))
            .y_label_formatter(&|y| format!("{y:.0e}"))
            .draw()
            .map_err(|e| e.to_string())?;
        let mut keys = Legend::default();
        chart.draw_series(LineSeries::new(vec![(lo, lo), (1.0, 1.0)], BLACK.mix(0.4))).map_err(|e| e.to_string())?;
        keys.add("chance", Mark::Line(BLACK.mix(0.4).into()));
        for (run, a) in attacks {
            let c = color_of(report, run);
            let name = run_name(report, run);
            for (roc, label, width) in [(&a.lira_online, "LiRA", 3u32), (&a.loss, "loss", 1u32)] {
                let pts: Vec<(f64, f64)> = roc.points.iter().map(|&(x, y)| (x.max(lo), y.max(lo))).collect();
                chart.draw_series(LineSeries::new(pts, c.stroke_width(width))).map_err(|e| e.to_string())?;
                keys.add(format!("{name} {label}: AUC {:.3}", roc.auc), Mark::Line(c.stroke_width(width)));
            }
        }
        keys.draw(&chart.plotting_area().strip_coord_spec(), Corner::LowerRight)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use spotlight_core::report::{GradNorms, LayerGammaSigma};

    #[test]
    fn empty_report_charts_do_not_panic() {
        let r = Report { config: Default::default(), backend: "test".into(), runs: vec![] };
        for svg in [accuracy_curves(&[&r], "t"), grad_norm_histograms(&r), gamma_sigma_curves(&[&r]), grad_norm_curves(&r), roc_curves(&r)]
        {
            assert!(svg.contains("<svg") && !svg.contains("chart error"), "{svg}");
        }
        let t = spotlight_core::paper::claims(&[]);
        for (_, svg) in paper_charts(&t) {
            assert!(svg.contains("<svg") && !svg.contains("chart error"), "{svg}");
        }
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
            canary: None,
        }
    }

    /// Charts of a real (hand-made) report draw their data: a placeholder or an empty frame fails.
    #[test]
    fn charts_draw_the_report_they_are_given() {
        let run = ModelRun { epochs: (0..3).map(|e| epoch(e, 0.3 * e as f64)).collect(), ..ModelRun::new(true) };
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
        assert_eq!(live_attack_curves(&r), "", "no live read-outs, no chart");
        for (name, svg, what, at_least) in [
            ("accuracy", accuracy_curves(&[&r], "t"), "<polyline", 3),
            ("accuracy, live", accuracy_curves(&[&live], "t"), "<polyline", 3),
            ("accuracy, live: the epochs as markers", accuracy_curves(&[&live], "t"), "<circle", 6),
            ("live attack", live_attack_curves(&live), "<polyline", 2),
            ("γ/σ", gamma_sigma_curves(&[&r]), "<polyline", 1),
            ("gradient curves", grad_norm_curves(&r), "<polyline", 2),
            ("gradient histograms", grad_norm_histograms(&r), "<rect", 4),
        ] {
            assert!(!svg.contains("chart error"), "{name}: {svg}");
            assert!(count(&svg, what) >= at_least, "{name}: {} {what} in {svg}", count(&svg, what));
        }
    }
}
