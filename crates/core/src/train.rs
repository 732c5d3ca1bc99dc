//! The training loop, one batch at a time, so that a browser can yield between steps and show
//! progress. burn's `Learner` does not build for wasm32; this loop is the paper's plain recipe.
//!
//! * An epoch is a seeded shuffle of the member samples, cut into `batch_size` batches; the last,
//!   incomplete batch is dropped (BN's batch statistics on a handful of samples are noise).
//! * Each [`Trainer::step`] runs forward (BN on batch statistics), the mean cross-entropy
//!   (+ λ·penalty for BN models with a penalty regularizer), backward and one optimizer step (then,
//!   with the `project` regularizer, the clip |γ| ≤ τσ). It reads nothing back from the device
//!   except every [`CHECK_EVERY`] steps, when the loss sum is checked for NaN/inf.
//! * [`Trainer::measure_start`] measures the untrained model (epoch 0) and [`Trainer::end_epoch`]
//!   each epoch: accuracies per sample kind (BN on running statistics), test accuracy, γ/σ per
//!   layer, and the mechanism's measures on the probe sets. A target model runs through
//!   [`Trainer::start_target`] and [`Trainer::target_step`], which add the live read-outs
//!   ([`LIVE_SAMPLE`]: the curves that move within an epoch).
//!
//! **Each probe inside a training batch.** With BN a sample's gradient depends on the batch it is
//! in, so "the gradient of one sample" needs a batch. Per-sample-gradient tools refuse BN for this
//! reason (Opacus rejects it; PyTorch's `torch.func` guide says to replace it by GroupNorm or to
//! drop running statistics), and a batch of one — or BN on running statistics — removes exactly the
//! batch-statistics path the paper's (γ/σ)² mechanism is about. A probe sample therefore joins a
//! fixed context of `batch_size − 1` clean members (drawn once per trainer, no probe among them),
//! and BN normalizes the whole batch with its batch statistics (running statistics are *not*
//! updated: [`Mode::Probe`]). What is read of each probe (`report::Mechanism`):
//!
//! * **Self-influence of one step** (the paper's quantity, comparable across architectures): from
//!   the current weights, one step on the batch (context + probe, mean cross-entropy) and the
//!   probe's margin (logit of its label minus the largest other, in that batch) after it; then the
//!   same from the same weights with the probe swapped for a fixed clean member; the difference of
//!   the two margins, divided by the learning rate. Twice: a plain SGD step (to first order
//!   −η·∇m·∇L, the theorem's setting) and a copy of the run's optimizer in its current state
//!   (Adam's moments, SGD's momentum): the step the run really takes. The trainer's own model and
//!   optimizer are untouched.
//! * **Its own loss's gradient**, ∇_θ ℓ(x_probe, y_probe) with the gradient flowing through μ_B and
//!   σ_B (without BN — no normalization, GroupNorm, LayerNorm — the context cannot change it, so
//!   the probe runs alone): the raw norm over
//!   every parameter (`grad_norms`; a BN model's and a no-BN model's cannot be compared — the
//!   weights before a BN get gradients ∝ 1/‖W‖), the scale-free norm per unit of error
//!   √Σ_l (‖W_l‖·‖∇W_l‖)² / ‖softmax(z) − e_y‖ (compared within a model, by rank), and per BN layer
//!   the push on |γ|, −Σ_c sign(γ_c)·∂ℓ/∂γ_c.
//!
//! It is measured before training (epoch 0) and after every epoch, on the same probe samples: up to
//! `probe_size` clean and up to `probe_size` noisy (flipped or OOD) members, drawn once per trainer
//! from the seed. Every device read-back is async (`into_data_async`), and there is one per probe
//! set, so the same code runs in a browser.
//!
//! **γ/σ with the batch σ** is measured the same way: the context batch, forward in
//! [`Mode::Probe`], |γ_c|/σ_c per channel, reported as the mean, the median and the fraction of
//! channels above 1, before training and after each epoch (with the running σ too).

use burn::module::{Module, ModuleVisitor, Param};
use burn::optim::{
    AdamConfig, GradientsParams, ModuleOptimizer, SgdConfig, momentum::MomentumConfig,
};
use burn::tensor::{Device, Int, Tensor};

use crate::config::{Config, OptimizerName, RegKind, Variant};
use crate::data::Rng;
use crate::data::transforms::SampleKind;
use crate::experiment_data::{DeviceData, ExperimentData, index_tensor};
use crate::model::{BN_LAYERS, LeNet, LeNetConfig, Mode, cross_entropy, per_sample_loss};
pub use crate::report::TrainError;
use crate::report::{
    CanaryPoint, EpochRecord, GradNorms, LayerGammaSigma, LivePoint, Mechanism, ProbeValues,
    Readout,
};

/// The loss is read back and checked for NaN/inf every this many steps (and at each epoch's end).
pub const CHECK_EVERY: usize = 16;

/// The most noisy members, clean members and non-members a live read-out looks at, each
/// ([`crate::report::LivePoint`]): one read-out is one forward pass of at most 3 × this many
/// samples, a fraction of a training step's cost.
pub const LIVE_SAMPLE: usize = 64;

/// Samples per forward pass when evaluating: small enough that one chunk on a CPU backend in a
/// browser holds the page for well under 100 ms; the host may breathe between chunks.
const EVAL_CHUNK: usize = 256;

/// Reads a float tensor back, asynchronously.
pub async fn read_f32<const D: usize>(t: Tensor<D>) -> Result<Vec<f32>, TrainError> {
    let data = t.into_data_async().await.map_err(|e| TrainError::Backend(format!("{e:?}")))?;
    data.convert::<f32>().try_into_vec::<f32>().map_err(|e| TrainError::Backend(format!("{e:?}")))
}

/// Reads an int tensor back, asynchronously.
pub async fn read_i64<const D: usize>(t: Tensor<D, Int>) -> Result<Vec<i64>, TrainError> {
    let data = t.into_data_async().await.map_err(|e| TrainError::Backend(format!("{e:?}")))?;
    data.convert::<i64>().try_into_vec::<i64>().map_err(|e| TrainError::Backend(format!("{e:?}")))
}

/// Where a step left the trainer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepInfo {
    /// 1-based epoch the step belonged to.
    pub epoch: usize,
    /// 1-based step within the epoch.
    pub step: usize,
    pub steps_per_epoch: usize,
    /// The epoch's last step: call [`Trainer::end_epoch`] next.
    pub epoch_done: bool,
}

/// The optimizer `config` names: Adam (burn's defaults), or SGD with momentum 0.9.
pub(crate) fn optimizer(config: &Config) -> ModuleOptimizer {
    match config.optimizer {
        OptimizerName::Adam => AdamConfig::new().init(),
        OptimizerName::Sgd => {
            SgdConfig::new().with_momentum(Some(MomentumConfig::new().with_momentum(0.9))).init()
        }
    }
}

/// The steps of one epoch of a model of `members` members at `batch`: the incomplete last batch
/// dropped, at least one.
pub(crate) fn steps_per_epoch(members: usize, batch: usize) -> usize {
    (members / batch.max(1)).max(1)
}

/// One model in training.
pub struct Trainer {
    config: Config,
    variant: Variant,
    model: Option<LeNet>,
    optim: ModuleOptimizer,
    data: DeviceData,
    train_idx: Vec<usize>,
    rng: Rng,
    order: Vec<usize>,
    step: usize,
    epoch: usize,
    loss_sum: Option<Tensor<1>>,
    penalty_sum: Option<Tensor<1>>,
    gamma_sigma_sum: Vec<Tensor<1>>,
    probe_clean: Vec<usize>,
    probe_noisy: Vec<usize>,
    /// Clean members a probe sample joins to form a batch; also the γ/σ measurement batch.
    context: Vec<usize>,
    /// A clean member outside the context and the probes: the one a probe is swapped for when its
    /// self-influence is measured (`None` if the members run out).
    swap: Option<usize>,
    /// The epoch-0 measurement (before any step), once taken.
    initial: Option<EpochRecord>,
    records: Vec<EpochRecord>,
    /// Per measured epoch (0 first), each member's (loss, margin) in `train_idx`'s order; kept only
    /// when it fits [`crate::jobs::TRACE_MAX`] (`keep_trace`).
    trace: Vec<Vec<[f32; 2]>>,
    keep_trace: bool,
    /// The fixed sample of the live read-outs (target models, once started).
    live: Option<LiveSet>,
    /// The seed the trainer was made with (the live sample is drawn from it).
    seed: u64,
}

/// The pool samples a live read-out looks at, with the weight of each member group in the loss
/// attack's AUC: how many members a sampled one stands for.
struct LiveSet {
    noisy: Vec<usize>,
    clean: Vec<usize>,
    non_members: Vec<usize>,
    noisy_weight: f64,
    clean_weight: f64,
}

impl LiveSet {
    /// Up to [`LIVE_SAMPLE`] of the noisy and of the clean `members`, and of the pool's other
    /// samples, drawn from `seed` (the same for the models compared side by side).
    fn draw(data: &ExperimentData, members: &[usize], seed: u64) -> Self {
        let mut rng = Rng::derive(seed, "live");
        let mut pick = |pool: Vec<usize>| -> (Vec<usize>, f64) {
            let k = LIVE_SAMPLE.min(pool.len());
            let weight = pool.len() as f64 / k.max(1) as f64;
            let mut p: Vec<usize> =
                rng.sample_indices(pool.len(), k).into_iter().map(|j| pool[j]).collect();
            p.sort_unstable();
            (p, weight)
        };
        let (noisy, noisy_weight) =
            pick(members.iter().copied().filter(|&i| data.kind(i).is_noisy()).collect());
        let (clean, clean_weight) =
            pick(members.iter().copied().filter(|&i| data.kind(i) == SampleKind::Clean).collect());
        let mut is_member = vec![false; data.pool.labels.len()];
        for &i in members {
            is_member[i] = true;
        }
        let (non_members, _) = pick((0..is_member.len()).filter(|&i| !is_member[i]).collect());
        Self { noisy, clean, non_members, noisy_weight, clean_weight }
    }
}

impl Trainer {
    /// A trainer for one model (`variant`: BN, BN with the regularizer, no BN, GN or LN) on the pool
    /// samples `train_idx`.
    /// `seed` seeds the initialization and the shuffling; models compared side by side get the same
    /// seed, shadow models their own.
    pub fn new(
        config: &Config,
        variant: Variant,
        data: &ExperimentData,
        device_data: &DeviceData,
        train_idx: Vec<usize>,
        seed: u64,
    ) -> Self {
        let device = device_data.device.clone().autodiff();
        // The model's shape from the data it trains on: the images as uploaded, the dataset's classes.
        let [_, channels, height, width] = device_data.images.dims();
        let model = LeNetConfig::new(channels, height, width, usize::from(data.classes))
            .with_norm(variant.norm())
            .with_groups(config.groups)
            .init(seed, &device);
        let optim = optimizer(config);
        let keep_trace = train_idx.len() * (config.epochs + 1) <= crate::jobs::TRACE_MAX;
        let mut probe_rng = Rng::derive(seed, "probe");
        let pick = |kinds: &dyn Fn(SampleKind) -> bool, rng: &mut Rng| -> Vec<usize> {
            let pool: Vec<usize> =
                train_idx.iter().copied().filter(|&i| kinds(data.kind(i))).collect();
            let k = config.probe_size.min(pool.len());
            let mut p: Vec<usize> =
                rng.sample_indices(pool.len(), k).into_iter().map(|j| pool[j]).collect();
            p.sort_unstable();
            p
        };
        let probe_clean = pick(&|k| k == SampleKind::Clean, &mut probe_rng);
        let probe_noisy = pick(&|k| k.is_noisy(), &mut probe_rng);
        let others: Vec<usize> = train_idx
            .iter()
            .copied()
            .filter(|i| data.kind(*i) == SampleKind::Clean && probe_clean.binary_search(i).is_err())
            .collect();
        let k = config.batch_size.saturating_sub(1).max(1).min(others.len());
        let context: Vec<usize> =
            probe_rng.sample_indices(others.len(), k).into_iter().map(|j| others[j]).collect();
        let spare: Vec<usize> = others.iter().copied().filter(|i| !context.contains(i)).collect();
        let swap = (!spare.is_empty()).then(|| spare[probe_rng.index(spare.len())]);
        Self {
            config: config.clone(),
            variant,
            model: Some(model),
            optim,
            data: device_data.clone(),
            train_idx,
            rng: Rng::derive(seed, "shuffle"),
            order: Vec::new(),
            step: 0,
            epoch: 0,
            loss_sum: None,
            penalty_sum: None,
            gamma_sigma_sum: Vec::new(),
            probe_clean,
            probe_noisy,
            context,
            swap,
            initial: None,
            records: Vec::new(),
            trace: Vec::new(),
            keep_trace,
            live: None,
            seed,
        }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Steps per epoch (incomplete last batches are dropped).
    pub fn steps_per_epoch(&self) -> usize {
        steps_per_epoch(self.train_idx.len(), self.config.batch_size)
    }

    /// Total steps of the whole run.
    pub fn total_steps(&self) -> usize {
        self.steps_per_epoch() * self.config.epochs
    }

    /// Steps taken so far.
    pub fn steps_done(&self) -> usize {
        self.records.len() * self.steps_per_epoch() + self.step
    }

    /// Whether every epoch has been trained and measured.
    pub fn finished(&self) -> bool {
        self.records.len() >= self.config.epochs
    }

    /// The epochs measured so far.
    pub fn records(&self) -> &[EpochRecord] {
        &self.records
    }

    /// The model as it is now.
    pub fn model(&self) -> &LeNet {
        self.model.as_ref().expect("the model is only taken during a step")
    }

    /// One training step on the next batch.
    pub async fn step(&mut self) -> Result<StepInfo, TrainError> {
        let spe = self.steps_per_epoch();
        if self.step == 0 {
            self.epoch = self.records.len() + 1;
            self.order = self.train_idx.clone();
            self.rng.shuffle(&mut self.order);
            self.loss_sum = None;
            self.penalty_sum = None;
            self.gamma_sigma_sum.clear();
        }
        let bs = self.config.batch_size.min(self.order.len());
        let batch = &self.order[self.step * bs..(self.step + 1) * bs];
        let x = self.data.pool_images(batch).autodiff();
        let y = self.data.pool_labels(batch).autodiff();
        let model = self.model.take().expect("model present");
        let reg = self.variant == Variant::BnReg;
        let kind = self.config.reg_kind;
        let out = if reg && matches!(kind, RegKind::Sigma | RegKind::Hinge) {
            model.forward_tracked(x, Mode::Train)
        } else {
            model.forward(x, Mode::Train)
        };
        let (batch_var, tracked_var) = (out.batch_var, out.tracked_var);
        let loss = cross_entropy(out.logits, y);
        let mut total = loss.clone();
        if model.has_norm() {
            let gs = model.gamma_sigma(&model.inv_sigma(&batch_var, &out.group_var));
            if self.gamma_sigma_sum.is_empty() {
                self.gamma_sigma_sum = gs.into_iter().map(|t| t.inner()).collect();
            } else {
                for (acc, t) in self.gamma_sigma_sum.iter_mut().zip(gs) {
                    *acc = acc.clone().add(t.inner());
                }
            }
        }
        if self.variant.batch_norm() {
            if reg
                && kind != RegKind::Project
                && self.config.reg_strength > 0.0
                && let Some(pen) = model.penalty(kind, &batch_var, &tracked_var)
            {
                total = total.add(pen.mul_scalar(self.config.reg_strength));
            }
            // The read-out is the same for every kind: Σ_layers mean_c (γ_c/σ_c)², batch σ.
            if let Some(pen) = model.penalty(RegKind::Gamma, &batch_var, &tracked_var) {
                let pen = pen.detach().inner();
                self.penalty_sum = Some(match self.penalty_sum.take() {
                    Some(s) => s.add(pen),
                    None => pen,
                });
            }
        }
        let grads = GradientsParams::from_grads(total.backward(), &model);
        let mut model = self.optim.step(self.config.learning_rate, model, grads);
        if reg && kind == RegKind::Project {
            model = model.project_gamma(&batch_var, self.config.reg_bound);
        }
        self.model = Some(model);
        let l = loss.detach().inner();
        self.loss_sum = Some(match self.loss_sum.take() {
            Some(s) => s.add(l),
            None => l,
        });
        self.step += 1;
        let info = StepInfo {
            epoch: self.epoch,
            step: self.step,
            steps_per_epoch: spe,
            epoch_done: self.step >= spe,
        };
        if self.step.is_multiple_of(CHECK_EVERY) && !info.epoch_done {
            self.check_loss().await?;
        }
        Ok(info)
    }

    /// Waits until the device has run every step queued so far: reads back the running loss and
    /// one logit of the current weights (which depend on the last optimizer update).
    pub async fn sync(&self) -> Result<(), TrainError> {
        self.check_loss().await?;
        let valid = self.model().valid();
        if let Some(l) = logits_of(
            &valid,
            &self.data.images,
            &self.train_idx[..self.train_idx.len().min(1)],
            &self.data.device,
        ) {
            read_f32(l).await?;
        }
        Ok(())
    }

    async fn check_loss(&self) -> Result<f64, TrainError> {
        let Some(sum) = &self.loss_sum else { return Ok(0.0) };
        let v = f64::from(read_f32(sum.clone()).await?[0]);
        if !v.is_finite() {
            return Err(TrainError::NonFinite { epoch: self.epoch, step: self.step, value: v });
        }
        Ok(v / self.step.max(1) as f64)
    }

    /// Measures the untrained model (epoch 0): call once, before the first step. Its train loss
    /// is the mean cross-entropy of the members under the initial weights.
    pub async fn measure_start(
        &mut self,
        data: &ExperimentData,
    ) -> Result<EpochRecord, TrainError> {
        let (record, trace) = self.measure(data, 0, None, None, None).await?;
        self.trace = if self.keep_trace { vec![trace] } else { Vec::new() };
        self.initial = Some(record.clone());
        Ok(record)
    }

    /// Starts a target model: the epoch-0 measurement and, with `Config::live_points` > 0, the
    /// first live read-out (on a sample drawn from the trainer's seed, so the models compared side
    /// by side look at the same samples). Call once, before the first [`target_step`](Self::target_step).
    pub async fn start_target(&mut self, data: &ExperimentData) -> Result<Readout, TrainError> {
        let epoch = self.measure_start(data).await?;
        if self.config.live_points > 0 {
            self.live = Some(LiveSet::draw(data, &self.train_idx, self.seed));
        }
        Ok(Readout { live: self.live_point(data).await?, epoch: Some(epoch) })
    }

    /// One training step of a target model and what it measures: the epoch's record when the step
    /// ended an epoch, a live read-out then and `Config::live_points` times within each epoch.
    pub async fn target_step(
        &mut self,
        data: &ExperimentData,
    ) -> Result<(StepInfo, Readout), TrainError> {
        let info = self.step().await?;
        let every = (info.steps_per_epoch / self.config.live_points.max(1)).max(1);
        let epoch = if info.epoch_done { Some(self.end_epoch(data).await?) } else { None };
        let live = if info.epoch_done || info.step.is_multiple_of(every) {
            self.live_point(data).await?
        } else {
            None
        };
        Ok((info, Readout { live, epoch }))
    }

    /// The live read-out of the model as it is now (`None` before [`start_target`](Self::start_target)
    /// or with live read-outs off).
    async fn live_point(&self, data: &ExperimentData) -> Result<Option<LivePoint>, TrainError> {
        let Some(set) = &self.live else { return Ok(None) };
        let idx: Vec<usize> =
            set.noisy.iter().chain(&set.clean).chain(&set.non_members).copied().collect();
        let valid = self.model().valid();
        let logits = read_logits(&valid, &self.data.images, &idx, &self.data.device).await?;
        let classes = usize::from(data.classes);
        let labels: Vec<u8> = idx.iter().map(|&i| data.pool.labels[i]).collect();
        let loss = crate::attack::scores(&logits, classes, &labels).loss;
        let right: Vec<bool> = (0..idx.len())
            .map(|n| argmax(&logits[n * classes..(n + 1) * classes]) == usize::from(labels[n]))
            .collect();
        let (n_noisy, n_clean) = (set.noisy.len(), set.clean.len());
        let acc = |r: &[bool]| {
            (!r.is_empty()).then(|| r.iter().filter(|&&x| x).count() as f64 / r.len() as f64)
        };
        let members: Vec<(f64, f64)> = (0..n_noisy + n_clean)
            .map(|n| (-loss[n], if n < n_noisy { set.noisy_weight } else { set.clean_weight }))
            .collect();
        let non_members: Vec<f64> = loss[n_noisy + n_clean..].iter().map(|l| -l).collect();
        Ok(Some(LivePoint {
            at: self.records.len() as f64 + self.step as f64 / self.steps_per_epoch() as f64,
            acc_noisy: acc(&right[..n_noisy]),
            acc_clean: acc(&right[n_noisy..n_noisy + n_clean]),
            loss_auc: crate::attack::weighted_auc(&members, &non_members).ok(),
        }))
    }

    /// The epoch-0 measurement, if taken.
    pub fn initial(&self) -> Option<&EpochRecord> {
        self.initial.as_ref()
    }

    /// Ends the epoch whose last step was just taken: measures it and records it.
    pub async fn end_epoch(&mut self, data: &ExperimentData) -> Result<EpochRecord, TrainError> {
        let steps = self.step.max(1) as f64;
        let train_loss = self.check_loss().await?;
        let penalty = match &self.penalty_sum {
            Some(p) => Some(f64::from(read_f32(p.clone()).await?[0]) / steps),
            None => None,
        };
        let mut step_means = Vec::new();
        for s in &self.gamma_sigma_sum {
            step_means.push(f64::from(read_f32(s.clone()).await?[0]) / steps);
        }
        let (record, trace) =
            self.measure(data, self.epoch, Some(train_loss), penalty, Some(step_means)).await?;
        self.records.push(record.clone());
        if self.keep_trace {
            self.trace.push(trace);
        }
        self.step = 0;
        Ok(record)
    }

    /// Per measured epoch (0 first, then each epoch's end), each member's loss and margin, in the
    /// order of the members the trainer was given.
    pub fn member_trace(&self) -> &[Vec<[f32; 2]>] {
        &self.trace
    }

    /// The epoch's record, and each member's (loss, margin) on the way.
    async fn measure(
        &self,
        data: &ExperimentData,
        epoch: usize,
        train_loss: Option<f64>,
        penalty: Option<f64>,
        step_means: Option<Vec<f64>>,
    ) -> Result<(EpochRecord, Vec<[f32; 2]>), TrainError> {
        let valid = self.model().valid();
        // Accuracies on the members by kind, and on the test set.
        let logits =
            read_logits(&valid, &self.data.images, &self.train_idx, &self.data.device).await?;
        let classes = usize::from(data.classes);
        let labels: Vec<u8> = self.train_idx.iter().map(|&i| data.pool.labels[i]).collect();
        let member_loss = crate::attack::scores(&logits, classes, &labels).loss;
        let trace: Vec<[f32; 2]> = member_loss
            .iter()
            .zip(logits.chunks_exact(classes.max(1)))
            .zip(&labels)
            .map(|((&l, row), &y)| [l as f32, margin(row, usize::from(y)) as f32])
            .collect();
        let mut correct = [0usize; 3];
        let mut total = [0usize; 3];
        let mut flipped_as_true = 0usize;
        let mut canary = None;
        for (n, &i) in self.train_idx.iter().enumerate() {
            let row = &logits[n * classes..(n + 1) * classes];
            let p = argmax(row);
            if Some(i) == data.canary {
                canary = Some((p, softmax_at(row, usize::from(data.pool.labels[i]))));
            }
            let Some(k) = kind_slot(data.kind(i)) else { continue };
            total[k] += 1;
            if p == usize::from(data.pool.labels[i]) {
                correct[k] += 1;
            }
            if data.kind(i) == SampleKind::Flipped && p == usize::from(data.pool.true_labels[i]) {
                flipped_as_true += 1;
            }
        }
        let frac = |c: usize, t: usize| (t > 0).then(|| c as f64 / t as f64);
        let test_idx: Vec<usize> = (0..data.test_labels.len()).collect();
        let test_preds =
            predict(&valid, &self.data.test_images, &test_idx, &self.data.device).await?;
        let test_correct =
            test_preds.iter().zip(&data.test_labels).filter(|(p, l)| **p == i64::from(**l)).count();

        let gamma_sigma = self.gamma_sigma_record(&valid, step_means).await?;
        let (clean, noisy) = (
            self.probe(data, &self.probe_clean).await?,
            self.probe(data, &self.probe_noisy).await?,
        );
        let grad_norms = GradNorms { clean: clean.raw.clone(), noisy: noisy.raw.clone() };
        let mechanism = Some(Probed::mechanism(clean, noisy));
        let train_loss = train_loss
            .unwrap_or_else(|| member_loss.iter().sum::<f64>() / member_loss.len().max(1) as f64);
        let canary = match (canary, data.canary) {
            (Some((predicted, p_label)), Some(i)) => {
                let grad_norm =
                    self.probe(data, &[i]).await?.raw.first().copied().unwrap_or(f32::NAN);
                Some(CanaryPoint { predicted: predicted as u8, p_label, grad_norm })
            }
            _ => None,
        };
        let record = EpochRecord {
            epoch,
            train_loss,
            penalty,
            acc_clean: frac(correct[0], total[0]),
            acc_flipped: frac(correct[1], total[1]),
            flipped_as_true: frac(flipped_as_true, total[1]),
            acc_ood: frac(correct[2], total[2]),
            acc_test: test_correct as f64 / test_idx.len().max(1) as f64,
            gamma_sigma,
            grad_norms,
            mechanism,
            canary,
        };
        Ok((record, trace))
    }

    /// Ends the epoch without measuring it (shadow models): only the NaN check. Returns the mean
    /// training loss.
    pub async fn end_epoch_unmeasured(&mut self) -> Result<f64, TrainError> {
        let loss = self.check_loss().await?;
        self.records.push(EpochRecord {
            epoch: self.epoch,
            train_loss: loss,
            penalty: None,
            acc_clean: None,
            acc_flipped: None,
            flipped_as_true: None,
            acc_ood: None,
            acc_test: f64::NAN,
            gamma_sigma: Vec::new(),
            grad_norms: GradNorms::default(),
            mechanism: None,
            canary: None,
        });
        self.step = 0;
        Ok(loss)
    }

    async fn gamma_sigma_record(
        &self,
        valid: &LeNet,
        step_means: Option<Vec<f64>>,
    ) -> Result<Vec<LayerGammaSigma>, TrainError> {
        if !valid.has_norm() {
            return Ok(Vec::new());
        }
        let f = valid.forward(self.data.pool_images(&self.context), Mode::Probe);
        let batch_ratio = valid.gamma_sigma_channels(&valid.inv_sigma(&f.batch_var, &f.group_var));
        // GroupNorm and LayerNorm: inference divides by each sample's own σ, as training does.
        let running_ratio = valid
            .running_inv_sigma()
            .map_or_else(|| batch_ratio.clone(), |inv| valid.gamma_sigma_channels(&inv));
        let mut out = Vec::new();
        for (l, ((gamma, batch), running)) in
            valid.gammas().into_iter().zip(batch_ratio).zip(running_ratio).enumerate()
        {
            let g: Vec<f64> =
                read_f32(gamma).await?.into_iter().map(|x| f64::from(x.abs())).collect();
            let b: Vec<f64> = read_f32(batch).await?.into_iter().map(f64::from).collect();
            let r: Vec<f64> = read_f32(running).await?.into_iter().map(f64::from).collect();
            let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
            out.push(LayerGammaSigma {
                layer: BN_LAYERS[l].to_string(),
                batch: mean(&b),
                batch_median: median_f64(&b),
                frac_above_one: b.iter().filter(|&&x| x > 1.0).count() as f64
                    / b.len().max(1) as f64,
                running: mean(&r),
                mean_gamma: mean(&g),
                steps: step_means.as_ref().and_then(|m| m.get(l).copied()),
            });
        }
        Ok(out)
    }

    /// What the module docs list for each pool sample at `idx`, each inside a training batch: its
    /// own loss's gradient (raw norm, scale-free norm, push on γ) and its self-influence over one
    /// step (plain SGD and the run's optimizer).
    async fn probe(&self, data: &ExperimentData, idx: &[usize]) -> Result<Probed, TrainError> {
        let bn_layers = self.model().norm_gammas().len();
        let mut out = Probed::new(bn_layers);
        if idx.is_empty() {
            return Ok(out);
        }
        let model = self.model();
        let lr = self.config.learning_rate;
        let bn = self.variant.norm().couples_batch();
        let mut batch = self.context.clone();
        batch.push(idx[0]);
        let last = batch.len() - 1;
        // The baseline: the same step with a clean member in the probe's place.
        let swapped = match self.swap {
            Some(s) => {
                batch[last] = s;
                Some(self.step_copies(&batch))
            }
            None => None,
        };
        let (mut scalars, mut rows) = (Vec::new(), Vec::new());
        for (n, &i) in idx.iter().enumerate() {
            if n % 2 == 1 {
                crate::yielder::pause().await;
            }
            batch[last] = i;
            // Its own loss: inside the batch with BN, alone otherwise (the context cannot change it).
            let own: &[usize] = if bn { &batch } else { &batch[last..] };
            let x = self.data.pool_images(own).autodiff();
            let y = self.data.pool_labels(own).autodiff();
            let logits = model.forward(x, Mode::Probe).logits;
            let at = own.len() - 1;
            rows.push(logits.clone().detach().inner().narrow(0, at, 1));
            let loss = per_sample_loss(logits, y).narrow(0, at, 1).sum();
            let grads = GradientsParams::from_grads(loss.backward(), model);
            let mut norms = Norms { grads: &grads, raw: Vec::new(), scaled: Vec::new() };
            model.visit(&mut norms);
            scalars.push(Tensor::cat(norms.raw, 0).sum().reshape([1]));
            scalars.push(Tensor::cat(norms.scaled, 0).sum().reshape([1]));
            for gamma in model.norm_gammas() {
                let g: Tensor<1> = grads
                    .get::<1>(gamma.id)
                    .map_or_else(|| gamma.val().detach().inner().zeros_like(), |g| g.inner());
                scalars.push(g.mul(gamma.val().detach().inner().sign()).sum().neg().reshape([1]));
            }
            // Its self-influence: one step on the batch that holds it, from the same weights.
            if let Some(swapped) = &swapped {
                let x = self.data.pool_images(&batch).autodiff();
                let stepped = self.step_copies(&batch);
                for m in [&stepped.0, &stepped.1, &swapped.0, &swapped.1] {
                    rows.push(
                        m.forward(x.clone(), Mode::Probe)
                            .logits
                            .detach()
                            .inner()
                            .narrow(0, last, 1),
                    );
                }
            }
        }
        let scalars = read_f32(Tensor::cat(scalars, 0)).await?;
        let rows = read_f32(Tensor::cat(rows, 0)).await?;
        let classes = usize::from(data.classes);
        let per_scalars = 2 + bn_layers;
        let per_rows = if swapped.is_some() { 5 } else { 1 } * classes;
        for (n, &i) in idx.iter().enumerate() {
            let s = &scalars[n * per_scalars..(n + 1) * per_scalars];
            let r = &rows[n * per_rows..(n + 1) * per_rows];
            let y = usize::from(data.pool.labels[i]);
            out.raw.push(s[0].sqrt());
            out.scaled.push((f64::from(s[1]).sqrt() / error_norm(&r[..classes], y)) as f32);
            for (l, push) in out.gamma_push.iter_mut().enumerate() {
                push.push(s[2 + l]);
            }
            let (sgd, run) = if swapped.is_some() {
                let m = |k: usize| margin(&r[k * classes..(k + 1) * classes], y);
                (((m(1) - m(3)) / lr) as f32, ((m(2) - m(4)) / lr) as f32)
            } else {
                (f32::NAN, f32::NAN)
            };
            out.influence_sgd.push(sgd);
            out.influence_run.push(run);
        }
        Ok(out)
    }

    /// The model after one step on `batch` (its mean cross-entropy, BN on the batch's statistics,
    /// running statistics untouched), twice: by plain SGD, and by a copy of the run's optimizer in
    /// its current state. The trainer's own model and optimizer are left as they are.
    fn step_copies(&self, batch: &[usize]) -> (LeNet, LeNet) {
        let model = self.model();
        let x = self.data.pool_images(batch).autodiff();
        let y = self.data.pool_labels(batch).autodiff();
        let loss = cross_entropy(model.forward(x, Mode::Probe).logits, y);
        let grads = GradientsParams::from_grads(loss.backward(), model);
        let mut copy = CopyGrads { from: &grads, to: GradientsParams::new() };
        model.visit(&mut copy);
        let copy = copy.to;
        let lr = self.config.learning_rate;
        let sgd = SgdConfig::new().init().step(lr, model.clone(), grads);
        let run = self.optim.clone().step(lr, model.clone(), copy);
        (sgd, run)
    }
}

/// What [`Trainer::probe`] read, per sample.
struct Probed {
    raw: Vec<f32>,
    scaled: Vec<f32>,
    gamma_push: Vec<Vec<f32>>,
    influence_sgd: Vec<f32>,
    influence_run: Vec<f32>,
}

impl Probed {
    fn new(bn_layers: usize) -> Self {
        Self {
            raw: Vec::new(),
            scaled: Vec::new(),
            gamma_push: vec![Vec::new(); bn_layers],
            influence_sgd: Vec::new(),
            influence_run: Vec::new(),
        }
    }

    fn mechanism(clean: Self, noisy: Self) -> Mechanism {
        let pair = |c: Vec<f32>, n: Vec<f32>| ProbeValues { clean: c, noisy: n };
        Mechanism {
            influence_sgd: pair(clean.influence_sgd, noisy.influence_sgd),
            influence_run: pair(clean.influence_run, noisy.influence_run),
            scaled_grad: pair(clean.scaled, noisy.scaled),
            gamma_push: clean
                .gamma_push
                .into_iter()
                .zip(noisy.gamma_push)
                .map(|(c, n)| pair(c, n))
                .collect(),
        }
    }
}

/// The margin of a row of logits at label `y`: its logit minus the largest other.
pub fn margin(row: &[f32], y: usize) -> f64 {
    let other = row
        .iter()
        .enumerate()
        .filter(|(j, _)| *j != y)
        .map(|(_, &z)| z)
        .fold(f32::NEG_INFINITY, f32::max);
    f64::from(row[y]) - f64::from(other)
}

/// ‖softmax(z) − e_y‖₂ of a row of logits: how wrong the model is on the sample.
pub fn error_norm(row: &[f32], y: usize) -> f64 {
    let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let e: Vec<f64> = row.iter().map(|&z| f64::from(z - max).exp()).collect();
    let sum: f64 = e.iter().sum();
    e.iter()
        .enumerate()
        .map(|(j, v)| (v / sum - if j == y { 1.0 } else { 0.0 }).powi(2))
        .sum::<f64>()
        .sqrt()
}

/// The median of f64 values (NaN if empty).
fn median_f64(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

fn argmax(row: &[f32]) -> usize {
    row.iter().enumerate().fold(0, |best, (j, &v)| if v > row[best] { j } else { best })
}

/// Where a member counts in the accuracies by kind (the canary is followed on its own).
fn kind_slot(k: SampleKind) -> Option<usize> {
    match k {
        SampleKind::Clean => Some(0),
        SampleKind::Flipped => Some(1),
        SampleKind::Ood => Some(2),
        SampleKind::Canary => None,
    }
}

/// The softmax probability of class `j` in a row of logits.
fn softmax_at(row: &[f32], j: usize) -> f64 {
    let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let sum: f64 = row.iter().map(|&z| f64::from(z - max).exp()).sum();
    f64::from(row[j] - max).exp() / sum
}

/// Per float parameter, the sum of its squared gradient (`raw`); per weight matrix or filter
/// (rank ≥ 2), ‖W‖²·‖∇W‖² (`scaled`).
struct Norms<'a> {
    grads: &'a GradientsParams,
    raw: Vec<Tensor<1>>,
    scaled: Vec<Tensor<1>>,
}

impl ModuleVisitor for Norms<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        if let Some(g) = self.grads.get::<D>(param.id) {
            let g2 = g.inner().square().sum();
            if D >= 2 {
                self.scaled.push(g2.clone().mul(param.val().detach().inner().square().sum()));
            }
            self.raw.push(g2);
        }
    }
}

/// Copies the gradients of a module's parameters (a step consumes them).
struct CopyGrads<'a> {
    from: &'a GradientsParams,
    to: GradientsParams,
}

impl ModuleVisitor for CopyGrads<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        if let Some(g) = self.from.get::<D>(param.id) {
            self.to.register::<D>(param.id, g);
        }
    }
}

/// Predicted classes of the images at `idx` (model without autodiff).
pub async fn predict(
    model: &LeNet,
    images: &Tensor<4>,
    idx: &[usize],
    device: &Device,
) -> Result<Vec<i64>, TrainError> {
    let mut out = Vec::with_capacity(idx.len());
    for chunk in idx.chunks(EVAL_CHUNK) {
        if let Some(l) = logits_of(model, images, chunk, device) {
            out.extend(read_i64(l.argmax(1).flatten::<1>(0, 1)).await?);
        }
        crate::yielder::pause().await;
    }
    Ok(out)
}

/// Logits of the images at `idx` read back to the host, row-major (`idx.len()` × classes): one
/// chunk at a time, letting the host breathe between chunks (model without autodiff).
pub async fn read_logits(
    model: &LeNet,
    images: &Tensor<4>,
    idx: &[usize],
    device: &Device,
) -> Result<Vec<f32>, TrainError> {
    let mut out = Vec::new();
    for chunk in idx.chunks(EVAL_CHUNK) {
        if let Some(l) = logits_of(model, images, chunk, device) {
            out.extend(read_f32(l).await?);
        }
        crate::yielder::pause().await;
    }
    Ok(out)
}

/// Logits of the images at `idx`, in chunks (model without autodiff; BN on running statistics).
pub fn logits_of(
    model: &LeNet,
    images: &Tensor<4>,
    idx: &[usize],
    device: &Device,
) -> Option<Tensor<2>> {
    let chunks: Vec<Tensor<2>> = idx
        .chunks(EVAL_CHUNK)
        .map(|c| {
            model.forward(images.clone().select(0, index_tensor(c, device)), Mode::Eval).logits
        })
        .collect();
    (!chunks.is_empty()).then(|| Tensor::cat(chunks, 0))
}
