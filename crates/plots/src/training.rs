//! The memorization lens: accuracy over training (memorization above, learning below), and the
//! loss attack's AUC while the models train.

use super::*;

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
