//! The whole experiment, steppable: the target models (BN and no-BN side by side, one step each in
//! turn), then the shadow models for LiRA, then the attacks. [`Experiment::advance`] does one unit of
//! work and returns, so that a browser can yield and draw between units; [`crate::driver`] drives it
//! to the end for every front end.

use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use crate::attack;
use crate::data::Dataset;
use crate::data::transforms::SampleKind;
use crate::experiment_data::{BuildError, DeviceData, ExperimentData};
use crate::report::{AttackReport, CanaryScore, Exposed, GroupMean, ModelRun, Report, RunError};
use crate::train::{TrainError, Trainer, read_logits};
use crate::{Config, Variant};

/// The most-exposed members listed per model.
pub const EXPOSED_SHOWN: usize = 16;

/// ROC points kept per curve in the report.
pub const ROC_POINTS: usize = 200;

/// What the experiment is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Targets,
    Shadows,
    Attack,
    Done,
}

/// Progress after one unit of work.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub phase: Phase,
    pub steps_done: usize,
    pub steps_total: usize,
    /// Which model the unit was for.
    pub variant: Option<Variant>,
    /// The epoch, 1-based, and the step within it.
    pub epoch: usize,
    pub step: usize,
    /// Set when the unit finished an epoch of a target model.
    pub epoch_finished: bool,
    /// Set when the unit added to the report (an epoch's record or a live read-out).
    pub measured: bool,
    /// Shadow model index (1-based) while training shadows.
    pub shadow: usize,
}

impl Progress {
    /// What the unit was, in words ("training BN: epoch 2, step 14").
    pub fn describe(&self) -> String {
        let model = self.variant.map_or("", Variant::label);
        match self.phase {
            Phase::Targets => format!("training {model}: epoch {}, step {}", self.epoch, self.step),
            Phase::Shadows => format!("training shadow model {} for {model}", self.shadow),
            Phase::Attack => "running the membership attacks".into(),
            Phase::Done => "done".into(),
        }
    }
}

struct ShadowState {
    keep: Vec<Vec<bool>>,
    /// Per variant, per shadow model: φ of every candidate (`None` if that shadow diverged).
    phi: Vec<Vec<Option<Vec<f64>>>>,
    /// Training steps of each shadow model (one variant).
    steps: Vec<usize>,
    variant: usize,
    k: usize,
    current: Option<Trainer>,
}

/// An experiment in progress.
pub struct Experiment {
    config: Config,
    backend: String,
    data: ExperimentData,
    device_data: DeviceData,
    variants: Vec<Variant>,
    targets: Vec<Trainer>,
    runs: Vec<ModelRun>,
    turn: usize,
    shadows: ShadowState,
    phase: Phase,
    steps_done: usize,
    /// Models attacked so far (in the attack phase).
    attacked: usize,
}

/// The seed of shadow model `k` of model variant `variant`.
pub fn shadow_seed(seed: u64, variant: usize, k: usize) -> u64 {
    seed ^ (0x5eed_0000 + (variant as u64) * 1000 + k as u64 + 1)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Which candidates each shadow model trains on (none when the attack is off).
pub fn shadow_keep(config: &Config, candidates: usize) -> Vec<Vec<bool>> {
    let k = if config.shadow_models >= 2 { config.shadow_models } else { 0 };
    attack::shadow_membership(candidates, k, config.seed)
}

/// The trainer of shadow model `k` of the experiment's variant number `variant` (`of`).
pub fn shadow_trainer(
    config: &Config,
    of: Variant,
    variant: usize,
    k: usize,
    keep: &[bool],
    data: &ExperimentData,
    device_data: &DeviceData,
) -> Trainer {
    let idx: Vec<usize> = (0..keep.len()).filter(|&i| keep[i]).collect();
    Trainer::new(config, of, data, device_data, idx, shadow_seed(config.seed, variant, k))
}

/// The attack scores (loss, confidence, φ) of a model on every candidate of the pool.
pub async fn pool_scores(
    model: &crate::model::LeNet,
    data: &ExperimentData,
    device_data: &DeviceData,
) -> Result<attack::Scores, TrainError> {
    let valid = burn::module::Module::valid(model);
    let all: Vec<usize> = (0..data.pool.labels.len()).collect();
    let z = read_logits(&valid, &device_data.images, &all, &device_data.device).await?;
    Ok(attack::scores(&z, usize::from(data.classes), &data.pool.labels))
}

/// One model's attack report, from its scores on the pool and the φ of its shadow models
/// (`shadow_phi[k]`, `None` for a shadow that diverged; `keep[k]` its members). The app's
/// [`Experiment`] and the CLI's sharded jobs (`jobs.rs`) both end here.
pub fn attack_report(
    config: &Config,
    data: &ExperimentData,
    target: &attack::Scores,
    keep: &[Vec<bool>],
    shadow_phi: &[Option<Vec<f64>>],
) -> Result<AttackReport, String> {
    let n = data.pool.labels.len();
    let mut phi_in = vec![Vec::new(); n];
    let mut phi_out = vec![Vec::new(); n];
    for (k, phi) in shadow_phi.iter().enumerate() {
        let Some(phi) = phi else { continue };
        for (i, &v) in phi.iter().enumerate() {
            if keep[k][i] { phi_in[i].push(v) } else { phi_out[i].push(v) }
        }
    }
    let split = |scores: &[f64], keep_i: &dyn Fn(usize) -> bool| -> (Vec<f64>, Vec<f64>) {
        let m = (0..n).filter(|&i| keep_i(i) && data.is_member[i]).map(|i| scores[i]).collect();
        let o = (0..n).filter(|&i| keep_i(i) && !data.is_member[i]).map(|i| scores[i]).collect();
        (m, o)
    };
    let every = |_: usize| true;
    let neg_loss: Vec<f64> = target.loss.iter().map(|l| -l).collect();
    let (m, o) = split(&neg_loss, &every);
    let mut loss = attack::roc(&m, &o).map_err(|e| e.to_string())?;
    let (online, offline) = attack::lira(&target.phi, &phi_in, &phi_out, config.shadow_models)
        .map_err(|e| e.to_string())?;
    let (m, o) = split(&online, &every);
    let mut lira_online = attack::roc(&m, &o).map_err(|e| e.to_string())?;
    let (m, o) = split(&offline, &every);
    let mut lira_offline = attack::roc(&m, &o).map_err(|e| e.to_string())?;
    let (m, o) = split(&online, &|i| data.kind(i).is_noisy());
    let mut lira_noisy = attack::roc(&m, &o).ok();
    for r in [&mut loss, &mut lira_online, &mut lira_offline].into_iter().chain(lira_noisy.as_mut())
    {
        r.points = r.downsampled(ROC_POINTS);
    }
    let mut group_means = Vec::new();
    for kind in [SampleKind::Clean, SampleKind::Flipped, SampleKind::Ood] {
        for member in [true, false] {
            let vals: Vec<f64> = (0..n)
                .filter(|&i| data.kind(i) == kind && data.is_member[i] == member)
                .map(|i| online[i])
                .collect();
            let mean_score =
                (!vals.is_empty()).then(|| vals.iter().sum::<f64>() / vals.len() as f64);
            group_means.push(GroupMean { kind, member, count: vals.len(), mean_score });
        }
    }
    let mut members: Vec<usize> = (0..n).filter(|&i| data.is_member[i]).collect();
    members.sort_by(|&a, &b| online[b].total_cmp(&online[a]));
    let px = data.rows * data.cols;
    let exposed = members
        .iter()
        .take(EXPOSED_SHOWN)
        .map(|&i| Exposed {
            source_index: data.source_index[i],
            kind: data.kind(i),
            label: data.pool.labels[i],
            true_label: matches!(data.kind(i), SampleKind::Clean | SampleKind::Flipped)
                .then_some(data.pool.true_labels[i]),
            score: online[i],
            pixels: data.pool.images[i * px..(i + 1) * px].to_vec(),
        })
        .collect();
    let canary = data.canary.map(|c| {
        let confidences = |keep: &dyn Fn(usize) -> bool| -> Vec<f64> {
            let mut v: Vec<f64> = (0..n)
                .filter(|&i| keep(i))
                .map(|i| crate::canary::member_confidence(online[i]))
                .collect();
            v.sort_by(f64::total_cmp);
            v
        };
        let middle = |v: &[f64]| if v.is_empty() { f64::NAN } else { v[v.len() / 2] };
        CanaryScore {
            score: online[c],
            confidence: crate::canary::member_confidence(online[c]),
            rank: 1 + online.iter().filter(|&&s| s > online[c]).count(),
            candidates: n,
            median_clean_member: middle(&confidences(&|i| {
                data.is_member[i] && data.kind(i) == SampleKind::Clean
            })),
            median_non_member: middle(&confidences(&|i| !data.is_member[i])),
            above_non_members: {
                let non: Vec<f64> =
                    (0..n).filter(|&i| !data.is_member[i]).map(|i| online[i]).collect();
                (!non.is_empty()).then(|| {
                    non.iter().filter(|&&s| s < online[c]).count() as f64 / non.len() as f64
                })
            },
            // Its place in the same sorted list the gallery shows (ties as the gallery has them).
            member_rank: members.iter().position(|&i| i == c).map(|p| p + 1),
        }
    });
    Ok(AttackReport {
        shadow_models: config.shadow_models,
        members: members.len(),
        non_members: n - members.len(),
        loss,
        lira_online,
        lira_offline,
        lira_noisy,
        group_means,
        exposed,
        canary,
    })
}

impl Experiment {
    /// Prepares the data on `device` and the target models. `backend` names the backend in the report.
    pub fn new(
        config: &Config,
        dataset: &Dataset,
        other: Option<&Dataset>,
        device: &Device,
        backend: &str,
    ) -> Result<Self, BuildError> {
        let data = ExperimentData::build(config, dataset, other)?;
        let device_data = DeviceData::new(&data, device);
        let variants = config.variants();
        let members = data.members();
        let targets: Vec<Trainer> = variants
            .iter()
            .map(|&v| Trainer::new(config, v, &data, &device_data, members.clone(), config.seed))
            .collect();
        let runs = variants.iter().map(|&v| ModelRun::new(v)).collect();
        let keep = shadow_keep(config, data.pool.labels.len());
        let steps = keep
            .iter()
            .map(|kk| {
                (kk.iter().filter(|&&x| x).count() / config.batch_size).max(1) * config.epochs
            })
            .collect();
        let shadows = ShadowState {
            keep,
            steps,
            phi: vec![Vec::new(); variants.len()],
            variant: 0,
            k: 0,
            current: None,
        };
        Ok(Self {
            config: config.clone(),
            backend: backend.to_string(),
            data,
            device_data,
            variants,
            targets,
            runs,
            turn: 0,
            shadows,
            phase: Phase::Targets,
            steps_done: 0,
            attacked: 0,
        })
    }

    /// The experiment's data (for galleries and tools).
    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn data(&self) -> &ExperimentData {
        &self.data
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn finished(&self) -> bool {
        self.phase == Phase::Done
    }

    /// Total training steps, targets and shadows.
    pub fn steps_total(&self) -> usize {
        let targets: usize = self.targets.iter().map(Trainer::total_steps).sum();
        targets + self.variants.len() * self.shadows.steps.iter().sum::<usize>()
    }

    /// The report of what has been measured so far (complete once [`finished`](Self::finished)).
    pub fn report(&self) -> Report {
        Report {
            config: self.config.clone(),
            backend: self.backend.clone(),
            runs: self.runs.clone(),
        }
    }

    fn progress(
        &self,
        variant: Option<Variant>,
        epoch: usize,
        step: usize,
        epoch_finished: bool,
    ) -> Progress {
        Progress {
            phase: self.phase,
            steps_done: self.steps_done,
            steps_total: self.steps_total(),
            variant,
            epoch,
            step,
            epoch_finished,
            measured: epoch_finished,
            shadow: if self.phase == Phase::Shadows { self.shadows.k + 1 } else { 0 },
        }
    }

    /// Does one unit of work: a training step of one model, the measurement of an epoch, or the
    /// attack of one model. A target model whose loss became non-finite stops, with its error in
    /// the report; the other goes on.
    pub async fn advance(&mut self) -> Progress {
        match self.phase {
            Phase::Targets => self.advance_targets().await,
            Phase::Shadows => self.advance_shadows().await,
            Phase::Attack => {
                // One model's attack per unit of work.
                let v = self.attacked;
                self.attacked += 1;
                if self.config.shadow_models > 0
                    && v < self.variants.len()
                    && self.runs[v].error.is_none()
                {
                    match self.attack_one(v).await {
                        Ok(a) => self.runs[v].attack = Some(a),
                        Err(e) => self.runs[v].attack_error = Some(e),
                    }
                }
                if self.attacked >= self.variants.len() {
                    self.phase = Phase::Done;
                }
                self.progress(self.variants.get(v).copied(), 0, 0, false)
            }
            Phase::Done => self.progress(None, 0, 0, false),
        }
    }

    async fn advance_targets(&mut self) -> Progress {
        // First, one unit each: the untrained models (epoch 0).
        if let Some(i) = (0..self.targets.len())
            .find(|&i| self.targets[i].initial().is_none() && self.runs[i].error.is_none())
        {
            let of = self.variants[i];
            match self.targets[i].start_target(&self.data).await {
                Ok(readout) => self.runs[i].record(readout),
                Err(e) => self.fail(i, e.into()),
            }
            return self.progress(Some(of), 0, 0, true);
        }
        let live: Vec<usize> = (0..self.targets.len())
            .filter(|&i| self.runs[i].error.is_none() && !self.targets[i].finished())
            .collect();
        if live.is_empty() {
            self.phase =
                if self.config.shadow_models >= 2 && self.runs.iter().any(|r| r.error.is_none()) {
                    Phase::Shadows
                } else {
                    Phase::Attack
                };
            return self.progress(None, 0, 0, false);
        }
        let i = live[self.turn % live.len()];
        self.turn += 1;
        let of = self.variants[i];
        let t = &mut self.targets[i];
        match t.target_step(&self.data).await {
            Ok((info, readout)) => {
                self.steps_done += 1;
                let measured = readout != Default::default();
                self.runs[i].record(readout);
                Progress {
                    measured,
                    ..self.progress(Some(of), info.epoch, info.step, info.epoch_done)
                }
            }
            Err(e) => {
                self.fail(i, e.into());
                self.progress(Some(of), 0, 0, false)
            }
        }
    }

    fn fail(&mut self, i: usize, error: RunError) {
        // The steps this model will not take no longer count.
        let t = &self.targets[i];
        self.steps_done += t.total_steps() - t.steps_done();
        self.runs[i].error = Some(error);
    }

    async fn advance_shadows(&mut self) -> Progress {
        let s = &mut self.shadows;
        if s.variant >= self.variants.len() {
            self.phase = Phase::Attack;
            return self.progress(None, 0, 0, false);
        }
        if self.runs[s.variant].error.is_some() {
            // No attack on a model that failed: skip its shadows.
            s.variant += 1;
            s.k = 0;
            self.steps_done += s.steps.iter().sum::<usize>();
            return self.progress(None, 0, 0, false);
        }
        let of = self.variants[s.variant];
        if s.current.is_none() {
            s.current = Some(shadow_trainer(
                &self.config,
                of,
                s.variant,
                s.k,
                &s.keep[s.k],
                &self.data,
                &self.device_data,
            ));
        }
        let t = s.current.as_mut().expect("just set");
        let result = match t.step().await {
            Ok(info) if info.epoch_done => t.end_epoch_unmeasured().await.map(|_| info),
            other => other,
        };
        self.steps_done += 1;
        let (epoch, step) = result.as_ref().map(|i| (i.epoch, i.step)).unwrap_or((0, 0));
        let done = match &result {
            Ok(_) => t.finished(),
            Err(_) => true, // a diverged shadow contributes nothing; move on
        };
        if done {
            let t = s.current.take().expect("present");
            self.steps_done += t.total_steps() - t.steps_done();
            let phi = match result {
                Ok(_) => pool_scores(t.model(), &self.data, &self.device_data)
                    .await
                    .ok()
                    .map(|sc| sc.phi),
                Err(_) => None,
            };
            self.shadows.phi[self.shadows.variant].push(phi);
            let s = &mut self.shadows;
            s.k += 1;
            if s.k >= self.config.shadow_models {
                s.k = 0;
                s.variant += 1;
            }
        }
        self.progress(Some(of), epoch, step, false)
    }

    async fn attack_one(&self, v: usize) -> Result<AttackReport, RunError> {
        let target = pool_scores(self.targets[v].model(), &self.data, &self.device_data).await?;
        attack_report(&self.config, &self.data, &target, &self.shadows.keep, &self.shadows.phi[v])
            .map_err(RunError::Other)
    }
}
