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
    /// On WebGPU, the GPU work of a training step, counted by the page around the API (absent
    /// elsewhere).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_work: Option<GpuWork>,
}

/// WebGPU calls per training step, the mean over the warm-up and timed steps (the two read-backs
/// that wait for the queue included).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GpuWork {
    /// Compute dispatches (`dispatchWorkgroups`): kernel launches.
    pub dispatches: f64,
    /// Queue submits.
    pub submits: f64,
    /// Buffers mapped for reading (`mapAsync`): read-backs to the CPU.
    pub readbacks: f64,
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
    training_only(Config {
        dataset: DatasetName::Mnist,
        train_size: batch_size * (steps + WARMUP),
        batch_size,
        epochs: 1,
        norm: batch_norm.into(),
        ..Config::default()
    })
}

/// `config` reduced to the training of one model (its first): no probes, live read-outs, shadow
/// models, OOD images or canary — what the benchmarks time.
fn training_only(config: Config) -> Config {
    Config {
        probe_size: 0,
        live_points: 0,
        shadow_models: 0,
        compare: false,
        ood_fraction: 0.0,
        ood_source: crate::config::OodSourceName::Shuffle,
        canary: String::new(),
        ..config
    }
}

/// Whether `steps` timed steps at `batch_size` fit one experiment (the samples they need are a
/// train set, at most `train_size`'s maximum); the error says what to lower.
pub fn check_throughput(batch_size: usize, steps: usize) -> Result<(), String> {
    if steps == 0 {
        return Err("steps: at least one timed step".into());
    }
    // The config's own error would be a variant's name here (its words are spotlight-i18n's): the
    // limit it broke is said instead.
    let most = crate::config::range_of("train_size").map_or(f64::NAN, |r| r.max);
    throughput_config(true, batch_size, steps).validate().map_err(|_| {
        format!(
            "batch {batch_size} × {} steps ({steps} timed + {WARMUP} warm-up) does not fit one training set (at most {most} samples): lower the steps or the batch size",
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
    let warm = Budget { most: WARMUP, seconds: 0.0 };
    let (steps, seconds) =
        time_steps(&mut t, warm, Budget { most: steps, seconds: f64::INFINITY }, clock).await?;
    Ok(Throughput {
        backend: backend.to_string(),
        batch_norm,
        batch_size,
        steps,
        seconds,
        samples_per_s: (batch_size * steps) as f64 / seconds,
        gpu_work: None,
    })
}

/// How many steps a phase of [`time_steps`] takes: until `most` of them ran, or once `seconds`
/// passed (a warm-up takes at least [`WARMUP`] either way).
#[derive(Clone, Copy)]
struct Budget {
    most: usize,
    seconds: f64,
}

/// Untimed warm-up steps (`warm`), then timed ones (`timed`, at least one), then a read-back that
/// waits for the device: how many were timed, and their seconds. A warm-up with a time budget
/// waits for the device after each step past [`WARMUP`] (a GPU queues its steps and runs them
/// later); the timed steps' budget is checked as they are queued.
async fn time_steps(
    t: &mut Trainer,
    warm: Budget,
    timed: Budget,
    clock: &dyn Fn() -> f64,
) -> Result<(usize, f64), RunError> {
    let start = clock();
    let mut warmed = 0;
    while warmed < warm.most && (warmed < WARMUP || clock() - start < warm.seconds) {
        t.step().await?;
        crate::yielder::pause().await;
        warmed += 1;
        if warmed >= WARMUP && warm.seconds > 0.0 {
            t.sync().await?;
        }
    }
    t.sync().await?;
    let start = clock();
    let mut steps = 0;
    while steps < timed.most && (steps == 0 || clock() - start < timed.seconds) {
        t.step().await?;
        crate::yielder::pause().await;
        steps += 1;
    }
    t.sync().await?;
    Ok((steps, (clock() - start).max(1e-9)))
}

/// The most steps a backend measurement ([`step_rate`]) takes, warm-up and timed together (at a
/// large batch fewer: as many as one training set holds).
pub const RATE_STEPS: usize = 60;

/// The warm-up's seconds in a backend measurement ([`step_rate`]): a browser runs a worker's code
/// first as compiled quickly, and optimizes what is hot only after a while (V8's tiers); a figure
/// taken before that undersells the CPU (headless Chromium here, BN at batch 32 in a worker: 635
/// samples/s after 3 warm-up steps, 978 after a second's; `bench=1`'s row, 13 steps on the page:
/// 1,268). Longer warm-ups were not measured.
pub const RATE_WARM_S: f64 = 1.0;

/// The timed steps' seconds in a backend measurement ([`step_rate`]).
pub const RATE_BUDGET_S: f64 = 0.5;

/// Images of noise in MNIST's shape (28×28, 10 classes): `train` and `test` of them, drawn from
/// `seed`. A rehearsal and a backend measurement train on them: their shapes are a run's, their
/// values do not matter, and no dataset has to be loaded first.
pub fn noise_dataset(seed: u64, train: usize, test: usize) -> Dataset {
    let (classes, px) = (10u8, 28 * 28);
    let mut rng = crate::data::Rng::derive(seed, "noise");
    let mut split = |n: usize| crate::data::Split {
        images: (0..n * px).map(|_| rng.below(256) as u8).collect(),
        labels: (0..n).map(|_| rng.below(u64::from(classes)) as u8).collect(),
    };
    let train = split(train);
    Dataset { name: "noise".into(), classes, rows: 28, cols: 28, train, test: split(test) }
}

/// How fast `config`'s first model trains on `device`, in samples per second, at its batch size:
/// warm-up steps for [`RATE_WARM_S`] seconds (at least [`WARMUP`]), then timed ones for
/// [`RATE_BUDGET_S`], [`RATE_STEPS`] at most in all, on images of noise ([`noise_dataset`]). The page measures each backend so, before the
/// first run, and trains on the faster.
pub async fn step_rate(
    config: &Config,
    device: &Device,
    clock: &dyn Fn() -> f64,
) -> Result<f64, RunError> {
    let batch = config.batch_size;
    // As many steps as one training set holds, up to RATE_STEPS: half of them (at least WARMUP)
    // for the warm-up, the rest timed.
    let most =
        (1..=RATE_STEPS - WARMUP).rev().find(|&s| check_throughput(batch, s).is_ok()).unwrap_or(1)
            + WARMUP;
    let warm = Budget { most: (most / 2).max(WARMUP), seconds: RATE_WARM_S };
    let timed = Budget { most: most - warm.most, seconds: RATE_BUDGET_S };
    let config = training_only(Config {
        train_size: batch * most,
        test_size: 16,
        epochs: 1,
        // The time of a step does not depend on the rate; the link's could diverge on noise.
        learning_rate: Config::default().learning_rate,
        ..config.clone()
    });
    let variant = config.variant(config.norm);
    let dataset = noise_dataset(config.seed, 2 * config.train_size, 16);
    let data = ExperimentData::build(&config, &dataset, None)
        .map_err(|e| RunError::Other(e.to_string()))?;
    let device_data = DeviceData::new(&data, device);
    let mut t = Trainer::new(&config, variant, &data, &device_data, data.members(), config.seed);
    let (steps, seconds) = time_steps(&mut t, warm, timed, clock).await?;
    Ok((batch * steps) as f64 / seconds)
}

/// Shadow models trained one by one or stacked ([`crate::shadows`]): what [`shadows_time`]
/// measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShadowsTime {
    pub backend: String,
    pub batch_norm: bool,
    /// Trained as one stacked network (else one after another).
    pub stacked: bool,
    pub models: usize,
    /// Training samples, all models together (each model's epochs × its steps × the batch).
    pub samples: usize,
    /// Wall time: uploading the data, training, and scoring the pool on each model.
    pub seconds: f64,
    /// On WebGPU, compute dispatches per training sample over the timed round, counted by the
    /// page (absent elsewhere).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dispatches_per_sample: Option<f64>,
}

/// The shadow models [`shadows_time`] trains: `models` LeNets, BN or no-BN, each on a random half
/// of a pool of 16 batches (about 8 batches of members), 2 epochs at `batch_size`.
pub fn shadows_config(batch_norm: bool, batch_size: usize, models: usize) -> Config {
    Config {
        train_size: 8 * batch_size,
        batch_size,
        epochs: 2,
        test_size: 16,
        shadow_models: models.max(2),
        norm: batch_norm.into(),
        ..training_only(Config::default())
    }
}

/// Times `models` shadow models of [`shadows_config`] on `device` (images of noise), trained one
/// after another as a run's jobs train them, or `stacked` as one network: an untimed round first
/// (one epoch: the kernels compile), then the whole training and each model's pool scores;
/// `timed()` is called as the timed round starts (the page reads its WebGPU counts there).
#[allow(clippy::too_many_arguments)]
pub async fn shadows_time(
    device: &Device,
    backend: &str,
    batch_norm: bool,
    batch_size: usize,
    models: usize,
    stacked: bool,
    clock: &dyn Fn() -> f64,
    timed: &dyn Fn(),
) -> Result<ShadowsTime, RunError> {
    use crate::experiment::shadow_keep;
    use crate::jobs::{Job, Role, run_job_on};
    use crate::shadows::{StackTrainer, stackable};
    let config = shadows_config(batch_norm, batch_size, models);
    let dataset = noise_dataset(config.seed, 2 * config.train_size, 16);
    let data = ExperimentData::build(&config, &dataset, None)
        .map_err(|e| RunError::Other(e.to_string()))?;
    let keep = shadow_keep(&config, data.pool.labels.len());
    let ks: Vec<usize> = (0..keep.len()).take(models).collect();
    let keeps: Vec<&[bool]> = ks.iter().map(|&k| keep[k].as_slice()).collect();
    if !stackable(&config, &keeps) {
        return Err(RunError::Other(format!("shadow models {ks:?} do not stack")));
    }
    let of = config.variants()[0];
    let train = async |config: &Config| -> Result<(), RunError> {
        if stacked {
            let device_data = DeviceData::new(&data, device);
            let mut t = StackTrainer::new(config, of, 0, &ks, &keep, &data, &device_data);
            t.train(|_| {}).await?;
            for k in 0..t.models() {
                t.phi(k, &data, &device_data).await?;
            }
        } else {
            for &k in &ks {
                let job = Job { config: config.clone(), role: Role::Shadow { variant: 0, k } };
                run_job_on(&job, &data, device, backend, clock, |_| {}).await?;
            }
        }
        Ok(())
    };
    train(&Config { epochs: 1, ..config.clone() }).await?;
    timed();
    let start = clock();
    train(&config).await?;
    let seconds = (clock() - start).max(1e-9);
    // The samples each model trained on (stacked, the longest model's extra steps come on top: the
    // others' part of the stack steps on, unread — the stack's own cost).
    let samples: usize = ks
        .iter()
        .map(|&k| {
            let job = Job { config: config.clone(), role: Role::Shadow { variant: 0, k } };
            crate::jobs::job_steps(&job, &data, &keep) * config.batch_size
        })
        .sum();
    Ok(ShadowsTime {
        backend: backend.to_string(),
        batch_norm,
        stacked,
        models: ks.len(),
        samples,
        seconds,
        dispatches_per_sample: None,
    })
}

/// FLOPs per normalized value of one training step's BatchNorm (batch statistics), counted by
/// [`step_flops_per_sample`]: 7 forward (the mean and the centred sum of squares: 1 + 3; then
/// (x − μ)·(γ/σ) + β: 3) and 9 backward (Σ dy and Σ dy·x̂: 1 + 2; x̂ again: 2; then
/// (γ/σ)·(dy − mean dy − x̂·mean dy·x̂): 4).
pub const BN_FLOPS_PER_VALUE: f64 = 16.0;

/// The floating-point operations of one training step per sample, for a LeNet-5
/// ([`crate::model`]) of `channels`×`height`×`width` images and `classes` classes, with or without
/// BatchNorm; `None` when the images are too small for it (under 12 pixels on a side).
///
/// Counted: each multiply-add of the convolutions and linear layers as 2 FLOPs. Forward, a 5×5
/// convolution is 2·25·Cin·Cout·Hout·Wout and a linear layer 2·in·out. Backward, each layer's
/// weight gradient and its input gradient cost the forward's again (2× forward) — but for conv1's
/// input gradient, which nothing needs (the input is the image): conv1's backward is 1× its
/// forward. With BatchNorm, [`BN_FLOPS_PER_VALUE`] per normalized value (6·H·W + 16·h2·w2 + 120 +
/// 84, h2×w2 conv2's output). Left out as small: the biases, ReLUs, max-pooling (comparisons),
/// softmax and cross-entropy, and the optimizer (Adam, per parameter and step: 1/batch of it per
/// sample) — together under 2 % of the count for MNIST at batch 64.
pub fn step_flops_per_sample(
    channels: usize,
    height: usize,
    width: usize,
    classes: usize,
    batch_norm: bool,
) -> Option<f64> {
    // The model's shape (crate::model's constants): 5×5 kernels; conv1 pads 2 (keeps H×W) to 6
    // channels, pool 2, conv2 to 16 channels, pool 2; fc1 to 120, fc2 to 84, fc3 to the classes.
    const TAPS: usize = 5 * 5;
    let flat = crate::model::LeNetConfig::new(channels, height, width, classes).flat_features()?;
    let (conv1_out, conv2_out) = (6 * height * width, 16 * (height / 2 - 4) * (width / 2 - 4));
    // Multiply-adds per sample, forward.
    let conv1 = TAPS * channels * conv1_out;
    let conv2 = TAPS * 6 * conv2_out;
    let fcs = flat * 120 + 120 * 84 + 84 * classes;
    // Forward 1×, backward: conv1 its weight gradient only (1×), every other layer 2×.
    let macs = 2 * conv1 + 3 * (conv2 + fcs);
    let bn = if batch_norm {
        BN_FLOPS_PER_VALUE * (conv1_out + conv2_out + 120 + 84) as f64
    } else {
        0.0
    };
    Some(2.0 * macs as f64 + bn)
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
    /// Shadow models timed one by one and stacked, per backend.
    #[serde(default)]
    pub shadows: Vec<ShadowsTime>,
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
        assert!(e.contains("batch 2048 × 23 steps") && e.contains("at most 30000 samples"), "{e}");
        assert!(check_throughput(64, 0).is_err());
    }

    /// MNIST's LeNet (1×28×28, 10 classes) by hand. Multiply-adds per sample, forward:
    ///   conv1 25·1·6·28·28 = 117,600   conv2 25·6·16·10·10 = 240,000
    ///   fc1 400·120 = 48,000   fc2 120·84 = 10,080   fc3 84·10 = 840
    /// FLOPs forward = 2 × 416,520 = 833,040. Backward: conv1 its weight gradient only
    /// (235,200), the others 2× forward (2 × (480,000 + 96,000 + 20,160 + 1,680) = 1,195,680):
    /// 1,430,880. Without BN: 833,040 + 1,430,880 = 2,263,920.
    /// BN: 16 × (6·28·28 + 16·10·10 + 120 + 84) = 16 × 6,508 = 104,128; with BN 2,368,048.
    #[test]
    fn step_flops_of_mnist_lenet_by_hand() {
        assert_eq!(step_flops_per_sample(1, 28, 28, 10, false), Some(2_263_920.0));
        assert_eq!(step_flops_per_sample(1, 28, 28, 10, true), Some(2_368_048.0));
        // Too small for two 5×5 convolutions and poolings: no count.
        assert_eq!(step_flops_per_sample(1, 11, 28, 10, false), None);
        // Three channels only add to conv1 (its forward and weight gradient): 2·2·(25·2·6·784).
        let rgb = step_flops_per_sample(3, 28, 28, 10, false).unwrap();
        assert_eq!(rgb - 2_263_920.0, 4.0 * (25 * 2 * 6 * 784) as f64);
    }

    /// The count's layer sizes are the model's: its weights and biases, counted from the same
    /// shapes, are the model's parameters.
    #[test]
    fn step_flops_counts_the_models_layers() {
        use burn::module::Module;
        let device = [crate::backend::BackendName::Flex, crate::backend::BackendName::Ndarray]
            .into_iter()
            .find_map(|b| b.cpu_device().ok())
            .expect("a CPU backend");
        for (c, h, w, k) in [(1, 28, 28, 10), (3, 32, 24, 7)] {
            let config = crate::model::LeNetConfig::new(c, h, w, k);
            let flat = config.flat_features().unwrap();
            let model = config.with_norm(crate::config::Norm::None).init(1, &device);
            let weights = 25 * c * 6 + 25 * 6 * 16 + flat * 120 + 120 * 84 + 84 * k;
            let biases = 6 + 16 + 120 + 84 + k;
            assert_eq!(model.num_params(), weights + biases);
            // Forward, each weight is one multiply-add per output position: conv1 over H·W,
            // conv2 over (H/2 − 4)·(W/2 − 4), a linear layer once.
            let (p1, p2) = (h * w, (h / 2 - 4) * (w / 2 - 4));
            let forward = 25 * c * 6 * p1 + 25 * 6 * 16 * p2 + flat * 120 + 120 * 84 + 84 * k;
            let backward = 2 * forward - 25 * c * 6 * p1;
            let flops = step_flops_per_sample(c, h, w, k, false).unwrap();
            assert_eq!(flops, 2.0 * (forward + backward) as f64);
        }
    }
}
