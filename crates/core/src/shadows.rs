//! Shadow models trained together as one stacked network ([`Stack`], issue #33): one kernel launch
//! serves K models. Each model keeps what it would have alone — its seed's initial weights, its
//! members, its shuffle of them each epoch, its batches — so the stack ends where K
//! [`shadow_trainer`](crate::experiment::shadow_trainer)s would (within float rounding). Models
//! stack when their epochs have the same number of steps (a trainer drops an epoch's incomplete
//! last batch: members ÷ batch, rounded down); a shadow's members are a random half of the pool, so
//! most do ([`stackable`]).

use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::tensor::Tensor;

use crate::config::{Config, Variant};
use crate::data::Rng;
use crate::experiment::{pool_scores, shadow_seed};
use crate::experiment_data::{DeviceData, ExperimentData};
use crate::model::{LeNet, LeNetConfig, Mode, Stack, per_sample_loss};
use crate::train::{CHECK_EVERY, TrainError, optimizer, read_f32, steps_per_epoch};

/// One stacked model's own: its members, its shuffle, and this epoch's order of them.
struct Member {
    idx: Vec<usize>,
    rng: Rng,
    order: Vec<usize>,
}

/// Shadow models of one variant in training as one [`Stack`].
pub struct StackTrainer {
    config: Config,
    model: Option<Stack>,
    /// Each model as first made: the shape [`Stack::model`] writes a trained one into.
    like: Vec<LeNet>,
    optim: ModuleOptimizer,
    data: DeviceData,
    members: Vec<Member>,
    step: usize,
    epochs: usize,
    /// Per model, the sum of its batches' mean losses this epoch (`[K]`).
    loss_sum: Option<Tensor<1>>,
    /// Per model, whether its loss went NaN or infinite (it then counts as failed, as a trainer
    /// alone would stop; the others train on: their gradients are their own).
    failed: Vec<bool>,
}

/// Whether shadow models with these memberships (`keep[k][i]`: candidate `i` is IN for model k)
/// train as one stack: each has members, and each epoch the same number of steps of the same batch
/// size.
pub fn stackable(config: &Config, keep: &[&[bool]]) -> bool {
    let shape = |k: &&[bool]| {
        let n = k.iter().filter(|&&x| x).count();
        let batch = config.batch_size.min(n);
        (batch, steps_per_epoch(n, batch))
    };
    keep.first()
        .is_some_and(|first| keep.iter().all(|k| shape(k) == shape(first) && shape(k).0 > 0))
}

impl StackTrainer {
    /// The stack of shadow models `ks` of variant number `variant` (`of`), `keep` every shadow
    /// model's membership (as `experiment::shadow_keep` gives it).
    ///
    /// # Panics
    ///
    /// If `ks` is empty, the models are not [`stackable`], or `of` is BN with the regularizer (its
    /// penalty and projection are not stacked).
    pub fn new(
        config: &Config,
        of: Variant,
        variant: usize,
        ks: &[usize],
        keep: &[Vec<bool>],
        data: &ExperimentData,
        device_data: &DeviceData,
    ) -> Self {
        let keeps: Vec<&[bool]> = ks.iter().map(|&k| keep[k].as_slice()).collect();
        assert!(stackable(config, &keeps), "shadow models {ks:?} do not stack");
        assert!(of != Variant::BnReg, "the regularizer is not stacked");
        let device = device_data.device.clone().autodiff();
        let [_, channels, height, width] = device_data.images.dims();
        let shape = LeNetConfig::new(channels, height, width, usize::from(data.classes))
            .with_norm(of.norm())
            .with_groups(config.groups);
        let seeds: Vec<u64> = ks.iter().map(|&k| shadow_seed(config.seed, variant, k)).collect();
        let like: Vec<LeNet> = seeds.iter().map(|&s| shape.init(s, &device)).collect();
        let members = keeps
            .iter()
            .zip(&seeds)
            .map(|(keep, &seed)| Member {
                idx: (0..keep.len()).filter(|&i| keep[i]).collect(),
                rng: Rng::derive(seed, "shuffle"),
                order: Vec::new(),
            })
            .collect();
        Self {
            config: config.clone(),
            model: Some(Stack::of(&like.iter().collect::<Vec<_>>())),
            like,
            optim: optimizer(config),
            data: device_data.clone(),
            members,
            step: 0,
            epochs: 0,
            loss_sum: None,
            failed: vec![false; ks.len()],
        }
    }

    fn batch(&self) -> usize {
        self.config.batch_size.min(self.members[0].idx.len())
    }

    /// Steps per epoch (the same for every model).
    pub fn steps_per_epoch(&self) -> usize {
        steps_per_epoch(self.members[0].idx.len(), self.batch())
    }

    /// Whether every epoch has been trained.
    pub fn finished(&self) -> bool {
        self.epochs >= self.config.epochs
    }

    /// One training step of every model on its next batch; at the epoch's end, the NaN check.
    pub async fn step(&mut self) -> Result<(), TrainError> {
        if self.step == 0 {
            for m in &mut self.members {
                m.order = m.idx.clone();
                m.rng.shuffle(&mut m.order);
            }
            self.loss_sum = None;
        }
        let bs = self.batch();
        let range = self.step * bs..(self.step + 1) * bs;
        let images = self.members.iter().map(|m| self.data.pool_images(&m.order[range.clone()]));
        let labels = self.members.iter().map(|m| self.data.pool_labels(&m.order[range.clone()]));
        let x = Tensor::cat(images.collect(), 1).autodiff();
        let y = Tensor::cat(labels.collect(), 0).autodiff();
        let model = self.model.take().expect("model present");
        let logits = model.forward(x, Mode::Train);
        let [k, b, classes] = logits.dims();
        // Each model's mean loss; their sum's gradient is each model's own.
        let losses: Tensor<1> = per_sample_loss(logits.reshape([k * b, classes]), y)
            .reshape([k, b])
            .mean_dim(1)
            .reshape([k]);
        let grads = GradientsParams::from_grads(losses.clone().sum().backward(), &model);
        self.model = Some(self.optim.step(self.config.learning_rate, model, grads));
        let l = losses.detach().inner();
        self.loss_sum = Some(match self.loss_sum.take() {
            Some(s) => s.add(l),
            None => l,
        });
        self.step += 1;
        let epoch_done = self.step >= self.steps_per_epoch();
        if epoch_done || self.step.is_multiple_of(CHECK_EVERY) {
            self.check_loss().await?;
        }
        if epoch_done {
            self.step = 0;
            self.epochs += 1;
        }
        Ok(())
    }

    /// Marks the models whose loss went NaN or infinite as failed.
    async fn check_loss(&mut self) -> Result<(), TrainError> {
        let Some(sum) = &self.loss_sum else { return Ok(()) };
        for (failed, v) in self.failed.iter_mut().zip(read_f32(sum.clone()).await?) {
            *failed |= !v.is_finite();
        }
        Ok(())
    }

    /// Model `k` of the stack as a LeNet of its own (`None` once its loss went NaN or infinite).
    pub fn model(&self, k: usize) -> Option<LeNet> {
        let stack = self.model.as_ref().expect("the model is only taken during a step");
        (!self.failed[k]).then(|| stack.model(k, self.like[k].clone()))
    }

    /// The stack's models.
    pub fn models(&self) -> usize {
        self.like.len()
    }

    /// Trains every epoch, then scores the pool on each model: its φ per candidate, `None` for a
    /// model whose training failed (as [`crate::jobs`] gives a shadow job's).
    pub async fn train(
        mut self,
        data: &ExperimentData,
        device_data: &DeviceData,
    ) -> Result<Vec<Option<Vec<f64>>>, TrainError> {
        while !self.finished() {
            self.step().await?;
            crate::yielder::turn().await;
        }
        let mut phi = Vec::new();
        for k in 0..self.models() {
            phi.push(match self.model(k) {
                Some(m) => Some(pool_scores(&m, data, device_data).await?.phi),
                None => None,
            });
        }
        Ok(phi)
    }
}
