//! The per-sample influence lens: the scale-free gradients of the probes (clean vs noisy), and
//! one step's self-influence over the epochs.

use super::*;

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
