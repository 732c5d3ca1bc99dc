//! The theory lab: the paper's analysis model, small enough to read and fast enough to step live.
//!
//! The paper ("Batch Normalization Amplifies Memorization and Privacy Risks") proves, for a linear
//! filter followed by BN, that one gradient step grows an outlier's margin (γ/σ)² times as much as
//! the same step without BN would (γ the BN scale, σ the batch's standard deviation), and that an
//! outlier pushes γ/σ up: a feedback loop. This module trains that model — on the host, in f64,
//! without burn and without a dataset — beside the same model without BN, and measures the factor
//! at every step whose batch holds the outlier.
//!
//! In order, as the method goes:
//! * [`data`]: two Gaussian classes in a *signal plane* (the 2 coordinates the app plots) plus
//!   `noise_dims` coordinates of small per-sample noise, and one mislabeled outlier; the seeded
//!   mini-batches;
//! * [`model`]: the filter `h = w·x`, BN or not, the head `f = a·z + c`, the logistic loss, and
//!   every gradient written by hand (through the batch mean and standard deviation for BN);
//! * [`optim`]: SGD and Adam, by hand;
//! * [`lab`]: [`TheoryLab`], a training run you can step, one [`StepRecord`] a step;
//! * [`measure`]: the theorem's quantities on a batch that holds the outlier;
//! * [`report`]: [`run`] (the run and its twin without the outlier), the [`Summary`] and the table.
//!
//! # Our choices (where the paper leaves them open)
//! * **Noise coordinates.** A linear model can fit a mislabeled point deep inside the other class
//!   only through that point's own quirks. In high dimension every sample has some (pixels no other
//!   sample shares); here they are the `noise_dims` coordinates, N(0, `noise`²) each, drawn per
//!   sample. With `noise_dims` ≥ the number of samples every labelling is separable, as it is for
//!   the paper's networks. The signal plane is what a reader sees; the boundary drawn there is the
//!   model's with the noise coordinates at 0.
//! * **Initialization.** `w ~ N(0, 1/d)`, `a = 1`, `c = 0`, `γ = 1`, `β = 0`; BN and plain start
//!   from the same `w` and `a`.
//! * **Read-outs outside a batch** (the outlier's margin for the curves, the accuracy, the loss,
//!   the boundary) use, for BN, the statistics of the whole training set (its *population*), so the
//!   boundary in the signal plane is a line.
//! * **Batches.** One seeded permutation of all samples (outlier included) per epoch, cut into
//!   batches of `batch_size`; an incomplete last batch is dropped. The run without the outlier (its
//!   *twin*) draws the same permutations and drops the outlier's index from its batch, which is
//!   then one sample smaller.

pub mod data;
pub mod lab;
pub mod measure;
pub mod model;
pub mod optim;
pub mod report;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

pub use data::{Data, Point};
pub use lab::{ModelState, Snapshot, StepRecord, TheoryLab};
pub use model::{Line, Model, Params, Stats};
pub use report::{Summary, TheoryReport, fitted_from, run};

/// The most steps a run takes.
pub const MAX_STEPS: usize = 100_000;
/// The most points per class.
pub const MAX_PER_CLASS: usize = 1000;
/// The most noise coordinates.
pub const MAX_NOISE_DIMS: usize = 1000;

/// Which optimizer trains both models.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Optimizer {
    /// Plain SGD: `p ← p − lr·∂L/∂p`.
    Sgd,
    /// Adam (β1 0.9, β2 0.999, ε 1e-8), with bias correction.
    Adam,
}

impl Optimizer {
    /// Its default learning rate: 0.1 for SGD, 0.01 for Adam (whose steps do not scale with the
    /// gradient: 0.01 moves each weight about 0.01 a step, against weights of about 0.1 at init).
    pub fn default_lr(self) -> f64 {
        match self {
            Self::Sgd => 0.1,
            Self::Adam => 0.01,
        }
    }

    /// From its name: "sgd" or "adam" (any case).
    pub fn parse(s: &str) -> Option<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "sgd" => Some(Self::Sgd),
            "adam" => Some(Self::Adam),
            _ => None,
        }
    }

    /// Its name: "SGD" or "Adam".
    pub fn label(self) -> &'static str {
        match self {
            Self::Sgd => "SGD",
            Self::Adam => "Adam",
        }
    }
}

/// One theory-lab run: the data, the models, the training.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TheoryConfig {
    /// Seeds the data, the initialization and the batch order.
    pub seed: u64,
    /// Points per class.
    pub per_class: usize,
    /// Noise coordinates after the signal plane: the input has `2 + noise_dims` coordinates.
    pub noise_dims: usize,
    /// Class +1 is centred on (+sep, 0), class −1 on (−sep, 0).
    pub sep: f64,
    /// The standard deviation of each class in the signal plane (isotropic).
    pub spread: f64,
    /// The standard deviation of each noise coordinate.
    pub noise: f64,
    /// The outlier's position in the signal plane, x.
    pub outlier_x: f64,
    /// The outlier's position in the signal plane, y.
    pub outlier_y: f64,
    /// Whether the outlier (label +1, placed in class −1's cluster by default) is trained on. It is
    /// always read out, as a held-out point when not.
    pub outlier: bool,
    /// SGD or Adam, for both models.
    pub optimizer: Optimizer,
    /// The learning rate (also η of the same-g measurement).
    pub lr: f64,
    /// Samples per batch.
    pub batch_size: usize,
    /// Training steps.
    pub steps: usize,
    /// Keeps γ at 1: cuts the feedback loop.
    pub freeze_gamma: bool,
    /// Whether the BN model is trained at all (the plain model always is).
    pub bn: bool,
    /// BN's ε: σ = sqrt(var + ε).
    pub eps: f64,
}

impl Default for TheoryConfig {
    /// 2 × 24 points and 64 noise coordinates (more coordinates than points, so the outlier can be
    /// fitted), SGD at lr 0.1 on batches of 8 for 200 steps (about 33 epochs), the outlier deep in
    /// class −1.
    fn default() -> Self {
        Self {
            seed: 1,
            per_class: 24,
            noise_dims: 64,
            sep: 1.0,
            spread: 0.3,
            noise: 0.1,
            outlier_x: -0.9,
            outlier_y: 0.2,
            outlier: true,
            optimizer: Optimizer::Sgd,
            lr: Optimizer::Sgd.default_lr(),
            batch_size: 8,
            steps: 200,
            freeze_gamma: false,
            bn: true,
            eps: 1e-5,
        }
    }
}

impl TheoryConfig {
    /// This config with another optimizer and that optimizer's default learning rate.
    pub fn with_optimizer(mut self, optimizer: Optimizer) -> Self {
        self.optimizer = optimizer;
        self.lr = optimizer.default_lr();
        self
    }

    /// The input's dimension: 2 + `noise_dims`.
    pub fn dim(&self) -> usize {
        2 + self.noise_dims
    }

    /// All samples, the outlier included whether trained on or not.
    pub fn samples(&self) -> usize {
        2 * self.per_class + 1
    }

    /// Checks every field: a clear error, never a panic later.
    pub fn validate(&self) -> Result<(), TheoryError> {
        let range = |field: &'static str, value: f64, min: f64, max: f64| {
            if !value.is_finite() {
                Err(TheoryError::NotFinite { field })
            } else if value < min || value > max {
                Err(TheoryError::OutOfRange { field, value, min, max })
            } else {
                Ok(())
            }
        };
        range("per_class", self.per_class as f64, 2.0, MAX_PER_CLASS as f64)?;
        range("noise_dims", self.noise_dims as f64, 0.0, MAX_NOISE_DIMS as f64)?;
        range("sep", self.sep, 0.0, 100.0)?;
        range("spread", self.spread, 0.0, 100.0)?;
        range("noise", self.noise, 0.0, 100.0)?;
        range("outlier_x", self.outlier_x, -1000.0, 1000.0)?;
        range("outlier_y", self.outlier_y, -1000.0, 1000.0)?;
        range("lr", self.lr, 0.0, 10.0)?;
        if self.lr == 0.0 {
            return Err(TheoryError::NotPositive { field: "lr" });
        }
        range("eps", self.eps, 0.0, 1.0)?;
        if self.eps == 0.0 {
            return Err(TheoryError::NotPositive { field: "eps" });
        }
        range("steps", self.steps as f64, 1.0, MAX_STEPS as f64)?;
        // At most the clean samples: the twin's batches are drawn from them alone.
        range("batch_size", self.batch_size as f64, 2.0, (2 * self.per_class) as f64)
    }
}

/// What is wrong with a [`TheoryConfig`]. Its words are `spotlight-i18n`'s
/// (`say::notice::theory_error`: the page in its language, the CLI in English).
#[derive(Clone, Debug, PartialEq)]
pub enum TheoryError {
    /// A field that is NaN or infinite.
    NotFinite { field: &'static str },
    /// A field outside `min..=max`.
    OutOfRange { field: &'static str, value: f64, min: f64, max: f64 },
    /// A field that must be above 0.
    NotPositive { field: &'static str },
}

/// The variant and its values, not a sentence (`NotPositive { field: "lr" }`).
impl std::fmt::Display for TheoryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}
