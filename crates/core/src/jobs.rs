//! An experiment cut into jobs, one per model: each target model and each shadow model is a
//! [`Job`], keyed by a hash of what defines it (the whole `Config` and the model's role), whose
//! [`JobResult`] can be written to its own file as soon as it is done. A grid of experiments can
//! then be run in any order, in slices on many machines (`spotlight paper --shard I/N`), resumed
//! after a crash (a finished job is never run again), and merged ([`assemble`]) into the same
//! [`Report`] a [`Board`](crate::board::Board) makes of them when they run in the page's workers or
//! here ([`crate::local`]): the same trainers, the same seeds and the same [`attack_report`].

use burn::tensor::Device;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::Config;
use crate::data::Dataset;
use crate::experiment::{attack_report, pool_scores, shadow_keep, shadow_trainer};
use crate::experiment_data::{BuildError, DeviceData, ExperimentData};
use crate::report::{AttackReport, ModelRun, Readout, Report, RunError};
use crate::shadows::StackTrainer;
use crate::train::{TrainError, Trainer};

/// Which model of an experiment a job trains. `variant` indexes `Config::variants()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Target { variant: usize },
    Shadow { variant: usize, k: usize },
}

/// One model to train.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Job {
    pub config: Config,
    pub role: Role,
}

/// What a finished job hands to the merge.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JobOutput {
    /// A target model: its measured epochs (or its error), its scores on every candidate of the
    /// pool (empty when training failed), and each member's loss and margin at each measured epoch
    /// ([`Trainer::member_trace`]; empty over [`TRACE_MAX`] values, or when training failed) — the
    /// attack gives the exposed members theirs.
    Target {
        run: ModelRun,
        loss: Vec<f64>,
        phi: Vec<f64>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        trace: Vec<Vec<[f32; 2]>>,
    },
    /// A shadow model: φ of every candidate (`None` if it diverged: the attack leaves it out).
    Shadow { phi: Option<Vec<f64>> },
}

/// A finished job, as written to its file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobResult {
    pub key: String,
    pub job: Job,
    pub backend: String,
    /// Wall time of the job, in seconds.
    pub seconds: f64,
    pub output: JobOutput,
}

impl Job {
    /// The job's key: the first 16 hex digits of the sha256 of its JSON (config and role). A
    /// comparison with the regularizer holds three models since 2026-12-06 (its variant indices
    /// mean other models than before): its keys carry a mark, so that an older job file is never
    /// read as another model's.
    pub fn key(&self) -> String {
        let mut json = serde_json::to_string(self).expect("a Job always serializes");
        if self.config.compare && self.config.regularizer {
            json.push_str("+three-models");
        }
        let digest = Sha256::digest(json.as_bytes());
        digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
    }

    /// Roughly what the job costs, in samples passed forward through its model (a training
    /// sample counts 3: forward and backward): its training, a target's measurements (accuracy
    /// on the members and the test set, its live read-outs, about ten batch passes per probe, the
    /// drawing's), and its scores on every candidate. Our own rough count, for the time a run is
    /// estimated to take ([`Rehearsal`]); the browser tests hold a run's estimate to its time.
    pub fn sample_passes(&self) -> f64 {
        let c = &self.config;
        let b = c.batch_size.max(1) as f64;
        let members = c.train_size as f64;
        let epochs = c.epochs as f64;
        let pool = if c.shadow_models >= 2 { 2.0 * members } else { members };
        let train = 3.0 * epochs * (members / b).ceil() * b;
        match self.role {
            Role::Shadow { .. } => train + pool,
            Role::Target { .. } => {
                let noisy = (members * (c.label_noise + c.ood_fraction)).floor();
                let probes = c.probe_size as f64 + (c.probe_size as f64).min(noisy);
                let canary = if c.canary.is_empty() { 0.0 } else { 10.0 * b };
                let live = epochs * c.live_points as f64 * 3.0 * crate::train::LIVE_SAMPLE as f64;
                let point = members + c.test_size as f64 + b + 10.0 * b * probes + 3.0 * b + canary;
                train + live + (epochs + 1.0) * point + pool
            }
        }
    }
}

/// Every job of one experiment: its targets, then their shadow models.
pub fn jobs_of(config: &Config) -> Vec<Job> {
    let variants = config.variants().len();
    let mut out: Vec<Job> = (0..variants)
        .map(|variant| Job { config: config.clone(), role: Role::Target { variant } })
        .collect();
    if config.shadow_models >= 2 {
        for variant in 0..variants {
            for k in 0..config.shadow_models {
                out.push(Job { config: config.clone(), role: Role::Shadow { variant, k } });
            }
        }
    }
    out
}

/// Trains one job's model to the end. `clock` gives the time in seconds (the host's clock: the
/// core has none that works in a browser).
pub async fn run_job(
    job: &Job,
    dataset: &Dataset,
    other: Option<&Dataset>,
    device: &Device,
    backend: &str,
    clock: impl Fn() -> f64,
) -> Result<JobResult, String> {
    let data = ExperimentData::build(&job.config, dataset, other)?;
    run_job_on(job, &data, device, backend, clock, |_| {}).await.map_err(|e| e.to_string())
}

/// Where a job stands after one of its training steps (or its epoch-0 measurement).
#[derive(Clone, Debug, PartialEq)]
pub struct JobProgress {
    pub steps_done: usize,
    pub steps_total: usize,
    /// What a target model's unit measured (a live read-out, an epoch's record), when it did.
    pub readout: Option<Readout>,
}

/// Trains one job's model to the end on data already built (`ExperimentData::build` of the job's
/// config), calling `on_progress` after every step: a host that runs jobs in parallel (the page's
/// Web Workers) shows the curves of its target models from these read-outs while they train.
pub async fn run_job_on(
    job: &Job,
    data: &ExperimentData,
    device: &Device,
    backend: &str,
    clock: impl Fn() -> f64,
    on_progress: impl FnMut(JobProgress),
) -> Result<JobResult, RunError> {
    let device_data = DeviceData::new(data, device);
    run_job_with(job, data, &device_data, backend, clock, on_progress).await
}

/// [`run_job_on`] with the data already on the device: a host that runs several jobs on one
/// device ([`crate::local`]) uploads it once.
pub async fn run_job_with(
    job: &Job,
    data: &ExperimentData,
    device_data: &DeviceData,
    backend: &str,
    clock: impl Fn() -> f64,
    mut on_progress: impl FnMut(JobProgress),
) -> Result<JobResult, RunError> {
    let started = clock();
    let config = &job.config;
    let output = match job.role {
        Role::Target { variant } => {
            let of = config.variants()[variant];
            let mut t = Trainer::new(config, of, data, device_data, data.members(), config.seed);
            let mut run = ModelRun::new(of);
            match train_target(&mut t, data, &mut run, &mut on_progress).await {
                Ok(()) => {
                    let s = pool_scores(t.model(), data, device_data).await?;
                    let trace = t.member_trace().to_vec();
                    JobOutput::Target { run, loss: s.loss, phi: s.phi, trace }
                }
                Err(e) => {
                    run.error = Some(e.into());
                    JobOutput::Target { run, loss: Vec::new(), phi: Vec::new(), trace: Vec::new() }
                }
            }
        }
        Role::Shadow { variant, k } => {
            let of = config.variants()[variant];
            let keep = shadow_keep(config, data.pool.labels.len());
            let mut t = shadow_trainer(config, of, variant, k, &keep[k], data, device_data);
            let phi = match train_shadow(&mut t, &mut on_progress).await {
                Ok(()) => Some(pool_scores(t.model(), data, device_data).await?.phi),
                Err(_) => None,
            };
            JobOutput::Shadow { phi }
        }
    };
    Ok(JobResult {
        key: job.key(),
        job: job.clone(),
        backend: backend.to_string(),
        seconds: clock() - started,
        output,
    })
}

/// Trains shadow-model jobs of one variant as one stacked network ([`StackTrainer`], on a GPU
/// backend: one kernel launch serves them all) and gives each its result, as [`run_job_with`]
/// would each alone (the same φ within float rounding; a model whose training failed, or all of
/// them when a step failed, without φ; each result's time is the stack's, shared equally).
/// `on_progress` is called after every step of the stack, with its steps (the longest model's).
///
/// # Panics
///
/// If the jobs are not shadow models of one config and one variant that stack (the [`Board`]
/// forms only such groups).
///
/// [`Board`]: crate::board::Board
pub async fn run_stack_with(
    jobs: &[Job],
    data: &ExperimentData,
    device_data: &DeviceData,
    backend: &str,
    clock: impl Fn() -> f64,
    mut on_progress: impl FnMut(JobProgress),
) -> Vec<Result<JobResult, RunError>> {
    let started = clock();
    let config = &jobs[0].config;
    let (variant, ks): (Vec<usize>, Vec<usize>) = jobs
        .iter()
        .map(|j| match j.role {
            Role::Shadow { variant, k } if &j.config == config => (variant, k),
            _ => panic!("a stack of shadow models of one config: {:?}", j.role),
        })
        .unzip();
    assert!(variant.iter().all(|&v| v == variant[0]), "a stack of one variant's shadow models");
    let keep = shadow_keep(config, data.pool.labels.len());
    let of = config.variants()[variant[0]];
    let mut t = StackTrainer::new(config, of, variant[0], &ks, &keep, data, device_data);
    let steps_total = t.total_steps();
    let trained = t
        .train(|t| {
            on_progress(JobProgress { steps_done: t.steps_done(), steps_total, readout: None });
        })
        .await;
    let mut phi = Vec::new();
    for k in 0..jobs.len() {
        phi.push(match trained {
            Ok(()) => t.phi(k, data, device_data).await.map_err(RunError::from),
            Err(_) => Ok(None),
        });
    }
    let seconds = (clock() - started) / jobs.len() as f64;
    jobs.iter()
        .zip(phi)
        .map(|(job, phi)| {
            Ok(JobResult {
                key: job.key(),
                job: job.clone(),
                backend: backend.to_string(),
                seconds,
                output: JobOutput::Shadow { phi: phi? },
            })
        })
        .collect()
}

/// The training steps a job takes (`keep`: [`shadow_keep`] of its config, for shadow models).
pub fn job_steps(job: &Job, data: &ExperimentData, keep: &[Vec<bool>]) -> usize {
    let c = &job.config;
    let trained = match job.role {
        Role::Target { .. } => data.members().len(),
        Role::Shadow { k, .. } => keep.get(k).map_or(0, |kk| kk.iter().filter(|&&x| x).count()),
    };
    (trained / c.batch_size).max(1) * c.epochs
}

async fn train_target(
    t: &mut Trainer,
    data: &ExperimentData,
    run: &mut ModelRun,
    on_progress: &mut impl FnMut(JobProgress),
) -> Result<(), TrainError> {
    let readout = t.start_target(data).await?;
    run.record(readout.clone());
    on_progress(JobProgress {
        steps_done: 0,
        steps_total: t.total_steps(),
        readout: Some(readout),
    });
    while !t.finished() {
        let (_, readout) = t.target_step(data).await?;
        let measured = readout != Readout::default();
        run.record(readout.clone());
        on_progress(JobProgress {
            steps_done: t.steps_done(),
            steps_total: t.total_steps(),
            readout: measured.then_some(readout),
        });
        crate::yielder::turn().await;
    }
    Ok(())
}

async fn train_shadow(
    t: &mut Trainer,
    on_progress: &mut impl FnMut(JobProgress),
) -> Result<(), TrainError> {
    while !t.finished() {
        let info = t.step().await?;
        if info.epoch_done {
            t.end_epoch_unmeasured().await?;
        }
        on_progress(JobProgress {
            steps_done: t.steps_done(),
            steps_total: t.total_steps(),
            readout: None,
        });
        crate::yielder::turn().await;
    }
    Ok(())
}

/// The most (member, epoch) values a target's trainer keeps of its members' loss and margin (the
/// page's default runs and the mid grid, 3,000 members × 9 measured epochs, stay under it; the full
/// grid's 30,000 × 21 and the page's largest settings do not, and their exposed members come
/// without their history).
pub const TRACE_MAX: usize = 50_000;

/// The attack on one model from its job's output and the φ its shadow models gave (`None` for one
/// that diverged; `keep[k]`: shadow `k`'s members). `None` when there is nothing to attack (the
/// model failed, or the attack is off).
pub fn attack_of(
    config: &Config,
    data: &ExperimentData,
    keep: &[Vec<bool>],
    target: &JobOutput,
    shadow_phi: &[Option<Vec<f64>>],
) -> Option<Result<AttackReport, RunError>> {
    let JobOutput::Target { run, loss, phi, trace } = target else {
        return Some(Err(RunError::Other("not a target model's output".into())));
    };
    if run.error.is_some() || config.shadow_models < 2 {
        return None;
    }
    let scores = crate::attack::Scores {
        confidence: loss.iter().map(|l| (-l).exp()).collect(),
        loss: loss.clone(),
        phi: phi.clone(),
    };
    Some(attack_report(config, data, &scores, keep, shadow_phi, trace).map_err(RunError::Other))
}

/// What a rehearsal did, and the pace it measured.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rehearsal {
    /// How many models it trained.
    pub models: usize,
    /// Seconds per sample pass ([`Job::sample_passes`]) over its models after the first (which
    /// compiles as it runs), at its batch size; `None` if it could not tell.
    pub seconds_per_pass: Option<f64>,
}

/// Every job's sample passes ([`Job::sample_passes`]): a whole run's work.
pub fn sample_passes(config: &Config) -> f64 {
    jobs_of(config).iter().map(Job::sample_passes).sum()
}

/// The seconds `config`'s run would take at `seconds_per_pass` (a rehearsal's, or a finished
/// run's) with `workers` models training side by side. A rough figure ("about 30 s").
pub fn estimate_s(config: &Config, seconds_per_pass: f64, workers: usize) -> f64 {
    sample_passes(config) * seconds_per_pass / workers.max(1) as f64
}

/// A rehearsal of `config`'s models at a toy size: its target models (with their live read-outs
/// and scores), its shadow models and its attacks, on images of noise — two steps of `config`'s
/// batch size (at most 64), one epoch, two shadow models. Every step of a real run runs, in about
/// a second. A host whose code compiles
/// as it first runs (a browser's wasm engine, which compiles a function when first called and again,
/// optimized, once it is hot) runs it before the user's first run, so that this compiling does not
/// compete for the processor with the real run's first steps. `clock` reads seconds: the models
/// after the first are timed, for the pace a real run can be estimated by.
pub async fn rehearse(
    config: &Config,
    device: &Device,
    clock: &dyn Fn() -> f64,
) -> Result<Rehearsal, RunError> {
    let batch = config.batch_size.clamp(16, 64);
    let config = Config {
        train_size: 2 * batch,
        test_size: 16,
        // One probe a group runs every measuring path once: all the compiling needs.
        probe_size: 1,
        batch_size: batch,
        epochs: 1,
        shadow_models: 2,
        ood_fraction: 0.0,
        ood_source: crate::config::OodSourceName::Shuffle,
        canary: String::new(),
        ..config.clone()
    };
    let dataset = crate::bench::noise_dataset(config.seed, 4 * batch, 16);
    let data = ExperimentData::build(&config, &dataset, None)
        .map_err(|e| RunError::Other(e.to_string()))?;
    let keep = shadow_keep(&config, data.pool.labels.len());
    let jobs = jobs_of(&config);
    let mut outputs = Vec::new();
    let (mut warm_s, mut warm_passes) = (0.0, 0.0);
    for (n, job) in jobs.iter().enumerate() {
        let t0 = clock();
        outputs.push(run_job_on(job, &data, device, "rehearsal", || 0.0, |_| {}).await?.output);
        if n > 0 {
            warm_s += clock() - t0;
            warm_passes += job.sample_passes();
        }
    }
    for (v, _) in config.variants().iter().enumerate() {
        let shadow_phi: Vec<Option<Vec<f64>>> = jobs
            .iter()
            .zip(&outputs)
            .filter_map(|(j, o)| match (j.role, o) {
                (Role::Shadow { variant, .. }, JobOutput::Shadow { phi }) if variant == v => {
                    Some(phi.clone())
                }
                _ => None,
            })
            .collect();
        if let Some(Err(e)) = attack_of(&config, &data, &keep, &outputs[v], &shadow_phi) {
            return Err(e);
        }
    }
    let seconds_per_pass = (warm_s > 0.0 && warm_passes > 0.0).then(|| warm_s / warm_passes);
    Ok(Rehearsal { models: jobs.len(), seconds_per_pass })
}

/// Why a report could not be assembled. Its words are `spotlight-i18n`'s
/// (`say::run::assemble_error`).
#[derive(Clone, Debug, PartialEq)]
pub enum AssembleError {
    /// These jobs have no result yet.
    Missing(Vec<Job>),
    /// The experiment's data could not be built.
    Data(BuildError),
    /// The result found for a target model's key is not a target model's.
    NotATarget { key: String },
}

/// The variant and its values, not a sentence (`Missing(2 job(s), first KEY)`).
impl std::fmt::Display for AssembleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Missing(jobs) => {
                write!(f, "Missing({} job(s)", jobs.len())?;
                if let Some(j) = jobs.first() {
                    write!(f, ", first {}", j.key())?;
                }
                f.write_str(")")
            }
            Self::Data(e) => write!(f, "Data({e})"),
            Self::NotATarget { key } => write!(f, "NotATarget {{ key: {key} }}"),
        }
    }
}

/// The experiment's [`Report`] from its jobs' results (`find` looks a result up by key): the same
/// report a run here ([`crate::local`]) gives for the same config.
pub fn assemble<'a>(
    config: &Config,
    dataset: &Dataset,
    other: Option<&Dataset>,
    find: impl Fn(&str) -> Option<&'a JobResult>,
) -> Result<Report, AssembleError> {
    let jobs = jobs_of(config);
    let missing: Vec<Job> = jobs.iter().filter(|j| find(&j.key()).is_none()).cloned().collect();
    if !missing.is_empty() {
        return Err(AssembleError::Missing(missing));
    }
    let data = ExperimentData::build(config, dataset, other).map_err(AssembleError::Data)?;
    let keep = shadow_keep(config, data.pool.labels.len());
    let variants = config.variants();
    let mut runs = Vec::new();
    let mut backend = String::new();
    for (v, _) in variants.iter().enumerate() {
        let target = find(&Job { config: config.clone(), role: Role::Target { variant: v } }.key())
            .expect("checked");
        backend.clone_from(&target.backend);
        let JobOutput::Target { run, .. } = &target.output else {
            return Err(AssembleError::NotATarget { key: target.key.clone() });
        };
        let mut run = run.clone();
        let shadow_phi: Vec<Option<Vec<f64>>> = if run.error.is_none() && config.shadow_models >= 2
        {
            (0..config.shadow_models)
                .map(|k| {
                    let r = find(
                        &Job { config: config.clone(), role: Role::Shadow { variant: v, k } }.key(),
                    )
                    .expect("checked");
                    match &r.output {
                        JobOutput::Shadow { phi } => phi.clone(),
                        JobOutput::Target { .. } => None,
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        match attack_of(config, &data, &keep, &target.output, &shadow_phi) {
            Some(Ok(a)) => run.attack = Some(a),
            Some(Err(e)) => run.attack_error = Some(e),
            None => {}
        }
        runs.push(run);
    }
    Ok(Report { config: config.clone(), backend, runs })
}
