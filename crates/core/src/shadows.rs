//! Shadow models trained together as one stacked network ([`Stack`], issue #33): one kernel launch
//! serves K models. Each model keeps what it would have alone — its seed's initial weights, its
//! members, its shuffle of them each epoch, its batches, its number of steps — so the stack ends
//! where K [`shadow_trainer`](crate::experiment::shadow_trainer)s would (within float rounding).
//! Models stack when each has at least a batch of members ([`stackable`]); their epochs may differ in
//! steps (a trainer drops an epoch's incomplete last batch: members ÷ batch, rounded down, and a
//! shadow's members are a random half of the pool): each model counts its own steps and epochs, and
//! a model that has taken all of its steps is copied out as it stands, while the others go on (its
//! part of the stack then trains on, unread: nothing of it reaches another model's).

use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::tensor::Tensor;

use crate::config::{Config, Variant};
use crate::data::Rng;
use crate::experiment::{pool_scores, shadow_seed};
use crate::experiment_data::{DeviceData, ExperimentData};
use crate::model::{LeNet, LeNetConfig, Mode, Stack, per_sample_loss};
use crate::train::{TrainError, optimizer, read_f32, steps_per_epoch};

/// How many shadow models a run stacks into one network on a GPU backend (WebGPU, wgpu): the
/// count `bench::shadows_time` measured (4 BN models on a software WebGPU adapter: 3.8× fewer
/// dispatches per trained sample, 1.1–1.3× the samples per second). On the CPU stacking was slower
/// (0.4–0.96×): a CPU run trains its shadow models one by one.
pub const STACK_ON_GPU: usize = 4;

/// The shadow models a run stacks into one network on a GPU backend (`gpu`) or the CPU.
pub fn stack_size(gpu: bool) -> usize {
    if gpu { STACK_ON_GPU } else { 1 }
}

/// One stacked model's own: its members, its shuffle, this epoch's order of them, its steps.
struct Member {
    idx: Vec<usize>,
    rng: Rng,
    order: Vec<usize>,
    steps_per_epoch: usize,
    /// Steps taken, all epochs together.
    taken: usize,
    /// The model as it ended, copied out of the stack at its last step (`None` while it trains,
    /// or when its loss went NaN or infinite: it then counts as failed, as a trainer alone would
    /// stop).
    ended: Option<Option<LeNet>>,
}

impl Member {
    fn total(&self, epochs: usize) -> usize {
        self.steps_per_epoch * epochs
    }
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
    /// Steps of the stack taken.
    steps: usize,
    /// Per model, the sum of its batches' mean losses (`[K]`): read when a model ends, for NaN.
    loss_sum: Option<Tensor<1>>,
}

/// Whether shadow models with these memberships (`keep[k][i]`: candidate `i` is IN for model k)
/// train as one stack: each has at least a batch of members (then each trains at the config's
/// batch size).
pub fn stackable(config: &Config, keep: &[&[bool]]) -> bool {
    !keep.is_empty()
        && keep.iter().all(|k| k.iter().filter(|&&x| x).count() >= config.batch_size.max(1))
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
        let batch = config.batch_size;
        let members = keeps
            .iter()
            .zip(&seeds)
            .map(|(keep, &seed)| {
                let idx: Vec<usize> = (0..keep.len()).filter(|&i| keep[i]).collect();
                Member {
                    steps_per_epoch: steps_per_epoch(idx.len(), batch),
                    idx,
                    rng: Rng::derive(seed, "shuffle"),
                    order: Vec::new(),
                    taken: 0,
                    ended: None,
                }
            })
            .collect();
        Self {
            config: config.clone(),
            model: Some(Stack::of(&like.iter().collect::<Vec<_>>())),
            like,
            optim: optimizer(config),
            data: device_data.clone(),
            members,
            steps: 0,
            loss_sum: None,
        }
    }

    /// Steps the stack takes in all: its longest model's.
    pub fn total_steps(&self) -> usize {
        self.members.iter().map(|m| m.total(self.config.epochs)).max().unwrap_or(0)
    }

    /// Steps taken.
    pub fn steps_done(&self) -> usize {
        self.steps
    }

    /// Whether every model has taken all of its steps.
    pub fn finished(&self) -> bool {
        self.members.iter().all(|m| m.ended.is_some())
    }

    /// One training step of every model on its next batch (a model that has ended, on a batch of
    /// its members that nobody reads). A model that takes its last step is copied out, after the
    /// check of its loss for NaN — the stack's only read-back.
    pub async fn step(&mut self) -> Result<(), TrainError> {
        let (epochs, bs) = (self.config.epochs, self.config.batch_size);
        let mut ranges = Vec::new();
        for m in &mut self.members {
            let at = m.taken % m.steps_per_epoch;
            if m.ended.is_none() && at == 0 {
                m.order = m.idx.clone();
                m.rng.shuffle(&mut m.order);
            }
            ranges.push(if m.ended.is_none() { at * bs..(at + 1) * bs } else { 0..bs });
        }
        let batches: Vec<&[usize]> =
            self.members.iter().zip(ranges).map(|(m, r)| &m.order[r]).collect();
        let x = Tensor::cat(batches.iter().map(|b| self.data.pool_images(b)).collect(), 1);
        let y = Tensor::cat(batches.iter().map(|b| self.data.pool_labels(b)).collect(), 0);
        let (x, y) = (x.autodiff(), y.autodiff());
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
        self.steps += 1;
        let mut ending = Vec::new();
        for (j, m) in self.members.iter_mut().enumerate() {
            if m.ended.is_none() {
                m.taken += 1;
                if m.taken >= m.total(epochs) {
                    ending.push(j);
                }
            }
        }
        if !ending.is_empty() {
            let sums = read_f32(self.loss_sum.clone().expect("summed above")).await?;
            let stack = self.model.as_ref().expect("stepped above");
            for j in ending {
                let ok = sums[j].is_finite();
                self.members[j].ended = Some(ok.then(|| stack.model(j, self.like[j].clone())));
            }
        }
        Ok(())
    }

    /// Model `k` of the stack as it ended, a LeNet of its own (`None` while it trains, or once its
    /// loss went NaN or infinite).
    pub fn model(&self, k: usize) -> Option<LeNet> {
        self.members[k].ended.clone().flatten()
    }

    /// The stack's models.
    pub fn models(&self) -> usize {
        self.like.len()
    }

    /// Trains every epoch, calling `on_step` after every step.
    pub async fn train(&mut self, mut on_step: impl FnMut(&Self)) -> Result<(), TrainError> {
        while !self.finished() {
            self.step().await?;
            on_step(self);
            crate::yielder::turn().await;
        }
        Ok(())
    }

    /// φ of every candidate of the pool on model `k` (as [`crate::jobs`] gives a shadow job's):
    /// `None` if its training failed.
    pub async fn phi(
        &self,
        k: usize,
        data: &ExperimentData,
        device_data: &DeviceData,
    ) -> Result<Option<Vec<f64>>, TrainError> {
        Ok(match self.model(k) {
            Some(m) => Some(pool_scores(&m, data, device_data).await?.phi),
            None => None,
        })
    }
}
