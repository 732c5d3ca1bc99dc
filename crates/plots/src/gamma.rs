//! The amplifier lens: γ/σ per BN layer over the epochs.

use super::*;

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
