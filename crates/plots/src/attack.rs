//! The privacy lens: LiRA's (and the loss attack's) ROC curves.

use super::*;

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
