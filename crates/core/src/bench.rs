//! Benchmarks that print figures (never timed tests): train-step throughput of LeNet ± BN on a
//! device, and the wall time of a whole comparison split by phase. The CLI (`spotlight bench`)
//! and the app (`?bench=1`) both measure with this code; each hands in its own clock, since
//! `std::time::Instant` does not exist in a browser.

use serde::{Deserialize, Serialize};

use burn::tensor::Device;

use crate::Variant;
use crate::config::{Config, DatasetName};
use crate::data::Dataset;
use crate::experiment_data::{DeviceData, ExperimentData};
use crate::report::RunError;
use crate::train::Trainer;

/// Untimed steps before the timed ones (kernel compilation, allocator warm-up).
pub const WARMUP: usize = 3;

/// Training images in one full MNIST epoch (for the "one epoch takes" estimate).
pub const MNIST_EPOCH: usize = 60_000;

/// The throughput of one model on one backend.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Throughput {
    pub backend: String,
    pub batch_norm: bool,
    pub batch_size: usize,
    /// Timed steps (after [`WARMUP`]).
    pub steps: usize,
    /// Wall time of the timed steps, device work included.
    pub seconds: f64,
    pub samples_per_s: f64,
}

impl Throughput {
    /// Seconds one full MNIST epoch (60,000 images) would take at this rate.
    pub fn mnist_epoch_s(&self) -> f64 {
        MNIST_EPOCH as f64 / self.samples_per_s
    }
}

/// The config a throughput measurement trains with: MNIST, one model, no probes or shadows,
/// just enough samples for the steps.
pub fn throughput_config(batch_norm: bool, batch_size: usize, steps: usize) -> Config {
    Config {
        dataset: DatasetName::Mnist,
        train_size: batch_size * (steps + WARMUP),
        batch_size,
        epochs: 1,
        probe_size: 0,
        live_points: 0,
        shadow_models: 0,
        compare: false,
        batch_norm,
        ..Config::default()
    }
}

/// Whether `steps` timed steps at `batch_size` fit one experiment (the samples they need are a
/// train set, at most `train_size`'s maximum); the error says what to lower.
pub fn check_throughput(batch_size: usize, steps: usize) -> Result<(), String> {
    if steps == 0 {
        return Err("steps: at least one timed step".into());
    }
    throughput_config(true, batch_size, steps).validate().map_err(|e| {
        format!(
            "batch {batch_size} × {} steps ({steps} timed + {WARMUP} warm-up) does not fit one training set ({e}): lower the steps or the batch size",
            steps + WARMUP
        )
    })
}

/// Times `steps` training steps (forward + backward + optimizer) of one LeNet on `device`, after
/// [`WARMUP`] untimed ones. The clock reads seconds; the timing ends only after the device has
/// run every queued step (an async read-back), so a GPU's lazy queue is not mistaken for speed.
/// Between steps it lets the host breathe ([`yielder::pause`](crate::yielder::pause)), as a real
/// run in a browser does, so the figure is what a page gets (natively the pause is a no-op).
pub async fn train_throughput(
    dataset: &Dataset,
    device: &Device,
    backend: &str,
    batch_norm: bool,
    batch_size: usize,
    steps: usize,
    clock: &dyn Fn() -> f64,
) -> Result<Throughput, RunError> {
    check_throughput(batch_size, steps).map_err(RunError::Other)?;
    let config = throughput_config(batch_norm, batch_size, steps);
    let data = ExperimentData::build(&config, dataset, None)
        .map_err(|e| RunError::Other(e.to_string()))?;
    let device_data = DeviceData::new(&data, device);
    let mut t = Trainer::new(
        &config,
        Variant::unregularized(batch_norm),
        &data,
        &device_data,
        data.members(),
        config.seed,
    );
    for _ in 0..WARMUP {
        t.step().await?;
        crate::yielder::pause().await;
    }
    t.sync().await?;
    let start = clock();
    for _ in 0..steps {
        t.step().await?;
        crate::yielder::pause().await;
    }
    t.sync().await?;
    let seconds = (clock() - start).max(1e-9);
    Ok(Throughput {
        backend: backend.to_string(),
        batch_norm,
        batch_size,
        steps,
        seconds,
        samples_per_s: (batch_size * steps) as f64 / seconds,
    })
}

/// Wall time of a whole experiment, by phase, in seconds.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PhaseTimes {
    /// Training (and measuring every epoch of) the target models.
    pub targets_s: f64,
    /// Training the shadow models.
    pub shadows_s: f64,
    /// Scoring every candidate on every model and the attacks, and what follows until the clock is
    /// read (in the app: drawing the results). Each phase includes the drawing done in it, so the
    /// three add up to `total_s`.
    pub attack_s: f64,
    pub total_s: f64,
}

impl PhaseTimes {
    /// Whether the shadow models added no wall time of their own (parallel workers finished them
    /// before the last target model): the phases in words then say "alongside"
    /// (`spotlight_i18n::say::run::phases`).
    pub fn shadows_alongside(&self) -> bool {
        self.shadows_s < 0.05
    }
}

/// What a benchmark measured: throughput per backend and model, and (when run) the wall time of
/// one comparison.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BenchReport {
    pub throughput: Vec<Throughput>,
    /// The comparison that was timed, on which backend, and its times.
    pub comparison: Option<ComparisonTime>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ComparisonTime {
    pub backend: String,
    pub config: Config,
    pub times: PhaseTimes,
    /// Whether it ran to its end (false: cancelled or failed, times up to then).
    pub finished: bool,
    /// Web Workers that trained in parallel (0: one thread, the page's or the CLI's).
    #[serde(default)]
    pub workers: usize,
    /// What the run showed: BN's flipped-label accuracy at the end minus no-BN's
    /// ([`crate::Report::flipped_gap`]).
    #[serde(default)]
    pub flipped_gap: Option<f64>,
}

impl BenchReport {
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a bench report serializes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn throughput_config_fits_its_steps() {
        let c = throughput_config(true, 128, 20);
        assert_eq!(c.train_size, 128 * 23);
        c.validate().unwrap();
        check_throughput(128, 20).unwrap();
        let e = check_throughput(2048, 20).unwrap_err();
        assert!(e.contains("batch 2048 × 23 steps") && e.contains("train_size"), "{e}");
        assert!(check_throughput(64, 0).is_err());
    }
}
