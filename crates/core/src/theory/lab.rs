//! [`TheoryLab`]: the BN model and the plain model trained side by side on the same batches, one
//! [`StepRecord`] a step.

use serde::{Deserialize, Serialize};

use super::data::{Batches, Data, Point};
use super::measure::{ratio, same_g};
use super::model::{Line, Model, Params, Stats, softplus};
use super::optim::OptState;
use super::{TheoryConfig, TheoryError};
use crate::data::Rng;

/// One model's read-out outside a batch (BN with the training set's population statistics).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelState {
    /// The outlier's margin `y_o·f(x_o)` (above 0: fitted).
    pub outlier_margin: f64,
    /// The fraction of clean training samples classified right.
    pub clean_accuracy: f64,
    /// The mean loss over the training set.
    pub loss: f64,
    /// The logit in the signal plane; its zero set is the boundary.
    pub line: Line,
}

/// Both models' read-outs at one moment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The model without BN.
    pub plain: ModelState,
    /// The model with BN (`None` when it is not trained).
    pub bn: Option<ModelState>,
    /// BN's γ.
    pub gamma: Option<f64>,
    /// BN's population σ (over the training set, ε inside).
    pub sigma_pop: Option<f64>,
}

/// One training step. The batch's quantities (σ_B, γ/σ_B, the ratios, the push) come from the
/// parameters before the step; the read-outs in `after` from those after it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepRecord {
    /// 1-based.
    pub step: usize,
    /// 0-based.
    pub epoch: usize,
    /// The batch's sample indices (into [`TheoryLab::points`]).
    pub batch: Vec<usize>,
    /// Whether the batch holds the outlier (never in a run without it).
    pub outlier_in_batch: bool,
    /// The read-outs after the step.
    pub after: Snapshot,
    /// BN: the batch's σ_B.
    pub sigma_batch: Option<f64>,
    /// BN: γ/σ_B (γ before the step).
    pub gamma_over_sigma: Option<f64>,
    /// Steps with the outlier in the batch: the theorem's factor (γ/σ_B)².
    pub predicted: Option<f64>,
    /// Steps with the outlier: BN's w-step with the same g over the plain one's, statistics frozen
    /// (equals `predicted`).
    pub ratio_frozen: Option<f64>,
    /// Steps with the outlier: the same with live statistics: the theorem's comparison, measured.
    pub ratio_same_g: Option<f64>,
    /// Steps with the outlier: the two models' own optimizer steps (every parameter), the change
    /// of the outlier's in-batch margin, BN's over plain's.
    pub ratio_models: Option<f64>,
    /// Steps with the outlier: its push on γ, `−sign(γ)·∂ℓ_o/∂γ`.
    pub gamma_push: Option<f64>,
}

/// A model and its optimizer.
#[derive(Clone, Debug)]
struct Trained {
    model: Model,
    opt: OptState,
}

impl Trained {
    /// One step on the batch `idx`; returns the forward pass before it.
    fn step(&mut self, data: &Data, idx: &[usize], freeze_gamma: bool) -> Vec<f64> {
        let (fw, mut grad) = self.model.gradient(data, idx, Stats::Batch);
        if freeze_gamma {
            grad.gamma = 0.0;
        }
        self.opt.step(&mut self.model.params, &grad);
        fw.m
    }

    /// The read-out over the training set `members`.
    fn state(&self, data: &Data, members: &[usize]) -> ModelState {
        let (mean, std) = self.model.population(data, members);
        let margin = |i: usize| data.ys[i] * self.model.logit(&data.xs[i], mean, std);
        let clean: Vec<usize> = members.iter().copied().filter(|&i| i != data.outlier).collect();
        ModelState {
            outlier_margin: margin(data.outlier),
            clean_accuracy: clean.iter().filter(|&&i| margin(i) > 0.0).count() as f64
                / clean.len() as f64,
            loss: members.iter().map(|&i| softplus(-margin(i))).sum::<f64>() / members.len() as f64,
            line: self.model.line(mean, std),
        }
    }
}

/// A run you can step: the BN model (unless `bn` is off) and the plain model, from the same
/// initialization, on the same batches.
#[derive(Clone, Debug)]
pub struct TheoryLab {
    config: TheoryConfig,
    data: Data,
    members: Vec<usize>,
    batches: Batches,
    plain: Trained,
    bn: Option<Trained>,
    steps_done: usize,
}

impl TheoryLab {
    /// A fresh run of a config, or why the config is not valid.
    pub fn new(config: &TheoryConfig) -> Result<Self, TheoryError> {
        config.validate()?;
        let data = Data::generate(config);
        let members: Vec<usize> =
            (0..data.len()).filter(|&i| config.outlier || i != data.outlier).collect();
        let dim = config.dim();
        let mut rng = Rng::derive(config.seed, "theory-init");
        let scale = 1.0 / (dim as f64).sqrt();
        let params = Params {
            w: (0..dim).map(|_| scale * rng.normal()).collect(),
            gamma: 1.0,
            beta: 0.0,
            a: 1.0,
            c: 0.0,
        };
        let trained = |bn: bool| Trained {
            model: Model { params: params.clone(), bn, eps: config.eps },
            opt: OptState::new(config.optimizer, config.lr, dim),
        };
        Ok(Self {
            batches: Batches::new(config.seed, data.len(), config.batch_size),
            config: config.clone(),
            members,
            plain: trained(false),
            bn: config.bn.then(|| trained(true)),
            data,
            steps_done: 0,
        })
    }

    /// The config.
    pub fn config(&self) -> &TheoryConfig {
        &self.config
    }

    /// The data (the outlier included, whether trained on or not).
    pub fn data(&self) -> &Data {
        &self.data
    }

    /// Every sample in the signal plane with its label; the outlier is at
    /// [`outlier`](Self::outlier).
    pub fn points(&self) -> Vec<Point> {
        self.data.points()
    }

    /// The outlier's index in [`points`](Self::points).
    pub fn outlier(&self) -> usize {
        self.data.outlier
    }

    /// Steps taken.
    pub fn steps_done(&self) -> usize {
        self.steps_done
    }

    /// Whether every configured step has been taken.
    pub fn done(&self) -> bool {
        self.steps_done >= self.config.steps
    }

    /// The plain model's parameters.
    pub fn plain(&self) -> &Params {
        &self.plain.model.params
    }

    /// The BN model's parameters (`None` when it is not trained).
    pub fn bn(&self) -> Option<&Params> {
        self.bn.as_ref().map(|t| &t.model.params)
    }

    /// Both models' read-outs now.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            plain: self.plain.state(&self.data, &self.members),
            bn: self.bn.as_ref().map(|t| t.state(&self.data, &self.members)),
            gamma: self.bn.as_ref().map(|t| t.model.params.gamma),
            sigma_pop: self.bn.as_ref().map(|t| t.model.population(&self.data, &self.members).1),
        }
    }

    /// Takes one step (also past the configured number: that only bounds [`run`](super::run)).
    pub fn step(&mut self) -> StepRecord {
        let o = self.data.outlier;
        let mut batch = self.batches.next_batch();
        if !self.config.outlier {
            batch.retain(|&i| i != o);
        }
        let epoch = self.batches.epoch;
        let pos = batch.iter().position(|&i| i == o);
        let data = &self.data;

        // The theorem's quantities, before the step.
        let (sigma_batch, measured) = match &self.bn {
            Some(t) => {
                let sigma = t.model.population(data, &batch).1;
                (Some(sigma), pos.map(|_| same_g(&t.model, data, &batch, o, self.config.lr)))
            }
            None => (None, None),
        };
        let gamma_before = self.bn.as_ref().map(|t| t.model.params.gamma);

        // The step itself, and the change of the outlier's in-batch margin per model.
        let in_batch_margin = |t: &Trained| t.model.forward(data, &batch, Stats::Batch).m;
        let before = self.plain.step(data, &batch, false);
        let plain_delta = pos.map(|p| in_batch_margin(&self.plain)[p] - before[p]);
        let bn_delta = self.bn.as_mut().and_then(|t| {
            let before = t.step(data, &batch, self.config.freeze_gamma);
            pos.map(|p| in_batch_margin(t)[p] - before[p])
        });
        self.steps_done += 1;

        StepRecord {
            step: self.steps_done,
            epoch,
            outlier_in_batch: pos.is_some(),
            after: self.snapshot(),
            sigma_batch,
            gamma_over_sigma: gamma_before.zip(sigma_batch).map(|(g, s)| g / s),
            predicted: measured.map(|m| m.predicted),
            ratio_frozen: measured.and_then(|m| m.frozen),
            ratio_same_g: measured.and_then(|m| m.live),
            ratio_models: bn_delta.zip(plain_delta).and_then(|(b, p)| ratio(b, p)),
            gamma_push: measured.map(|m| m.gamma_push),
            batch,
        }
    }
}
