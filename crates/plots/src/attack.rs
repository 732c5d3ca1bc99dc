//! The privacy lens: LiRA's (and the loss attack's) ROC curves.

use super::*;
use spotlight_core::attack::variance_for;
use spotlight_core::report::{SampleEpoch, SampleLira};

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

/// What more shadow models buy: LiRA's AUC as the shadow models it uses grow from 2 to K (the
/// attack redone on the first k of those already trained), online (thick) and offline (thin), with
/// the variance the attack itself uses at K; `""` without a measured curve or with fewer than 3
/// shadow models (one point a line).
pub fn budget_curves(report: &Report, lang: Lang) -> String {
    let t = &lang.texts().charts;
    let mut series = Vec::new();
    for run in &report.runs {
        let Some((a, b)) = run.attack.as_ref().and_then(|a| a.budget.as_ref().map(|b| (a, b)))
        else {
            continue;
        };
        let variance = variance_for(a.shadow_models);
        for (online, label, width) in [(true, "LiRA", 3), (false, t.offline, 1)] {
            series.push(Line {
                label: format!("{}: {label}", run_name(report, run, lang)),
                color: color_of(report, run),
                dash: dash_of(report, run),
                width,
                points: b
                    .series(online, variance)
                    .iter()
                    .map(|p| (p.shadows as f64, p.auc))
                    .collect(),
            });
        }
    }
    // A curve needs two shadow counts at least (K ≥ 3): with 2 shadows there is nothing to compare.
    series.retain(|l| l.points.len() >= 2);
    if series.is_empty() {
        return String::new();
    }
    lines(t.budget_title, t.budget_axis, "AUC", &series, Some((0.5, t.chance)), lang)
}

/// How LiRA scored one sample: the φ each shadow model gave it (marks on the axis: IN, the shadows
/// that trained on it, above; OUT below), the Gaussians the attack fitted to each side, and the
/// attacked model's φ as a vertical line. Drawn in the colour of the model it belongs to.
pub fn sample_lira(s: &SampleLira, variant: Variant, lang: Lang) -> String {
    let t = &lang.texts().charts;
    let f = &s.fitted;
    let color = color_of_variant(variant);
    let sd = |v: f64| v.max(1e-12).sqrt();
    let mut lo = s.phi.min(f.mu_out - 3.0 * sd(f.var_out));
    let mut hi = s.phi.max(f.mu_out + 3.0 * sd(f.var_out));
    if let Some(mu) = f.mu_in {
        (lo, hi) = (lo.min(mu - 3.0 * sd(f.var_in)), hi.max(mu + 3.0 * sd(f.var_in)));
    }
    for &v in s.phi_in.iter().chain(&s.phi_out) {
        (lo, hi) = (lo.min(v), hi.max(v));
    }
    let pad = 0.05 * (hi - lo).max(1e-6);
    let (lo, hi) = (lo - pad, hi + pad);
    let density = |mu: f64, var: f64| {
        (0..=120)
            .map(|k| {
                let x = lo + (hi - lo) * k as f64 / 120.0;
                (
                    x,
                    (-(x - mu).powi(2) / (2.0 * var)).exp()
                        / (2.0 * std::f64::consts::PI * var).sqrt(),
                )
            })
            .collect::<Vec<_>>()
    };
    let curve_in = f.mu_in.map(|mu| density(mu, f.var_in.max(1e-12)));
    let curve_out = density(f.mu_out, f.var_out.max(1e-12));
    let top = curve_in.iter().flatten().chain(&curve_out).fold(0.0f64, |m, p| m.max(p.1)) * 1.15;
    let top = if top > 0.0 { top } else { 1.0 };
    let num = |x: f64| describe::num(x, lang);
    let mut desc = vec![format!("{} {}", t.attacked_phi, num(s.phi))];
    if let Some(mu) = f.mu_in {
        desc.push(format!("{} ({}): {}", t.shadows_in, s.phi_in.len(), num(mu)));
    }
    desc.push(format!("{} ({}): {}", t.shadows_out, s.phi_out.len(), num(f.mu_out)));
    desc.push(format!("LiRA {}", num(s.online)));
    svg(WIDTH, 300, t.sample_title, &desc.join(". "), lang, |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(t.sample_title, ("sans-serif", CAPTION))
            .margin(10)
            .margin_right(24)
            .x_label_area_size(48)
            .y_label_area_size(60)
            .build_cartesian_2d(lo..hi, 0f64..top)
            .map_err(|e| e.to_string())?;
        mesh(&mut chart)
            .x_desc(t.phi_axis)
            .y_desc(t.density)
            .x_label_formatter(&|v| tick(v, lang))
            .y_label_formatter(&|v| tick(v, lang))
            .draw()
            .map_err(|e| e.to_string())?;
        let mut keys = Legend::default();
        let shade = lighter(color);
        let (inside, outside) = (color.stroke_width(3), GREY.stroke_width(3));
        if let Some(c) = curve_in {
            stroke(&mut chart, c, inside, Dash::Solid)?;
            keys.add(t.shadows_in, Mark::Line(inside, Dash::Solid));
        }
        stroke(&mut chart, curve_out, outside, Dash::Long)?;
        keys.add(t.shadows_out, Mark::Line(outside, Dash::Long));
        // Each shadow's φ: IN marks in the upper tenth, OUT marks just above the axis.
        let rug = |v: &[f64], y: f64| v.iter().map(|&x| (x, y)).collect::<Vec<_>>();
        marks(&mut chart, rug(&s.phi_in, 0.9 * top), Mark::Dot(5, shade.filled()))?;
        marks(&mut chart, rug(&s.phi_out, 0.05 * top), Mark::Triangle(6, GREY.filled()))?;
        let target = BLACK.stroke_width(2);
        stroke(&mut chart, vec![(s.phi, 0.0), (s.phi, top)], target, Dash::Solid)?;
        keys.add(t.attacked_phi, Mark::Line(target, Dash::Solid));
        Ok(keys)
    })
}

/// One member's margin over the epochs the attacked model was measured at (0: untrained), with the
/// line at 0 above which the model predicts the label it was given: where an outlier's label is
/// learned by heart. In the colour of the model it belongs to; empty without a history.
pub fn sample_history(history: &[SampleEpoch], variant: Variant, lang: Lang) -> String {
    if history.is_empty() {
        return String::new();
    }
    let t = &lang.texts().charts;
    let points: Vec<(f64, f64)> =
        history.iter().map(|h| (h.epoch as f64, f64::from(h.margin))).collect();
    let (lo, hi) = points.iter().fold((0.0f64, 0.0f64), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let pad = 0.1 * (hi - lo).max(1e-3);
    let (lo, hi) = (lo - pad, hi + pad);
    let xmax = points.last().map_or(1.0, |p| p.0).max(1.0);
    let name = model_name(variant, lang);
    let desc = [
        describe::series(name, t.epoch, &points, describe::num, lang),
        format!("{} {}", t.reference_at, describe::num(0.0, lang)),
    ]
    .join(". ");
    let color = color_of_variant(variant);
    svg(WIDTH, 260, t.history_title, &desc, lang, |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(t.history_title, ("sans-serif", CAPTION))
            .margin(10)
            .margin_right(24)
            .x_label_area_size(48)
            .y_label_area_size(60)
            .build_cartesian_2d(0f64..xmax, lo..hi)
            .map_err(|e| e.to_string())?;
        mesh(&mut chart)
            .x_desc(t.epoch_axis)
            .y_desc(t.margin_axis)
            .x_labels(xmax as usize + 1)
            .y_labels(6)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| tick(v, lang))
            .draw()
            .map_err(|e| e.to_string())?;
        let mut keys = Legend::default();
        stroke(&mut chart, vec![(0.0, 0.0), (xmax, 0.0)], GREY.stroke_width(1), Dash::Solid)?;
        let style = color.stroke_width(3);
        stroke(&mut chart, points.clone(), style, Dash::of(variant))?;
        marks(&mut chart, points, model_mark(variant, color.filled()))?;
        keys.add(name, Mark::Line(style, Dash::of(variant)));
        Ok(keys)
    })
}
