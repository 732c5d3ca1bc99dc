//! The memorization curves as SVG (plotters).

use std::path::Path;

use plotters::prelude::*;
use spotlight_core::report::Report;

/// Accuracy on flipped samples per epoch, every model of every report with label noise.
pub fn memorization_svg(reports: &[Report], path: &Path) -> Result<(), String> {
    let root = SVGBackend::new(path, (900, 520)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let epochs = reports.iter().map(|r| r.config.epochs).max().unwrap_or(1).max(2);
    let mut chart = ChartBuilder::on(&root)
        .caption("Accuracy on flipped-label training samples (memorization)", ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(1f64..epochs as f64, 0f64..1f64)
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc("epoch")
        .y_desc("accuracy on flipped samples")
        .draw()
        .map_err(|e| e.to_string())?;
    let palette = [RED, BLUE, GREEN, MAGENTA, CYAN, BLACK];
    let mut color = 0;
    for r in reports.iter().filter(|r| r.config.label_noise > 0.0) {
        for run in &r.runs {
            let pts: Vec<(f64, f64)> =
                run.epochs.iter().filter_map(|e| e.acc_flipped.map(|a| (e.epoch as f64, a))).collect();
            if pts.is_empty() {
                continue;
            }
            let name = format!(
                "{}{} @ {:.0}% noise",
                if run.batch_norm { "BN" } else { "no-BN" },
                if r.config.regularizer { " + γ/σ reg" } else { "" },
                100.0 * r.config.label_noise
            );
            let c = palette[color % palette.len()];
            color += 1;
            let style = if run.batch_norm { c.stroke_width(2) } else { c.stroke_width(1) };
            chart
                .draw_series(LineSeries::new(pts, style))
                .map_err(|e| e.to_string())?
                .label(name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c));
        }
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}
