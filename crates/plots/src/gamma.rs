//! The amplifier lens: γ/σ per normalization layer over the epochs.

use super::*;

/// The layers' looks in the γ/σ chart of one normalized model (Okabe–Ito: vermillion, orange, sky
/// blue, bluish green), each with its own dash as well; with two or more normalized models each
/// takes its model's colour and the dashes tell the layers apart.
const LAYER_LOOKS: [(RGBColor, Dash); 4] = [
    (BN_COLOR, Dash::Solid),
    (RGBColor(230, 159, 0), Dash::Long),
    (RGBColor(86, 180, 233), Dash::Short),
    (RGBColor(0, 158, 115), Dash::Dotted),
];

/// γ/σ per normalization layer over the epochs — the median over channels with the batch σ (the
/// paper's σ; GroupNorm's and LayerNorm's σ is each sample's own, averaged as 1/σ over the batch),
/// epoch 0 the untrained model — with the line γ/σ = 1. BN's layers in their own colours, another
/// model's in its colour (the layers told apart by their dashes).
pub fn gamma_sigma_curves(reports: &[&Report], lang: Lang) -> String {
    let t = &lang.texts().charts;
    let normalized = |r: &&Report, run: &&ModelRun| r.variant(run).norm() != Norm::None;
    let models =
        reports.iter().flat_map(|r| r.runs.iter().filter(|run| normalized(r, run))).count();
    let per_sample =
        reports.iter().any(|r| r.runs.iter().any(|run| r.variant(run).norm().per_sample()));
    let mut series = Vec::new();
    for r in reports {
        for run in r.runs.iter().filter(|run| normalized(r, run)) {
            let layers = run.epochs.first().map_or(0, |e| e.gamma_sigma.len());
            for l in 0..layers {
                let (layer_color, dash) = LAYER_LOOKS[l % LAYER_LOOKS.len()];
                let color = if models > 1 { color_of_variant(r.variant(run)) } else { layer_color };
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
    let title = if per_sample { t.gamma_title_any } else { t.gamma_title };
    lines(title, t.epoch_axis, t.median_gamma_sigma, &series, Some((1.0, "γ/σ = 1")), lang)
}
