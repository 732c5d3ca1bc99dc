//! The paper panel's charts: each lens as means over seeds, and the regularizer's trade-off.

use super::*;

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

fn epoch_points(v: &[f64]) -> Vec<(f64, f64)> {
    v.iter().enumerate().map(|(e, &y)| (e as f64, y)).collect()
}

/// The paper panel's charts from a merged [`PaperTable`] (means over seeds): (title, SVG) for
/// memorization, gradient norms, γ/σ and γ (the feedback loop), and the λ trade-off.
pub fn paper_charts(table: &PaperTable, lang: Lang) -> Vec<(&'static str, String)> {
    let t = &lang.texts().charts;
    let variant = |c: &spotlight_core::paper::LensCurves| {
        c.variant.unwrap_or(Variant::unregularized(c.batch_norm))
    };
    let mut memo = Vec::new();
    let mut grads = Vec::new();
    let mut gs = Vec::new();
    let mut gamma = Vec::new();
    for c in &table.curves {
        let v = variant(c);
        let tag = format!("{} {}", model_name(v, lang), lang.pct(c.noise, 0));
        let (color, dash) = (color_of_variant(v), Dash::of(v));
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
        if v == Variant::Bn && !c.gamma_sigma.is_empty() {
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
