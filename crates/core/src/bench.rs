//! Benchmarks that print figures (never timed tests): train-step throughput of LeNet ± BN on a
//! device, and the wall time of a whole comparison split by phase. The CLI (`spotlight bench`)
//! and the app (`?bench=1`) both measure with this code; each hands in its own clock, since
//! `std::time::Instant` does not exist in a browser.

use serde::{Deserialize, Serialize};

use burn::tensor::Device;

use crate::Variant;
use crate::config::{Config, DatasetName};
use crate::data::Dataset;
use crate::experiment::Phase;
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
    /// "BN" or "no-BN".
    pub fn model(&self) -> &'static str {
        Variant::unregularized(self.batch_norm).label()
    }

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
    /// The phases in words: "training 7.6 s, shadow models 3.1 s, attack 0.1 s". Where parallel
    /// workers finished every shadow model before the last target model, the shadow models added
    /// no wall time, and it says so rather than "0.0 s".
    pub fn describe(&self) -> String {
        let shadows = if self.shadows_alongside() {
            "shadow models alongside".to_string()
        } else {
            format!("shadow models {:.1} s", self.shadows_s)
        };
        format!("training {:.1} s, {shadows}, attack {:.1} s", self.targets_s, self.attack_s)
    }

    /// Whether the shadow models added no wall time of their own (parallel workers finished them
    /// before the last target model): [`describe`](Self::describe) then says "alongside".
    pub fn shadows_alongside(&self) -> bool {
        self.shadows_s < 0.05
    }
}

/// Splits an experiment's wall time by phase: feed it the phase the experiment is in after each
/// [`Experiment::advance`](crate::experiment::Experiment::advance), with the clock's time.
#[derive(Clone, Debug)]
pub struct PhaseTimer {
    start: f64,
    phase: Phase,
    since: f64,
    times: PhaseTimes,
}

impl PhaseTimer {
    pub fn new(now: f64) -> Self {
        Self { start: now, phase: Phase::Targets, since: now, times: PhaseTimes::default() }
    }

    /// Notes that, at `now`, the experiment is in `phase` (the time since the last change is
    /// charged to the phase before it).
    pub fn observe(&mut self, phase: Phase, now: f64) {
        if phase != self.phase {
            self.charge(now);
            self.phase = phase;
        }
        self.times.total_s = now - self.start;
    }

    fn charge(&mut self, now: f64) {
        let dt = now - self.since;
        match self.phase {
            Phase::Targets => self.times.targets_s += dt,
            Phase::Shadows => self.times.shadows_s += dt,
            Phase::Attack | Phase::Done => self.times.attack_s += dt,
        }
        self.since = now;
    }

    /// The times so far (the running phase charged up to `now`).
    pub fn times(&self, now: f64) -> PhaseTimes {
        let mut t = self.clone();
        t.charge(now);
        t.times.total_s = now - self.start;
        t.times
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
    fn phase_timer_charges_each_phase() {
        let mut t = PhaseTimer::new(10.0);
        t.observe(Phase::Targets, 12.0);
        t.observe(Phase::Targets, 15.0);
        t.observe(Phase::Shadows, 16.0); // targets ran 10 → 16
        t.observe(Phase::Attack, 20.0); // shadows 16 → 20
        t.observe(Phase::Done, 20.5); // attack 20 → 20.5, and after it up to the reading
        let times = t.times(21.0);
        assert_eq!(times.targets_s, 6.0);
        assert_eq!(times.shadows_s, 4.0);
        assert_eq!(times.attack_s, 1.0);
        assert_eq!(times.total_s, 11.0);
        assert_eq!(times.targets_s + times.shadows_s + times.attack_s, times.total_s);
    }

    #[test]
    fn phases_in_words() {
        let t = PhaseTimes { targets_s: 7.62, shadows_s: 3.05, attack_s: 0.1, total_s: 10.77 };
        assert_eq!(t.describe(), "training 7.6 s, shadow models 3.0 s, attack 0.1 s");
        // Workers that finished the shadow models while a target still trained.
        let t = PhaseTimes { shadows_s: 0.0, ..t };
        assert_eq!(t.describe(), "training 7.6 s, shadow models alongside, attack 0.1 s");
    }

    #[test]
    fn a_running_phase_is_charged_up_to_now() {
        let mut t = PhaseTimer::new(0.0);
        t.observe(Phase::Targets, 1.0);
        let times = t.times(3.0);
        assert_eq!(times.targets_s, 3.0);
        assert_eq!(times.total_s, 3.0);
    }

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
