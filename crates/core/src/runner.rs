//! The whole experiment, steppable: the target models (BN and no-BN side by side, one step each in
//! turn), then the shadow models for LiRA, then the attacks. [`Experiment::advance`] does one unit of
//! work and returns, so that a browser can yield and draw between units; [`run`] drives it to the end.

use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use crate::Config;
use crate::attack::{self, Roc};
use crate::data::Dataset;
use crate::data::transforms::SampleKind;
use crate::experiment::{DeviceData, ExperimentData};
use crate::report::{ModelRun, Report};
use crate::train::{Trainer, read_logits};

/// The most-exposed members listed per model.
pub const EXPOSED_SHOWN: usize = 16;

/// ROC points kept per curve in the report.
pub const ROC_POINTS: usize = 200;

/// One model's membership-inference results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AttackReport {
    /// Shadow models per model variant.
    pub shadow_models: usize,
    pub members: usize,
    pub non_members: usize,
    /// Loss threshold: score = −loss.
    pub loss: Roc,
    pub lira_online: Roc,
    pub lira_offline: Roc,
    /// Mean LiRA (online) score by kind, of members and of non-members.
    pub group_means: Vec<GroupMean>,
    /// The members LiRA is most sure of, most sure first.
    pub exposed: Vec<Exposed>,
}

/// Mean attack score of one group.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GroupMean {
    pub kind: SampleKind,
    pub member: bool,
    pub count: usize,
    pub mean_score: Option<f64>,
}

/// A sample the attack exposes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Exposed {
    /// Index in the dataset's train split.
    pub source_index: usize,
    pub kind: SampleKind,
    /// The label it was trained with.
    pub label: u8,
    /// The dataset's label.
    pub true_label: u8,
    pub score: f64,
    /// The (possibly OOD) training image, row-major u8.
    pub pixels: Vec<u8>,
}

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
    /// Which model the unit was for (true = BN).
    pub batch_norm: Option<bool>,
    /// The epoch, 1-based, and the step within it.
    pub epoch: usize,
    pub step: usize,
    /// Set when the unit finished an epoch of a target model.
    pub epoch_finished: bool,
    /// Shadow model index (1-based) while training shadows.
    pub shadow: usize,
}

impl Progress {
    /// What the unit was, in words ("training BN: epoch 2, step 14").
    pub fn describe(&self) -> String {
        let model = match self.batch_norm {
            Some(true) => "BN",
            Some(false) => "no-BN",
            None => "",
        };
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
    /// Per variant: per candidate, φ of the shadows it was IN / OUT for.
    phi_in: Vec<Vec<Vec<f64>>>,
    phi_out: Vec<Vec<Vec<f64>>>,
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
    variants: Vec<bool>,
    targets: Vec<Trainer>,
    runs: Vec<ModelRun>,
    turn: usize,
    shadows: ShadowState,
    phase: Phase,
    steps_done: usize,
    /// Models attacked so far (in the attack phase).
    attacked: usize,
}

fn shadow_seed(seed: u64, variant: usize, k: usize) -> u64 {
    seed ^ (0x5eed_0000 + (variant as u64) * 1000 + k as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

impl Experiment {
    /// Prepares the data on `device` and the target models. `backend` names the backend in the report.
    pub fn new(config: &Config, dataset: &Dataset, other: Option<&Dataset>, device: &Device, backend: &str) -> Result<Self, String> {
        let data = ExperimentData::build(config, dataset, other)?;
        let device_data = DeviceData::new(&data, device);
        let variants = config.variants();
        let members = data.members();
        let targets: Vec<Trainer> =
            variants.iter().map(|&bn| Trainer::new(config, bn, &data, &device_data, members.clone(), config.seed)).collect();
        let runs = variants.iter().map(|&bn| ModelRun { batch_norm: bn, epochs: Vec::new(), error: None, attack: None, attack_error: None }).collect();
        let pool = data.pool.labels.len();
        let k = if config.shadow_models >= 2 { config.shadow_models } else { 0 };
        let keep = attack::shadow_membership(pool, k, config.seed);
        let steps = keep
            .iter()
            .map(|kk| (kk.iter().filter(|&&x| x).count() / config.batch_size).max(1) * config.epochs)
            .collect();
        let shadows = ShadowState {
            keep,
            steps,
            phi_in: vec![vec![Vec::new(); pool]; variants.len()],
            phi_out: vec![vec![Vec::new(); pool]; variants.len()],
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
        Report { config: self.config.clone(), backend: self.backend.clone(), runs: self.runs.clone() }
    }

    fn progress(&self, batch_norm: Option<bool>, epoch: usize, step: usize, epoch_finished: bool) -> Progress {
        Progress {
            phase: self.phase,
            steps_done: self.steps_done,
            steps_total: self.steps_total(),
            batch_norm,
            epoch,
            step,
            epoch_finished,
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
                if self.config.shadow_models > 0 && v < self.variants.len() && self.runs[v].error.is_none() {
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
        let live: Vec<usize> =
            (0..self.targets.len()).filter(|&i| self.runs[i].error.is_none() && !self.targets[i].finished()).collect();
        if live.is_empty() {
            self.phase = if self.config.shadow_models >= 2 && self.runs.iter().any(|r| r.error.is_none()) {
                Phase::Shadows
            } else {
                Phase::Attack
            };
            return self.progress(None, 0, 0, false);
        }
        let i = live[self.turn % live.len()];
        self.turn += 1;
        let bn = self.variants[i];
        let t = &mut self.targets[i];
        match t.step().await {
            Ok(info) => {
                self.steps_done += 1;
                if info.epoch_done {
                    match t.end_epoch(&self.data).await {
                        Ok(rec) => self.runs[i].epochs.push(rec),
                        Err(e) => self.fail(i, e.to_string()),
                    }
                }
                self.progress(Some(bn), info.epoch, info.step, info.epoch_done)
            }
            Err(e) => {
                self.fail(i, e.to_string());
                self.progress(Some(bn), 0, 0, false)
            }
        }
    }

    fn fail(&mut self, i: usize, message: String) {
        // The steps this model will not take no longer count.
        let t = &self.targets[i];
        self.steps_done += t.total_steps() - t.steps_done();
        self.runs[i].error = Some(message);
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
        let bn = self.variants[s.variant];
        if s.current.is_none() {
            let idx: Vec<usize> = (0..s.keep[s.k].len()).filter(|&i| s.keep[s.k][i]).collect();
            let seed = shadow_seed(self.config.seed, s.variant, s.k);
            s.current = Some(Trainer::new(&self.config, bn, &self.data, &self.device_data, idx, seed));
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
            if result.is_ok() {
                let all: Vec<usize> = (0..self.data.pool.labels.len()).collect();
                if let Ok(phi) = self.phi_of(t.model(), &all).await {
                    let s = &mut self.shadows;
                    for (i, v) in phi.into_iter().enumerate() {
                        if s.keep[s.k][i] { s.phi_in[s.variant][i].push(v) } else { s.phi_out[s.variant][i].push(v) }
                    }
                }
            }
            let s = &mut self.shadows;
            s.k += 1;
            if s.k >= self.config.shadow_models {
                s.k = 0;
                s.variant += 1;
            }
        }
        self.progress(Some(bn), epoch, step, false)
    }

    async fn phi_of(&self, model: &crate::model::LeNet, idx: &[usize]) -> Result<Vec<f64>, String> {
        Ok(self.scores_of(model, idx).await?.phi)
    }

    async fn scores_of(&self, model: &crate::model::LeNet, idx: &[usize]) -> Result<attack::Scores, String> {
        let valid = burn::module::Module::valid(model);
        let z = read_logits(&valid, &self.device_data.images, idx, &self.device_data.device).await.map_err(|e| e.to_string())?;
        let labels: Vec<u8> = idx.iter().map(|&i| self.data.pool.labels[i]).collect();
        Ok(attack::scores(&z, usize::from(self.data.classes), &labels))
    }

    async fn attack_one(&self, v: usize) -> Result<AttackReport, String> {
        let n = self.data.pool.labels.len();
        let all: Vec<usize> = (0..n).collect();
        let s = self.scores_of(self.targets[v].model(), &all).await?;
        let split = |scores: &[f64]| -> (Vec<f64>, Vec<f64>) {
            let m = (0..n).filter(|&i| self.data.is_member[i]).map(|i| scores[i]).collect();
            let o = (0..n).filter(|&i| !self.data.is_member[i]).map(|i| scores[i]).collect();
            (m, o)
        };
        let neg_loss: Vec<f64> = s.loss.iter().map(|l| -l).collect();
        let (m, o) = split(&neg_loss);
        let mut loss = attack::roc(&m, &o).map_err(|e| e.to_string())?;
        let (online, offline) =
            attack::lira(&s.phi, &self.shadows.phi_in[v], &self.shadows.phi_out[v], self.config.shadow_models)
                .map_err(|e| e.to_string())?;
        let (m, o) = split(&online);
        let mut lira_online = attack::roc(&m, &o).map_err(|e| e.to_string())?;
        let (m, o) = split(&offline);
        let mut lira_offline = attack::roc(&m, &o).map_err(|e| e.to_string())?;
        for r in [&mut loss, &mut lira_online, &mut lira_offline] {
            r.points = r.downsampled(ROC_POINTS);
        }
        let mut group_means = Vec::new();
        for kind in [SampleKind::Clean, SampleKind::Flipped, SampleKind::Ood] {
            for member in [true, false] {
                let vals: Vec<f64> = (0..n)
                    .filter(|&i| self.data.kind(i) == kind && self.data.is_member[i] == member)
                    .map(|i| online[i])
                    .collect();
                let mean_score = (!vals.is_empty()).then(|| vals.iter().sum::<f64>() / vals.len() as f64);
                group_means.push(GroupMean { kind, member, count: vals.len(), mean_score });
            }
        }
        let mut members: Vec<usize> = (0..n).filter(|&i| self.data.is_member[i]).collect();
        members.sort_by(|&a, &b| online[b].total_cmp(&online[a]));
        let px = self.data.rows * self.data.cols;
        let exposed = members
            .iter()
            .take(EXPOSED_SHOWN)
            .map(|&i| Exposed {
                source_index: self.data.source_index[i],
                kind: self.data.kind(i),
                label: self.data.pool.labels[i],
                true_label: self.data.pool.true_labels[i],
                score: online[i],
                pixels: self.data.pool.images[i * px..(i + 1) * px].to_vec(),
            })
            .collect();
        Ok(AttackReport {
            shadow_models: self.config.shadow_models,
            members: members.len(),
            non_members: n - members.len(),
            loss,
            lira_online,
            lira_offline,
            group_means,
            exposed,
        })
    }
}

/// Runs an experiment to the end, calling `on_progress` after every unit of work.
pub async fn run(
    config: &Config,
    dataset: &Dataset,
    other: Option<&Dataset>,
    device: &Device,
    backend: &str,
    mut on_progress: impl FnMut(&Progress),
) -> Result<Report, String> {
    let mut e = Experiment::new(config, dataset, other, device, backend)?;
    while !e.finished() {
        let p = e.advance().await;
        on_progress(&p);
    }
    Ok(e.report())
}
