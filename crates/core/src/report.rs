//! The one [`Report`]: what the app draws and the CLI writes as JSON.

use serde::{Deserialize, Serialize};

use crate::Config;
use crate::attack::Roc;
use crate::config::Variant;
use crate::data::transforms::SampleKind;

/// An experiment's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub config: Config,
    /// Which backend ran (e.g. "ndarray (CPU)", "wgpu: google/swiftshader").
    pub backend: String,
    /// One per trained model, in `Config::variants` order (`norm`'s, BN + regularizer, `versus`'s
    /// in compare mode). Each model's `epochs` start
    /// with epoch 0, the untrained model.
    pub runs: Vec<ModelRun>,
}

/// One model's training.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelRun {
    pub batch_norm: bool,
    /// Which model of the experiment this is (absent in reports written before a comparison could
    /// hold three models: read as `Config::variant` of BN or none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<Variant>,
    pub epochs: Vec<EpochRecord>,
    /// Read-outs on a small fixed sample, `Config::live_points` times per epoch and at every
    /// epoch's end (from epoch 0): the curves that move while the model trains.
    #[serde(default)]
    pub live: Vec<LivePoint>,
    /// Why training stopped early (e.g. a non-finite loss), if it did.
    pub error: Option<RunError>,
    /// The membership attacks on this model (when `shadow_models` ≥ 2).
    #[serde(default)]
    pub attack: Option<AttackReport>,
    /// Why the attack could not run, if it could not.
    #[serde(default)]
    pub attack_error: Option<RunError>,
}

/// Why training stopped.
#[derive(Clone, Debug, PartialEq)]
pub enum TrainError {
    /// The loss became NaN or infinite.
    NonFinite { epoch: usize, step: usize, value: f64 },
    /// The backend failed (e.g. a lost GPU device).
    Backend(String),
}

impl std::fmt::Display for TrainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NonFinite { epoch, step, value } => {
                write!(
                    f,
                    "training stopped: the loss became {value} at epoch {epoch}, step {step}; try a lower learning rate"
                )
            }
            Self::Backend(m) => write!(f, "training stopped: the backend failed: {m}"),
        }
    }
}

impl std::error::Error for TrainError {}

/// Why a model's training or its attack stopped. Kept in the report, the workers' messages and
/// the files tagged by its kind; the page and the CLI write it with `spotlight-i18n`'s words
/// (`say::run::run_error`, by kind). Its `Display` is the sentence older files stored, read back by
/// [`RunError::read`] (its inverse): a file format, which does not change when those words do.
#[derive(Clone, Debug, PartialEq)]
pub enum RunError {
    /// Training stopped: a non-finite loss, or the backend failed.
    Train(TrainError),
    /// A training worker was given a job before the experiment's data.
    JobBeforeData,
    /// A training worker was asked for an attack before the experiment's data.
    AttackBeforeData,
    /// The attack was given no trained target model.
    NothingToAttack,
    /// Anything else, as its text (e.g. why the attack's statistics could not be computed).
    Other(String),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Train(e) => write!(f, "{e}"),
            Self::JobBeforeData => f.write_str("a job before the data"),
            Self::AttackBeforeData => f.write_str("an attack before the data"),
            Self::NothingToAttack => f.write_str("nothing to attack"),
            Self::Other(text) => f.write_str(text),
        }
    }
}

impl std::error::Error for RunError {}

impl From<TrainError> for RunError {
    fn from(e: TrainError) -> Self {
        Self::Train(e)
    }
}

impl RunError {
    /// The error a text written by `Display` stands for; any other text is `Other`, so reading a
    /// text and writing it again gives the same text.
    pub fn read(text: &str) -> Self {
        let e = Self::parse(text);
        if e.to_string() == text { e } else { Self::Other(text.to_string()) }
    }

    fn parse(text: &str) -> Self {
        if let Some(rest) = text.strip_prefix("training stopped: the loss became ")
            && let Some(rest) = rest.strip_suffix("; try a lower learning rate")
            && let Some((value, rest)) = rest.split_once(" at epoch ")
            && let Some((epoch, step)) = rest.split_once(", step ")
            && let (Ok(value), Ok(epoch), Ok(step)) = (value.parse(), epoch.parse(), step.parse())
        {
            return Self::Train(TrainError::NonFinite { epoch, step, value });
        }
        if let Some(m) = text.strip_prefix("training stopped: the backend failed: ") {
            return Self::Train(TrainError::Backend(m.to_string()));
        }
        [Self::JobBeforeData, Self::AttackBeforeData, Self::NothingToAttack]
            .into_iter()
            .find(|e| e.to_string() == text)
            .unwrap_or_else(|| Self::Other(text.to_string()))
    }
}

/// How a [`RunError`] is stored: tagged by its kind (a non-finite value as its text, since JSON has
/// no NaN or infinity). Older files hold the English sentence, which still reads back.
#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum StoredError {
    NonFinite { epoch: usize, step: usize, value: String },
    Backend { message: String },
    JobBeforeData,
    AttackBeforeData,
    NothingToAttack,
    Other { message: String },
}

#[derive(Deserialize)]
#[serde(untagged)]
enum StoredOrText {
    Stored(StoredError),
    Text(String),
}

impl Serialize for RunError {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.clone() {
            Self::Train(TrainError::NonFinite { epoch, step, value }) => {
                StoredError::NonFinite { epoch, step, value: value.to_string() }
            }
            Self::Train(TrainError::Backend(message)) => StoredError::Backend { message },
            Self::JobBeforeData => StoredError::JobBeforeData,
            Self::AttackBeforeData => StoredError::AttackBeforeData,
            Self::NothingToAttack => StoredError::NothingToAttack,
            Self::Other(message) => StoredError::Other { message },
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for RunError {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match StoredOrText::deserialize(d)? {
            StoredOrText::Text(text) => Self::read(&text),
            StoredOrText::Stored(e) => match e {
                StoredError::NonFinite { epoch, step, value } => {
                    let value = value
                        .parse()
                        .map_err(|_| serde::de::Error::custom(format!("not a number: {value}")))?;
                    Self::Train(TrainError::NonFinite { epoch, step, value })
                }
                StoredError::Backend { message } => Self::Train(TrainError::Backend(message)),
                StoredError::JobBeforeData => Self::JobBeforeData,
                StoredError::AttackBeforeData => Self::AttackBeforeData,
                StoredError::NothingToAttack => Self::NothingToAttack,
                StoredError::Other { message } => Self::Other(message),
            },
        })
    }
}

impl ModelRun {
    /// A model's run before it has measured anything.
    pub fn new(variant: Variant) -> Self {
        Self {
            batch_norm: variant.batch_norm(),
            variant: Some(variant),
            epochs: Vec::new(),
            live: Vec::new(),
            error: None,
            attack: None,
            attack_error: None,
        }
    }

    /// Keeps what a target model's unit of work measured.
    pub fn record(&mut self, readout: Readout) {
        self.live.extend(readout.live);
        self.epochs.extend(readout.epoch);
    }

    /// The last epoch's record.
    pub fn last(&self) -> Option<&EpochRecord> {
        self.epochs.last().filter(|e| e.epoch > 0)
    }

    /// The trained epochs (1, 2, …), without the epoch-0 measurement.
    pub fn trained(&self) -> impl Iterator<Item = &EpochRecord> {
        self.epochs.iter().filter(|e| e.epoch > 0)
    }

    /// The epoch-0 measurement (before any step), if taken.
    pub fn initial(&self) -> Option<&EpochRecord> {
        self.epochs.first().filter(|e| e.epoch == 0)
    }

    /// The mechanism at the last epoch: the median self-influence of one step of the run's
    /// optimizer on the noisy and on the clean probes, and how the scale-free gradients of the two
    /// groups rank. `None` if the run has no such measure (older reports, no probes).
    pub fn mechanism_summary(&self) -> Option<MechanismSummary> {
        let m = self.last()?.mechanism.as_ref()?;
        Some(MechanismSummary {
            noisy: median(&m.influence_run.noisy)?,
            clean: median(&m.influence_run.clean)?,
            scaled_auc: m.scaled_grad.noisy_above_clean(),
        })
    }
}

/// [`ModelRun::mechanism_summary`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MechanismSummary {
    /// Median self-influence (margin growth per unit learning rate), noisy and clean probes.
    pub noisy: f64,
    pub clean: f64,
    /// The chance that a noisy probe's scale-free gradient is above a clean one's.
    pub scaled_auc: Option<f64>,
}

impl MechanismSummary {
    /// noisy / clean (`None` unless both are positive).
    pub fn ratio(&self) -> Option<f64> {
        (self.noisy > 0.0 && self.clean > 0.0).then(|| self.noisy / self.clean)
    }
}

/// [`Report::bridge`]: at one epoch, the theory lab's comparison in LeNet.
#[derive(Clone, Debug, PartialEq)]
pub struct BridgeRow {
    pub epoch: usize,
    /// Π over the BN model's BN layers of (median_c γ_c/σ_c with the batch σ)²: what the theorem
    /// would multiply a step's progress by if each layer's factor applied in turn.
    pub predicted: f64,
    /// Median self-influence of one plain-SGD step, BN model ÷ no-BN model, on the noisy probes and
    /// on the clean ones (`None` unless both medians are positive).
    pub noisy: Option<f64>,
    pub clean: Option<f64>,
}

/// [`Report::memorized`]: per model, how many of the `of` outliers (flipped members, or OOD ones
/// when `ood`) it fits by their given label, at `epoch` (the earliest latest epoch of the models).
#[derive(Clone, Debug, PartialEq)]
pub struct Memorized {
    pub ood: bool,
    pub of: usize,
    pub epoch: usize,
    pub models: Vec<(Variant, usize)>,
}

/// What one epoch measured. Accuracies are fractions in [0, 1]; `None` where the group is empty.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpochRecord {
    /// 1-based.
    pub epoch: usize,
    /// Mean training cross-entropy over the epoch's steps (without the regularizer).
    pub train_loss: f64,
    /// Mean γ/σ penalty over the epoch's steps (BN models; without λ).
    pub penalty: Option<f64>,
    /// Accuracy on clean training samples w.r.t. their labels.
    pub acc_clean: Option<f64>,
    /// Accuracy on flipped samples w.r.t. their *flipped* labels: memorization.
    pub acc_flipped: Option<f64>,
    /// Fraction of flipped samples predicted as their original class.
    pub flipped_as_true: Option<f64>,
    /// Accuracy on OOD samples w.r.t. their random labels: memorization.
    pub acc_ood: Option<f64>,
    /// Accuracy on the test set.
    pub acc_test: f64,
    /// γ/σ per BN layer (empty without BN).
    pub gamma_sigma: Vec<LayerGammaSigma>,
    /// Per-sample gradient L2 norms of the probe sets.
    pub grad_norms: GradNorms,
    /// The mechanism's measures (absent in older reports and on shadow models).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mechanism: Option<Mechanism>,
    /// The planted canary, when the config has one (target models).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub canary: Option<CanaryPoint>,
}

/// What a model made of the canary at an epoch's end.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CanaryPoint {
    /// The class the model predicts for it.
    pub predicted: u8,
    /// The probability the model gives the label it was planted with.
    pub p_label: f64,
    /// Its per-sample gradient norm inside a training batch (as the probes').
    pub grad_norm: f32,
}

/// What the attack made of the canary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CanaryScore {
    /// Its LiRA (online) score: the log-likelihood ratio of IN over OUT.
    pub score: f64,
    /// The attacker's confidence that it was a member ([`crate::canary::member_confidence`]).
    pub confidence: f64,
    /// Its place among all candidates by score, 1 the most exposed.
    pub rank: usize,
    pub candidates: usize,
    /// The median confidence over the clean members and over the non-members, for comparison.
    pub median_clean_member: f64,
    pub median_non_member: f64,
    /// The share of non-members whose LiRA score is below the canary's (absent in older reports).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub above_non_members: Option<f64>,
    /// Its place among the members by score, 1 the most exposed — where it stands in the gallery
    /// of exposed members (absent in older reports).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub member_rank: Option<usize>,
    /// How the attack scored it ([`SampleLira`]; absent in older reports).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lira: Option<SampleLira>,
}

/// One candidate as LiRA saw it: the target model's φ (its logit-scaled confidence in the label
/// it was trained with), the φ each shadow model gave it — those that trained on it (IN) and those
/// that did not (OUT) —, the Gaussians the attack fitted to them, and the online score they give.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SampleLira {
    pub phi: f64,
    pub phi_in: Vec<f64>,
    pub phi_out: Vec<f64>,
    pub fitted: crate::attack::Fitted,
    /// The online score, log N(φ; IN) − log N(φ; OUT): the attack's own number for it.
    pub online: f64,
    /// The attacked model's loss and margin on it at each measured epoch (0: untrained), when the
    /// run kept them ([`crate::jobs::TRACE_MAX`]; absent in older reports).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<SampleEpoch>,
}

/// A member's loss and margin at one epoch's end (the model in inference mode, as the accuracies).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SampleEpoch {
    pub epoch: usize,
    /// Cross-entropy on the label it was trained with.
    pub loss: f32,
    /// Its label's logit minus the largest other: above 0, the model predicts its label.
    pub margin: f32,
}

impl CanaryScore {
    /// Whether the attacker would call the drawing a member at the attack's 1 % false-positive
    /// operating point (the one the page reports): it scores above at least 99 % of the non-members.
    /// `None` for an older report that does not say.
    pub fn likely_member(&self) -> Option<bool> {
        self.above_non_members.map(|a| a >= 0.99)
    }
}

/// A read-out taken while a model trains, on a fixed sample of the pool (the same sample for the
/// BN and the no-BN model): up to [`crate::train::LIVE_SAMPLE`] noisy members, as many clean
/// members and as many non-members. Cheap enough to take several times per epoch; the epoch
/// records measure the whole sets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LivePoint {
    /// Epochs trained so far (1.25: a quarter into the second epoch; 0: untrained).
    pub at: f64,
    /// Accuracy on the sample's noisy (flipped or OOD) members w.r.t. their given labels:
    /// memorization.
    pub acc_noisy: Option<f64>,
    /// Accuracy on the sample's clean members.
    pub acc_clean: Option<f64>,
    /// AUC of the loss-threshold attack (a lower loss says "member"): the sample's members, each
    /// group weighted by the share of the members it stands for, against its non-members. `None`
    /// without non-members (attack off).
    pub loss_auc: Option<f64>,
}

/// What one unit of a target model's training measured: a live read-out when one was due, the
/// epoch's record when the unit ended an epoch.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Readout {
    pub live: Option<LivePoint>,
    pub epoch: Option<EpochRecord>,
}

/// γ/σ of one BN layer, at the epoch's end (epoch 0: before any step). "Batch σ" is the batch
/// standard deviation √(Var_B + ε) on the trainer's fixed measurement batch (the paper's σ),
/// with the running statistics left alone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LayerGammaSigma {
    pub layer: String,
    /// mean_c |γ_c| / σ_c with the batch σ.
    pub batch: f64,
    /// median_c |γ_c| / σ_c with the batch σ (what claim (d) decides on: a few near-zero-variance
    /// channels cannot carry it).
    pub batch_median: f64,
    /// Fraction of channels whose batch γ/σ is above 1.
    pub frac_above_one: f64,
    /// mean_c |γ_c| / σ_c with the running σ (what inference divides by).
    pub running: f64,
    /// mean_c |γ_c|.
    pub mean_gamma: f64,
    /// Mean over the epoch's training steps of mean_c |γ_c| / σ_c with each step's batch σ
    /// (`None` at epoch 0).
    #[serde(default)]
    pub steps: Option<f64>,
}

/// One value per probe sample, the clean probes and the noisy (flipped or OOD) ones.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProbeValues {
    pub clean: Vec<f32>,
    /// Flipped and OOD samples.
    pub noisy: Vec<f32>,
}

impl ProbeValues {
    /// The AUC of the noisy values against the clean ones: the chance that a noisy probe's value
    /// is above a clean one's (ties count half); `None` if a group is empty.
    pub fn noisy_above_clean(&self) -> Option<f64> {
        if self.noisy.is_empty() || self.clean.is_empty() {
            return None;
        }
        let mut above = 0.0;
        for &n in &self.noisy {
            for &c in &self.clean {
                above += if n > c {
                    1.0
                } else if n == c {
                    0.5
                } else {
                    0.0
                };
            }
        }
        Some(above / (self.noisy.len() * self.clean.len()) as f64)
    }
}

/// Per-sample gradient L2 norms, ‖∇_θ ℓ(x, y)‖₂ over all parameters, of each probe sample's own
/// loss inside a training batch (BN on batch statistics; see `train.rs`). Raw norms of a BN and a
/// no-BN model cannot be compared (a weight feeding BN gets a gradient ∝ 1/‖W‖): the
/// [`Mechanism`] measures are the ones to compare.
pub type GradNorms = ProbeValues;

/// The paper's mechanism, measured on the probe sets at an epoch's end (`train.rs` says how).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Mechanism {
    /// Self-influence of one step, plain SGD: the growth of the probe's own margin (logit of its
    /// label minus the largest other) over one step on a training batch that holds it, minus the
    /// growth over the same step with the probe swapped for a clean member, per unit learning rate.
    /// Margins are logits: comparable across architectures.
    pub influence_sgd: ProbeValues,
    /// The same, with the run's own optimizer from its current state (Adam's moments, SGD's
    /// momentum).
    pub influence_run: ProbeValues,
    /// The gradient made scale-free, per unit of error: √Σ_l (‖W_l‖·‖∇_{W_l} ℓ‖)² over the
    /// weight matrices and filters, divided by ‖softmax(z) − e_y‖. Compared within a model
    /// (noisy against clean), by rank.
    pub scaled_grad: ProbeValues,
    /// Per BN layer, −Σ_c sign(γ_c)·∂ℓ/∂γ_c of the probe's own loss: positive when a descent
    /// step on this sample alone grows |γ| (empty without BN).
    pub gamma_push: Vec<ProbeValues>,
}

/// The median of values (`None` if empty).
pub fn median(values: &[f32]) -> Option<f64> {
    median_of(values.iter().map(|&x| f64::from(x)).collect())
}

/// The median of `v` (the mean of the middle two for an even count); `None` when empty.
pub fn median_of(mut v: Vec<f64>) -> Option<f64> {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    (n > 0).then(|| if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 })
}

impl Report {
    /// The theory lab's bridge to LeNet, epoch by epoch where the BN and the no-BN model both
    /// measured: the product over the BN layers of (γ/σ)² against the measured ratio of one SGD
    /// step's growth of a probe's own margin, BN ÷ no-BN (two trained models: their weights differ,
    /// not only their BN). Empty without both models or without the mechanism's measures.
    pub fn bridge(&self) -> Vec<BridgeRow> {
        let find = |v: Variant| self.runs.iter().find(|r| self.variant(r) == v);
        let (Some(bn), Some(plain)) = (find(Variant::Bn), find(Variant::Plain)) else {
            return Vec::new();
        };
        let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) if a > 0.0 && b > 0.0 => Some(a / b),
            _ => None,
        };
        bn.epochs
            .iter()
            .filter(|e| !e.gamma_sigma.is_empty())
            .filter_map(|e| {
                let p = plain.epochs.iter().find(|p| p.epoch == e.epoch)?;
                let (mb, mp) = (e.mechanism.as_ref()?, p.mechanism.as_ref()?);
                let predicted = e.gamma_sigma.iter().map(|l| l.batch_median.powi(2)).product();
                let of = |m: &Mechanism, noisy: bool| {
                    median(if noisy { &m.influence_sgd.noisy } else { &m.influence_sgd.clean })
                };
                Some(BridgeRow {
                    epoch: e.epoch,
                    predicted,
                    noisy: ratio(of(mb, true), of(mp, true)),
                    clean: ratio(of(mb, false), of(mp, false)),
                })
            })
            .collect()
    }

    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a Report always serializes")
    }

    /// The per-epoch curves as CSV, one row per model and epoch (empty cells where a group is empty).
    pub fn to_csv(&self) -> String {
        let mut s = String::from(
            "model,epoch,train_loss,penalty,acc_clean,acc_flipped,flipped_as_true,acc_ood,acc_test,median_grad_clean,median_grad_noisy\n",
        );
        let cell = |v: Option<f64>| v.map_or(String::new(), |x| format!("{x}"));
        for run in &self.runs {
            let model = self.variant(run).key();
            for e in &run.epochs {
                s.push_str(&format!(
                    "{model},{},{},{},{},{},{},{},{},{},{}\n",
                    e.epoch,
                    e.train_loss,
                    cell(e.penalty),
                    cell(e.acc_clean),
                    cell(e.acc_flipped),
                    cell(e.flipped_as_true),
                    cell(e.acc_ood),
                    e.acc_test,
                    cell(median(&e.grad_norms.clean)),
                    cell(median(&e.grad_norms.noisy)),
                ));
            }
        }
        s
    }

    /// Which variant a run of this report is.
    pub fn variant(&self, run: &ModelRun) -> Variant {
        let norm = crate::config::Norm::from(run.batch_norm);
        run.variant.unwrap_or_else(|| self.config.variant(norm))
    }

    /// How many things went wrong: each model's training error and its attack's count one. Zero
    /// when every model trained and was attacked as asked. (In words, per model:
    /// `spotlight_i18n::say::run::failures`.)
    pub fn failures(&self) -> usize {
        self.runs
            .iter()
            .map(|r| r.error.is_some() as usize + r.attack_error.is_some() as usize)
            .sum()
    }

    /// What each model has memorized by its latest epoch: of the members only memorization fits
    /// (the flipped ones; the OOD ones when no label is flipped), how many it gets "right" by
    /// their given label. `None` before any trained epoch, or without such members.
    pub fn memorized(&self) -> Option<Memorized> {
        let c = &self.config;
        let flipped = crate::data::transforms::count_for(c.label_noise, c.train_size);
        let (ood, of) = if flipped > 0 {
            (false, flipped)
        } else {
            (true, crate::data::transforms::count_for(c.ood_fraction, c.train_size))
        };
        // The models side by side at one epoch: the latest every model still training has reached
        // (a model that stopped with an error is counted where it stopped, and does not hold the
        // others back).
        let epoch = self
            .runs
            .iter()
            .filter(|r| r.error.is_none())
            .filter_map(|r| r.last().map(|e| e.epoch))
            .min()?;
        let models: Vec<(Variant, usize)> = self
            .runs
            .iter()
            .filter_map(|run| {
                let e = run.trained().filter(|e| e.epoch <= epoch).last()?;
                let acc = if ood { e.acc_ood } else { e.acc_flipped }?;
                Some((self.variant(run), (acc * of as f64).round() as usize))
            })
            .collect();
        (of > 0 && !models.is_empty()).then_some(Memorized { ood, of, epoch, models })
    }

    /// A compact copy for a page to draw before its first run (the lenses "measured earlier"): the
    /// same numbers, without the exposed members' images and the canary, each ROC curve thinned to
    /// at most one point per 1/20 of a decade of false-positive rate (its log-log chart cannot show
    /// more), its AUC and low-FPR rates kept as measured.
    pub fn preview(&self) -> Report {
        let thin = |roc: &mut Roc| {
            let mut last = i64::MIN;
            let n = roc.points.len();
            roc.points = std::mem::take(&mut roc.points)
                .into_iter()
                .enumerate()
                .filter(|&(i, (fpr, _))| {
                    let bucket = (20.0 * fpr.max(1e-4).log10()).floor() as i64;
                    let keep = i == 0 || i + 1 == n || bucket != last;
                    last = bucket;
                    keep
                })
                .map(|(_, p)| p)
                .collect();
        };
        let mut r = self.clone();
        r.config.canary.clear();
        for run in &mut r.runs {
            for e in &mut run.epochs {
                e.canary = None;
            }
            if let Some(a) = &mut run.attack {
                a.exposed.clear();
                a.canary = None;
                for roc in [&mut a.loss, &mut a.lira_online, &mut a.lira_offline] {
                    thin(roc);
                }
                if let Some(roc) = &mut a.lira_noisy {
                    thin(roc);
                }
            }
        }
        r
    }

    /// BN's flipped-label accuracy at its last epoch minus no-BN's (`None` without both, or without
    /// flipped members): the lesson of a default run in one number.
    pub fn flipped_gap(&self) -> Option<f64> {
        let at_end = |v| self.run(v).and_then(ModelRun::last).and_then(|e| e.acc_flipped);
        Some(at_end(Variant::Bn)? - at_end(Variant::Plain)?)
    }

    /// The run of one model, if trained.
    pub fn run(&self, variant: Variant) -> Option<&ModelRun> {
        self.runs.iter().find(|r| self.variant(r) == variant)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report of GroupNorm and LayerNorm models round-trips through JSON, each run its variant.
    #[test]
    fn a_groupnorm_report_round_trips() {
        let config = Config {
            norm: crate::config::Norm::Group,
            versus: crate::config::Norm::Layer,
            groups: 3,
            ..Config::default()
        };
        let runs = config.variants().into_iter().map(ModelRun::new).collect();
        let r = Report { config, backend: "test".into(), runs };
        let back: Report = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
        assert_eq!(back, r);
        let variants: Vec<Variant> = back.runs.iter().map(|run| back.variant(run)).collect();
        assert_eq!(variants, [Variant::Gn, Variant::Ln]);
    }

    #[test]
    fn median_of_odd_even_and_empty() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn memorized_counts_the_outliers_each_model_fits() {
        fn epoch(epoch: usize, acc: Option<f64>) -> EpochRecord {
            EpochRecord {
                epoch,
                train_loss: 0.1,
                penalty: None,
                acc_clean: Some(1.0),
                acc_flipped: acc,
                flipped_as_true: None,
                acc_ood: None,
                acc_test: 0.9,
                gamma_sigma: Vec::new(),
                grad_norms: GradNorms::default(),
                mechanism: None,
                canary: None,
            }
        }
        let run = |v, acc: Option<f64>| ModelRun {
            epochs: vec![epoch(0, None), epoch(3, acc)],
            ..ModelRun::new(v)
        };
        let config =
            Config { train_size: 1000, label_noise: 0.15, regularizer: true, ..Config::default() };
        let r = Report {
            config,
            backend: "t".into(),
            runs: vec![
                run(Variant::Bn, Some(0.274)),
                run(Variant::BnReg, Some(0.02)),
                run(Variant::Plain, Some(0.0)),
            ],
        };
        let m = r.memorized().unwrap();
        assert_eq!((m.ood, m.of, m.epoch), (false, 150, 3));
        assert_eq!(m.models, [(Variant::Bn, 41), (Variant::BnReg, 3), (Variant::Plain, 0)]);
        let clean = Report { config: Config { label_noise: 0.0, ..r.config.clone() }, ..r.clone() };
        assert_eq!(clean.memorized(), None, "no outliers, nothing to count");
        let untrained = Report {
            runs: r
                .runs
                .iter()
                .map(|x| ModelRun { epochs: vec![epoch(0, None)], ..x.clone() })
                .collect(),
            ..r.clone()
        };
        assert_eq!(untrained.memorized(), None);
        // Workers in parallel: BN is an epoch ahead; both are counted at the epoch both reached.
        let mut ahead = r.clone();
        ahead.runs.truncate(1);
        ahead.runs.push(ModelRun {
            epochs: vec![epoch(0, None), epoch(3, Some(0.1))],
            ..ModelRun::new(Variant::Plain)
        });
        ahead.runs[0].epochs.push(epoch(4, Some(0.9)));
        let m = ahead.memorized().unwrap();
        assert_eq!((m.epoch, m.models.clone()), (3, vec![(Variant::Bn, 41), (Variant::Plain, 15)]));
        // A model that stopped does not hold the others back.
        ahead.runs[1].error = Some(RunError::Other("diverged".into()));
        assert_eq!(ahead.memorized().unwrap().epoch, 4);
    }

    /// The bridge pairs the BN and the no-BN model epoch by epoch: Π(γ/σ)² from the BN model's
    /// layers, the influence ratio from both models' probes.
    #[test]
    fn the_bridge_compares_the_product_with_the_measured_ratio() {
        let r: Report =
            serde_json::from_str(include_str!("../../../results/default-cpu.json")).unwrap();
        let rows = r.bridge();
        assert_eq!(rows.len(), r.config.epochs + 1, "epoch 0 and every epoch");
        let bn = r.runs.iter().find(|x| r.variant(x) == Variant::Bn).unwrap();
        for (row, e) in rows.iter().zip(&bn.epochs) {
            assert_eq!(row.epoch, e.epoch);
            let product: f64 = e.gamma_sigma.iter().map(|l| l.batch_median.powi(2)).product();
            assert!((row.predicted - product).abs() < 1e-12 * product && product > 0.0);
            let m = e.mechanism.as_ref().unwrap();
            let plain = r.runs.iter().find(|x| r.variant(x) == Variant::Plain).unwrap();
            let pm = plain.epochs[row.epoch].mechanism.as_ref().unwrap();
            let (a, b) = (median(&m.influence_sgd.noisy), median(&pm.influence_sgd.noisy));
            match (a, b) {
                (Some(a), Some(b)) if a > 0.0 && b > 0.0 => {
                    assert!((row.noisy.unwrap() - a / b).abs() < 1e-12 * a / b);
                }
                _ => assert_eq!(row.noisy, None),
            }
        }
        // Without the no-BN model there is nothing to compare with.
        let mut alone = r.clone();
        alone.runs.retain(|x| r.variant(x) == Variant::Bn);
        assert!(alone.bridge().is_empty());
    }

    /// The page's lenses before its first run draw `results/default-cpu.json`: a preview of the
    /// CPU default's run, complete (every model trained and attacked).
    #[test]
    fn the_pages_measured_earlier_report_is_the_cpu_default() {
        let r: Report =
            serde_json::from_str(include_str!("../../../results/default-cpu.json")).unwrap();
        assert_eq!(
            r.config,
            Config::for_backend(false),
            "rerun: spotlight run --link 'train_size=1000&epochs=6&probe_size=16' --preview results/default-cpu.json"
        );
        assert!(
            r.failures() == 0
                && r.runs.len() == 2
                && r.runs.iter().all(|x| x.attack.is_some() && x.last().is_some())
        );
        assert!(
            r.runs.iter().all(|x| x.attack.as_ref().unwrap().lira_online.points.len() < 400),
            "a preview's ROC is thinned"
        );
        assert_eq!(r.preview(), r, "a preview of a preview is itself");
    }

    #[test]
    fn failures_count_each_model_and_each_attack() {
        let run = |bn, error: Option<&str>, attack_error: Option<&str>| ModelRun {
            error: error.map(RunError::read),
            attack_error: attack_error.map(RunError::read),
            ..ModelRun::new(Variant::unregularized(bn))
        };
        let mut r = Report {
            config: Config::default(),
            backend: "t".into(),
            runs: vec![run(true, None, None), run(false, None, None)],
        };
        assert_eq!(r.failures(), 0);
        r.runs[1] = run(false, Some("loss is NaN"), None);
        r.runs[0] = run(true, None, Some("no shadow"));
        assert_eq!(r.failures(), 2);
        r.runs[1] = run(false, Some("loss is NaN"), Some("no shadow"));
        assert_eq!(r.failures(), 3);
    }

    #[test]
    fn a_run_error_reads_back_from_its_text_and_keeps_its_json() {
        let cases = [
            RunError::Train(TrainError::NonFinite { epoch: 3, step: 17, value: f64::INFINITY }),
            RunError::Train(TrainError::NonFinite { epoch: 1, step: 0, value: -1.5e300 }),
            RunError::Train(TrainError::Backend("device lost: destroyed".into())),
            RunError::JobBeforeData,
            RunError::AttackBeforeData,
            RunError::NothingToAttack,
            RunError::Other("the ROC needs members and non-members".into()),
        ];
        for e in cases {
            let text = e.to_string();
            assert_eq!(RunError::read(&text), e, "{text}");
            let json = serde_json::to_string(&e).unwrap();
            assert!(json.starts_with("{\"kind\":"), "stored by its kind: {json}");
            assert_eq!(serde_json::from_str::<RunError>(&json).unwrap(), e, "{json}");
            // An older file's sentence reads back as the same error.
            assert_eq!(
                serde_json::from_str::<RunError>(&serde_json::to_string(&text).unwrap()).unwrap(),
                e
            );
        }
        // NaN is not equal to itself: the text round-trips.
        let nan = RunError::Train(TrainError::NonFinite { epoch: 2, step: 5, value: f64::NAN });
        assert!(
            matches!(RunError::read(&nan.to_string()), RunError::Train(TrainError::NonFinite { epoch: 2, step: 5, value }) if value.is_nan())
        );
        assert_eq!(
            nan.to_string(),
            "training stopped: the loss became NaN at epoch 2, step 5; try a lower learning rate"
        );
        // A text that only looks like one of ours is kept as it is.
        for text in [
            "training stopped: the loss became big at epoch 2, step 5; try a lower learning rate",
            "training stopped: the loss became +inf at epoch 2, step 5; try a lower learning rate",
            "training stopped: the loss became 1e5 at epoch +2, step 5; try a lower learning rate",
            "nothing to attack!",
        ] {
            assert_eq!(RunError::read(text), RunError::Other(text.into()));
        }
    }
}

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
    /// LiRA (online) on the noisy candidates alone: flipped and OOD members vs flipped and OOD
    /// non-members (`None` without noisy samples on both sides).
    #[serde(default)]
    pub lira_noisy: Option<Roc>,
    /// Mean LiRA (online) score by kind, of members and of non-members.
    pub group_means: Vec<GroupMean>,
    /// The members LiRA is most sure of, most sure first.
    pub exposed: Vec<Exposed>,
    /// The planted canary, when the config has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub canary: Option<CanaryScore>,
    /// Online LiRA's exact ROC point at each of [`ROC_STEPS`] (the one with the largest FPR not
    /// above it), kept before the curve is thinned for drawing (empty in older reports).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<(f64, f64)>,
    /// What more shadow models buy: the attack redone with the first 2, 3, … K of the shadows
    /// already trained (none in a report written before it was measured).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<crate::attack::BudgetCurve>,
}

/// The false-positive rates the page steps the ROC through (log-spaced, 0.1 % to all).
pub const ROC_STEPS: [f64; 10] = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0];

/// What the attack flags at one point of its ROC curve ([`AttackReport::flags_at`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flags {
    /// The point: its false- and true-positive rates.
    pub fpr: f64,
    pub tpr: f64,
    /// Non-members wrongly flagged, and members flagged.
    pub false_positives: usize,
    pub flagged: usize,
    /// How many of the flagged members the report holds (the first of [`AttackReport::exposed`]:
    /// the members the attack is surest of, in its own order).
    pub shown: usize,
}

impl AttackReport {
    /// Where online LiRA stands when the attacker accepts false-positive rate `fpr`: the point of
    /// its ROC curve with the largest FPR not above it (exact at [`ROC_STEPS`]), and the members
    /// and non-members it flags there.
    pub fn flags_at(&self, fpr: f64) -> Flags {
        // The exact point where the report kept it, else the drawn (thinned) curve's.
        let exact = ROC_STEPS.iter().position(|&f| f == fpr).and_then(|i| self.steps.get(i));
        let (f, t) = exact.copied().unwrap_or_else(|| point_at(&self.lira_online.points, fpr));
        let flagged = (t * self.members as f64).round() as usize;
        Flags {
            fpr: f,
            tpr: t,
            false_positives: (f * self.non_members as f64).round() as usize,
            flagged,
            shown: flagged.min(self.exposed.len()),
        }
    }
}

/// The point of an ROC curve with the largest FPR not above `fpr` (the highest TPR there).
pub fn point_at(points: &[(f64, f64)], fpr: f64) -> (f64, f64) {
    points
        .iter()
        .copied()
        .filter(|&(f, _)| f <= fpr + 1e-12)
        .max_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)))
        .unwrap_or((0.0, 0.0))
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
    /// The dataset's label (`None` for an OOD image: it belongs to no class).
    pub true_label: Option<u8>,
    pub score: f64,
    /// The (possibly OOD) training image, row-major u8.
    pub pixels: Vec<u8>,
    /// How the attack scored it (absent in older reports).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lira: Option<SampleLira>,
}
