//! The one experiment [`Config`]: what the app's controls set, what a share link encodes, what the
//! CLI reads from JSON. Validation names the bad field and its allowed range.

use std::fmt;

pub use crate::fields::{BASIC, FIELDS, Field, Kind, Range, Read, field, range_of};
use serde::{Deserialize, Serialize};

/// Which dataset to train on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DatasetName {
    Mnist,
    Fashion,
}

impl DatasetName {
    /// The asset's file name under `public/data/`.
    pub fn asset_file(self) -> &'static str {
        match self {
            Self::Mnist => "mnist.spds.gz",
            Self::Fashion => "fashion.spds.gz",
        }
    }

    /// The image rows, columns and classes of the dataset (both are 28×28 in 10 classes), which
    /// the models are built for.
    pub fn shape(self) -> (usize, usize, u8) {
        (28, 28, 10)
    }

    /// Decodes the dataset's asset (gzip'd or not) and checks that it has the expected shape:
    /// the one way the app and the CLI read an asset. `source` names it in errors.
    pub fn decode(
        self,
        source: &str,
        bytes: &[u8],
    ) -> Result<crate::data::Dataset, crate::data::DataError> {
        let d = crate::data::Dataset::decode(source, bytes)?;
        let (rows, cols, classes) = self.shape();
        d.check_shape(source, rows, cols, classes)?;
        Ok(d)
    }

    /// The other dataset, used as the OOD source with [`OodSourceName::Other`].
    pub fn other(self) -> Self {
        match self {
            Self::Mnist => Self::Fashion,
            Self::Fashion => Self::Mnist,
        }
    }
}

/// Where OOD images come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OodSourceName {
    /// Each OOD image is a training image with its pixels shuffled.
    Shuffle,
    /// OOD images are taken from the other dataset (Fashion-MNIST in an MNIST run and back).
    Other,
}

/// The optimizer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OptimizerName {
    Adam,
    /// SGD with momentum 0.9.
    Sgd,
}

/// A model's normalization layers (after conv1, conv2, fc1 and fc2; see `model.rs`).
///
/// BatchNorm normalizes each channel by the statistics of the *batch*, so that one sample's scale
/// is set by the others; GroupNorm and LayerNorm by the statistics of the sample alone (LayerNorm
/// is GroupNorm with one group, each channel keeping its own γ and β, as in Wu & He 2018: our
/// choice for convolutions). A link's old `batch_norm=true|false` reads as `batch` or `none`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Norm {
    None,
    #[default]
    Batch,
    /// GroupNorm with `Config::groups` groups a layer.
    Group,
    Layer,
}

impl Norm {
    pub const ALL: [Norm; 4] = [Norm::None, Norm::Batch, Norm::Group, Norm::Layer];

    /// The serde names, in [`Norm::ALL`]'s order (the field table's choices).
    pub const NAMES: [&'static str; 4] = ["none", "batch", "group", "layer"];

    /// The serde name (`"batch"`, …).
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// Whether each sample is normalized by its own statistics (GroupNorm, LayerNorm).
    pub fn per_sample(self) -> bool {
        matches!(self, Self::Group | Self::Layer)
    }

    /// Whether a sample's output depends on the other samples of its batch (BatchNorm's batch
    /// statistics).
    pub fn couples_batch(self) -> bool {
        self == Self::Batch
    }

    /// The groups a layer of `channels` channels is split into, for `groups` asked: LayerNorm
    /// one, GroupNorm the largest count up to `groups` that divides `channels`, none otherwise.
    pub fn groups_for(self, groups: usize, channels: usize) -> usize {
        match self {
            Self::Layer => 1,
            Self::Group => (1..=groups.clamp(1, channels.max(1)))
                .rev()
                .find(|&g| channels.is_multiple_of(g))
                .unwrap_or(1),
            Self::None | Self::Batch => 0,
        }
    }
}

/// The old `batch_norm` boolean: BatchNorm or none.
impl From<bool> for Norm {
    fn from(batch_norm: bool) -> Self {
        if batch_norm { Self::Batch } else { Self::None }
    }
}

/// A `Norm` from its name or, as the old `batch_norm` field was, a boolean.
impl<'de> Deserialize<'de> for Norm {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Bool(bool),
            Name(String),
        }
        match Raw::deserialize(d)? {
            Raw::Bool(true) => Ok(Self::Batch),
            Raw::Bool(false) => Ok(Self::None),
            Raw::Name(n) => Self::ALL
                .into_iter()
                .find(|v| v.name() == n)
                .ok_or_else(|| serde::de::Error::unknown_variant(&n, &Self::NAMES)),
        }
    }
}

/// Which γ/σ regularizer (see `model.rs` for the formulas).
///
/// The default, `sigma` at λ = 0.05, was chosen by measurement (README, "Choosing the
/// regularizer"; `bench/regularizer_sweep.sh`): BN alone, 2,000 MNIST members, 5 % flipped, 6
/// epochs, seeds 1 and 2. Under Adam it cut flipped-label accuracy from 38–39 % to 2 % with test
/// accuracy 95.5 / 94.3 % against 95.3 / 93.7 % without it; `hinge` at the same λ left 7–8 % with
/// test 96.2 / 95.1 %; `project` at τ = 1 left 0–2 % but cost 1.2–1.7 test points (and τ = 0.5
/// broke training); the old `gamma` penalty only went to 30–33 %.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RegKind {
    /// λ · Σ mean γ²/Var_batch with the variance detached (the gradient reaches γ alone).
    Gamma,
    /// λ · Σ mean (γ/σ)², the gradient flowing through σ too (our reading of the paper's factor).
    Sigma,
    /// λ · Σ mean max(0, γ/σ − 1)², through σ: only channels above 1 pay.
    Hinge,
    /// After each step, |γ_c| ≤ τ·σ_c (τ = `reg_bound`).
    Project,
}

impl RegKind {
    pub const ALL: [RegKind; 4] =
        [RegKind::Gamma, RegKind::Sigma, RegKind::Hinge, RegKind::Project];

    /// The serde name (`"sigma"`, …).
    pub fn name(self) -> &'static str {
        match self {
            Self::Gamma => "gamma",
            Self::Sigma => "sigma",
            Self::Hinge => "hinge",
            Self::Project => "project",
        }
    }
}

/// One experiment, whole. Every field has a default, so a partial JSON object (or share link)
/// fills in the rest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub dataset: DatasetName,
    /// Train two models side by side, `norm` and `versus` (the default, BN and no-BN: the
    /// comparison is the lesson).
    pub compare: bool,
    /// The first model's normalization (the single model's with `compare` off). Read from an old
    /// `batch_norm` boolean too.
    #[serde(alias = "batch_norm")]
    pub norm: Norm,
    /// The normalization of the model `norm` is compared with (`compare` on); never `norm`'s.
    pub versus: Norm,
    /// GroupNorm's groups a layer (each layer takes the largest count up to this that divides its
    /// channels: with 2, every layer of LeNet-5 has two).
    pub groups: usize,
    /// Fraction of training labels flipped to another class.
    pub label_noise: f64,
    /// Fraction of training images replaced by out-of-distribution images.
    pub ood_fraction: f64,
    pub ood_source: OodSourceName,
    /// Add the γ/σ penalty to the loss (BN models only).
    pub regularizer: bool,
    /// Which regularizer.
    pub reg_kind: RegKind,
    /// λ, the penalty's strength (`gamma`, `sigma`, `hinge`).
    pub reg_strength: f64,
    /// τ, the bound on γ/σ (`project`).
    pub reg_bound: f64,
    pub epochs: usize,
    pub batch_size: usize,
    pub learning_rate: f64,
    pub optimizer: OptimizerName,
    /// Training samples (the members, for the attack).
    pub train_size: usize,
    /// Test samples used for test accuracy.
    pub test_size: usize,
    /// The mechanism (per-step self-influence, gradients, the push on γ) is measured on this many
    /// clean and this many noisy members (each about ten forward passes of a whole batch, before
    /// training and after every epoch).
    pub probe_size: usize,
    /// Live read-outs per epoch of each target model (memorization and the loss attack on a small
    /// fixed sample, see [`crate::report::LivePoint`]); 0: only at each epoch's end.
    pub live_points: usize,
    /// Shadow models for LiRA (0 turns the attack off; else at least 2, so that every candidate has
    /// an IN and an OUT model).
    pub shadow_models: usize,
    pub seed: u64,
    /// A drawing planted among the members with `canary_label` ([`crate::canary`]'s text; empty:
    /// none).
    pub canary: String,
    /// The label the canary is planted with.
    pub canary_label: u8,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            dataset: DatasetName::Mnist,
            compare: true,
            norm: Norm::Batch,
            versus: Norm::None,
            groups: 2,
            label_noise: 0.05,
            ood_fraction: 0.0,
            ood_source: OodSourceName::Shuffle,
            regularizer: false,
            reg_kind: RegKind::Sigma,
            reg_strength: 0.05,
            reg_bound: 1.0,
            epochs: 8,
            batch_size: 64,
            learning_rate: 1e-3,
            optimizer: OptimizerName::Adam,
            train_size: 2000,
            test_size: 2000,
            probe_size: 32,
            live_points: 8,
            shadow_models: 4,
            seed: 1,
            canary: String::new(),
            canary_label: 0,
        }
    }
}

/// Training samples and epochs of the default experiment on a CPU backend ([`Config::for_backend`]):
/// the smallest run of a measured sweep in which BN's flipped-label accuracy at the end stood ≥ 10
/// points above no-BN's in at least 4 of 5 seeds (`bench/default_sweep.txt`; it did in 5 of 5, by
/// +12 to +32 points). The old default (3,000 × 5 epochs, batch 128) did in none (+5 to +7).
pub const CPU_TRAIN_SIZE: usize = 1000;
pub const CPU_EPOCHS: usize = 6;
/// Probe samples per group of the CPU default: the mechanism's measures cost about ten batch
/// forward passes per probe and epoch; at 16 the default run natively took 9.4 s, at 32 14.3 s
/// (5.4 s without probes).
pub const CPU_PROBE_SIZE: usize = 16;

/// The paper's settings, one click away, built on `d` (the default sized to the page's backend):
/// the default, with the regularizer, 20 % flipped labels, clean data, OOD images from the other
/// dataset, Fashion-MNIST, BN beside GroupNorm (is it BN, or any normalization?), and a tiny run
/// for a quick look. Their names are the page's texts
/// (`spotlight_i18n::controls`' `presets`, in this order).
pub fn presets(d: &Config) -> Vec<Config> {
    let d = d.clone();
    vec![
        d.clone(),
        Config { regularizer: true, reg_strength: 0.05, ..d.clone() },
        Config { label_noise: 0.2, ..d.clone() },
        Config { label_noise: 0.0, ..d.clone() },
        Config {
            label_noise: 0.0,
            ood_fraction: 0.05,
            ood_source: OodSourceName::Other,
            ..d.clone()
        },
        Config { dataset: DatasetName::Fashion, ..d.clone() },
        Config { versus: Norm::Group, ..d.clone() },
        Config {
            train_size: 500,
            test_size: 500,
            epochs: 2,
            batch_size: 50,
            shadow_models: 2,
            probe_size: 16,
            ..d
        },
    ]
}

/// A run's size, roughly what it costs: every model (targets and shadows) passes over about
/// `samples` samples `epochs` times. Measurement and the attack come on top.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cost {
    pub epochs: usize,
    pub samples: usize,
    pub models: usize,
}

impl Cost {
    /// epochs × samples × models.
    pub fn sample_passes(&self) -> u64 {
        (self.epochs as u64) * (self.samples as u64) * (self.models as u64)
    }
}

/// The most of the training set that may be corrupted: `label_noise + ood_fraction`.
pub const MAX_CORRUPTED: f64 = 0.9;

/// A config that cannot run, naming the field and what is wrong with it. The page and the CLI
/// write it with `spotlight-i18n`'s words, by [`ConfigProblem`]'s variant ("epochs: 0 is out of
/// range; allowed 1 to 200" in English).
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigError {
    pub field: String,
    pub problem: ConfigProblem,
}

/// What is wrong with a field of a [`ConfigError`].
#[derive(Clone, Debug, PartialEq)]
pub enum ConfigProblem {
    /// "value is out of range; allowed min to max"
    OutOfRange { value: f64, min: f64, max: f64 },
    /// `label_noise + ood_fraction` (`sum`) above [`MAX_CORRUPTED`].
    TooFewClean { sum: f64 },
    /// One shadow model: LiRA needs an IN and an OUT model for every candidate.
    OneShadow,
    /// "not a drawing: why"
    NotDrawing(crate::canary::CanaryError),
    /// The batch is larger than the training set.
    BatchOverTrain { batch: usize, train: usize },
    /// A comparison of a normalization with itself (`versus` = `norm`).
    SameNorm { norm: Norm },
    /// A config file that is not JSON: serde's text (English only).
    NotJson(String),
    /// A config file whose JSON is not an object.
    NotObject,
    /// serde's text (English only): an unknown key, a value of the wrong type.
    Json(String),
}

/// The variant and its values, not a sentence: what a reader sees (the CLI's English too) is
/// `spotlight-i18n`'s (`say::notice::config_error`).
impl fmt::Display for ConfigProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// The field, then [`ConfigProblem`]'s form.
impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.problem)
    }
}

impl std::error::Error for ConfigError {}

/// One model of an experiment: LeNet-5 with BN, with BN and the γ/σ regularizer, without
/// normalization, with GroupNorm or with LayerNorm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    Bn,
    BnReg,
    Plain,
    Gn,
    Ln,
}

impl Variant {
    /// A model without regularizer: BN or no-BN.
    pub fn unregularized(batch_norm: bool) -> Self {
        Self::of(batch_norm.into())
    }

    /// The model of a normalization, without regularizer.
    pub fn of(norm: Norm) -> Self {
        match norm {
            Norm::None => Self::Plain,
            Norm::Batch => Self::Bn,
            Norm::Group => Self::Gn,
            Norm::Layer => Self::Ln,
        }
    }

    /// Its normalization layers.
    pub fn norm(self) -> Norm {
        match self {
            Self::Bn | Self::BnReg => Norm::Batch,
            Self::Plain => Norm::None,
            Self::Gn => Norm::Group,
            Self::Ln => Norm::Layer,
        }
    }

    pub fn batch_norm(self) -> bool {
        self.norm() == Norm::Batch
    }

    /// Its name in a CSV column: "bn+reg", "bn", "no-bn", "gn" or "ln".
    pub fn key(self) -> &'static str {
        match self {
            Self::BnReg => "bn+reg",
            Self::Bn => "bn",
            Self::Plain => "no-bn",
            Self::Gn => "gn",
            Self::Ln => "ln",
        }
    }
}

impl Config {
    /// The experiment a page opens with (a link that names no setting): [`Config::default`] on a
    /// GPU (2,000 members × 8 epochs at batch 64: BN's flipped-label accuracy ended 53–78 points above
    /// no-BN's in 5 of 5 seeds of the sweep); on a CPU backend the same with fewer samples and epochs
    /// ([`CPU_TRAIN_SIZE`], [`CPU_EPOCHS`]), the smallest run of the sweep that shows the effect.
    pub fn for_backend(gpu: bool) -> Self {
        if gpu {
            Self::default()
        } else {
            Self {
                train_size: CPU_TRAIN_SIZE,
                epochs: CPU_EPOCHS,
                probe_size: CPU_PROBE_SIZE,
                ..Self::default()
            }
        }
    }

    /// A field's value, by its serde name.
    pub fn get(&self, name: &str) -> Option<serde_json::Value> {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(mut map)) => map.remove(name),
            _ => None,
        }
    }

    /// Sets a field, by its serde name, to a JSON value (through serde: a value of the wrong type
    /// is an error, and the config is left as it was).
    pub fn set(&mut self, name: &str, value: serde_json::Value) -> Result<(), String> {
        let Ok(serde_json::Value::Object(mut map)) = serde_json::to_value(&*self) else {
            unreachable!("a Config is an object")
        };
        if !map.contains_key(name) {
            return Err(format!("{name:?} is not a setting"));
        }
        map.insert(name.to_string(), value);
        *self =
            serde_json::from_value(serde_json::Value::Object(map)).map_err(|e| e.to_string())?;
        Ok(())
    }

    /// Whether field `name` has no effect under the rest of this config (a control shows it
    /// disabled): the single model's BN in a comparison, the regularizer's settings with it off (and
    /// each kind's own), the OOD source without OOD images, the canary's label without a drawing.
    pub fn inert(&self, name: &str) -> bool {
        match name {
            "versus" => !self.compare,
            "groups" => {
                ![self.norm, self.versus][..if self.compare { 2 } else { 1 }].contains(&Norm::Group)
            }
            "regularizer" => self.norm != Norm::Batch,
            "reg_kind" => !self.regularizer || self.inert("regularizer"),
            "reg_strength" => {
                !self.regularizer || self.inert("regularizer") || self.reg_kind == RegKind::Project
            }
            "reg_bound" => {
                !self.regularizer || self.inert("regularizer") || self.reg_kind != RegKind::Project
            }
            "ood_source" => self.ood_fraction <= 0.0,
            "canary_label" => self.canary.is_empty(),
            _ => false,
        }
    }

    /// The value of a numeric field, by name.
    pub fn numeric(&self, name: &str) -> Option<f64> {
        range_of(name)?;
        // A non-finite f64 serializes as JSON null: it reads back as NaN, so that validation names it.
        Some(self.get(name)?.as_f64().unwrap_or(f64::NAN))
    }

    /// Checks every field; the first bad one is named with its allowed range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        for f in FIELDS {
            let Some(r) = f.range() else { continue };
            let v = self.numeric(f.name).expect("every numeric field is a number");
            if !r.contains(v) {
                return Err(ConfigError {
                    field: f.name.to_string(),
                    problem: ConfigProblem::OutOfRange { value: v, min: r.min, max: r.max },
                });
            }
        }
        if self.label_noise + self.ood_fraction > MAX_CORRUPTED {
            return Err(ConfigError {
                field: "label_noise".into(),
                problem: ConfigProblem::TooFewClean { sum: self.label_noise + self.ood_fraction },
            });
        }
        if self.shadow_models == 1 {
            return Err(ConfigError {
                field: "shadow_models".into(),
                problem: ConfigProblem::OneShadow,
            });
        }
        if !self.canary.is_empty() {
            crate::canary::decode(&self.canary).map_err(|why| ConfigError {
                field: "canary".into(),
                problem: ConfigProblem::NotDrawing(why),
            })?;
        }
        if self.compare && self.norm == self.versus {
            return Err(ConfigError {
                field: "versus".into(),
                problem: ConfigProblem::SameNorm { norm: self.norm },
            });
        }
        if self.batch_size > self.train_size {
            return Err(ConfigError {
                field: "batch_size".into(),
                problem: ConfigProblem::BatchOverTrain {
                    batch: self.batch_size,
                    train: self.train_size,
                },
            });
        }
        Ok(())
    }

    /// The models this experiment trains: in compare mode `norm`'s, then BN with the regularizer
    /// when it is on and `norm` is BN, then `versus`'s (all side by side, same data and seed); else
    /// the one model `norm` and `regularizer` say.
    pub fn variants(&self) -> Vec<Variant> {
        let first = self.variant(self.norm);
        match (self.compare, first) {
            (true, Variant::BnReg) => vec![Variant::Bn, Variant::BnReg, Variant::of(self.versus)],
            (true, _) => vec![first, Variant::of(self.versus)],
            (false, _) => vec![first],
        }
    }

    /// The run's size: each target and each shadow model (a shadow trains on about as many
    /// samples as a target) for every variant.
    pub fn cost(&self) -> Cost {
        Cost {
            epochs: self.epochs,
            samples: self.train_size,
            models: self.variants().len() * (1 + self.shadow_models),
        }
    }

    /// The variant a model of normalization `norm` is in this experiment's single-model form
    /// (BN with the regularizer when it is on; and in a report written before a comparison held
    /// three models).
    pub fn variant(&self, norm: Norm) -> Variant {
        match norm {
            Norm::Batch if self.regularizer => Variant::BnReg,
            n => Variant::of(n),
        }
    }

    /// Parses JSON, then validates. An unknown key, or a value of the wrong type, is an error that
    /// names its key.
    pub fn from_json(json: &str) -> Result<Self, ConfigError> {
        let value: serde_json::Value = serde_json::from_str(json).map_err(|e| ConfigError {
            field: "config".into(),
            problem: ConfigProblem::NotJson(e.to_string()),
        })?;
        let serde_json::Value::Object(mut map) = value else {
            return Err(ConfigError { field: "config".into(), problem: ConfigProblem::NotObject });
        };
        // An old config's `batch_norm` did nothing in a comparison (the default): read it only for a
        // single model.
        if map.get("compare") != Some(&serde_json::Value::Bool(false)) {
            map.remove("batch_norm");
        }
        let value = serde_json::Value::Object(map);
        let serde_json::Value::Object(map) = &value else { unreachable!("built as an object") };
        // Try each key alone, so that the error names the key it is about.
        for (key, v) in map {
            let one = serde_json::Value::Object([(key.clone(), v.clone())].into_iter().collect());
            if let Err(e) = serde_json::from_value::<Config>(one) {
                return Err(ConfigError {
                    field: key.clone(),
                    problem: ConfigProblem::Json(e.to_string()),
                });
            }
        }
        let c: Config = serde_json::from_value(value).map_err(|e| ConfigError {
            field: "config".into(),
            problem: ConfigProblem::Json(e.to_string()),
        })?;
        c.validate()?;
        Ok(c)
    }

    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a Config always serializes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::ReadError;

    #[test]
    fn default_is_valid() {
        Config::default().validate().unwrap();
    }

    #[test]
    fn round_trips_through_json() {
        let c = Config {
            dataset: DatasetName::Fashion,
            label_noise: 0.2,
            regularizer: true,
            optimizer: OptimizerName::Sgd,
            seed: 1234567890123,
            ..Config::default()
        };
        let back = Config::from_json(&c.to_json()).unwrap();
        assert_eq!(back, c);
    }

    #[test]
    fn partial_json_fills_defaults() {
        let c = Config::from_json(r#"{"epochs": 3}"#).unwrap();
        assert_eq!(c.epochs, 3);
        assert_eq!(c.batch_size, Config::default().batch_size);
    }

    #[test]
    fn every_out_of_range_field_is_named() {
        for f in FIELDS {
            let Some(r) = f.range() else { continue };
            let mut c = Config { batch_size: 2, ..Config::default() }; // keep the batch/train-size rule out of the way
            let over = r.max * 2.0 + 1.0;
            let v = if r.integer {
                serde_json::Value::from(over as u64)
            } else {
                serde_json::Value::from(over)
            };
            c.set(f.name, v).unwrap();
            let e = c.validate().unwrap_err();
            assert_eq!(e.field, f.name, "{e}");
            assert!(matches!(e.problem, ConfigProblem::OutOfRange { .. }), "{e}");
        }
        let c = Config { learning_rate: f64::NAN, ..Config::default() };
        assert_eq!(c.validate().unwrap_err().field, "learning_rate");
    }

    #[test]
    fn bad_json_names_the_field() {
        let e = Config::from_json(r#"{"epochz": 3}"#).unwrap_err();
        assert_eq!(e.field, "epochz");
        let e = Config::from_json(r#"{"epochs": "many"}"#).unwrap_err();
        assert!(matches!(&e.problem, ConfigProblem::Json(t) if t.contains("invalid type")), "{e}");
        let e = Config::from_json(r#"{"epochs": 0}"#).unwrap_err();
        assert_eq!(e.field, "epochs");
        let e = Config::from_json(r#"{"dataset": "cifar"}"#).unwrap_err();
        assert!(matches!(&e.problem, ConfigProblem::Json(t) if t.contains("cifar")), "{e}");
    }

    #[test]
    fn cross_field_rules() {
        let mut c = Config { label_noise: 0.5, ood_fraction: 0.5, ..Config::default() };
        assert_eq!(c.validate().unwrap_err().field, "label_noise");
        c = Config { batch_size: 256, train_size: 100, ..Config::default() };
        assert_eq!(c.validate().unwrap_err().field, "batch_size");
        c = Config { shadow_models: 1, ..Config::default() };
        let e = c.validate().unwrap_err();
        assert_eq!(e.field, "shadow_models");
        assert_eq!(e.problem, ConfigProblem::OneShadow);
        for k in [0, 2, 3] {
            Config { shadow_models: k, ..Config::default() }.validate().unwrap();
        }
    }

    #[test]
    fn the_field_table_names_every_serde_key_once() {
        let mut keys: Vec<String> = match serde_json::to_value(Config::default()).unwrap() {
            serde_json::Value::Object(m) => m.keys().cloned().collect(),
            _ => unreachable!(),
        };
        let mut names: Vec<&str> = FIELDS.iter().map(|f| f.name).collect();
        names.sort_unstable();
        keys.sort_unstable();
        assert_eq!(keys, names, "FIELDS must list Config's serde keys, each exactly once");
        for f in FIELDS {
            let d = Config::default().get(f.name).expect("every field is a key of Config");
            match f.kind {
                Kind::Bool => assert!(d.is_boolean(), "{}", f.name),
                Kind::Seed => assert!(d.is_u64(), "{}", f.name),
                Kind::Drawing => assert_eq!(d, "", "{}: no drawing by default", f.name),
                Kind::Number(r) => assert!(
                    r.contains(d.as_f64().unwrap()) && r.step > 0.0,
                    "{}: default {d}",
                    f.name
                ),
                Kind::Choice(options) => {
                    assert!(
                        options.iter().any(|v| d == *v),
                        "{}: default {d} is not a choice",
                        f.name
                    );
                    for v in options {
                        let mut c = Config::default();
                        c.set(f.name, serde_json::Value::from(*v))
                            .unwrap_or_else(|e| panic!("{}={v}: {e}", f.name));
                    }
                }
            }
        }
        let reg = field("reg_kind").unwrap();
        let Kind::Choice(options) = reg.kind else { panic!() };
        assert_eq!(options.to_vec(), RegKind::ALL.map(RegKind::name), "every RegKind offered");
        for name in ["norm", "versus"] {
            let Kind::Choice(options) = field(name).unwrap().kind else { panic!() };
            assert_eq!(options.to_vec(), Norm::ALL.map(Norm::name), "every Norm offered");
        }
    }

    #[test]
    fn basic_fields_exist_and_inert_fields_follow_the_config() {
        for name in BASIC {
            assert!(field(name).is_some(), "{name}");
        }
        let c = Config::default();
        assert!(
            c.inert("groups")
                && c.inert("reg_kind")
                && c.inert("ood_source")
                && c.inert("canary_label")
        );
        assert!(!c.inert("label_noise") && !c.inert("compare") && !c.inert("versus"));
        let single =
            Config { compare: false, regularizer: true, ood_fraction: 0.1, ..Config::default() };
        assert!(
            single.inert("versus")
                && !single.inert("regularizer")
                && !single.inert("reg_strength")
                && single.inert("reg_bound")
                && !single.inert("ood_source")
        );
        let clip = Config { reg_kind: RegKind::Project, ..single };
        assert!(clip.inert("reg_strength") && !clip.inert("reg_bound"));
        let gn = Config { versus: Norm::Group, ..Config::default() };
        assert!(!gn.inert("groups") && !gn.inert("regularizer"));
        let ln = Config { norm: Norm::Layer, regularizer: true, ..Config::default() };
        assert!(ln.inert("groups") && ln.inert("regularizer") && ln.inert("reg_strength"));
    }

    #[test]
    fn variants_side_by_side() {
        let c = Config::default();
        assert_eq!(c.variants(), [Variant::Bn, Variant::Plain]);
        let reg = Config { regularizer: true, ..c.clone() };
        assert_eq!(
            reg.variants(),
            [Variant::Bn, Variant::BnReg, Variant::Plain],
            "the regularizer joins the comparison"
        );
        assert_eq!(reg.cost().models, 3 * (1 + reg.shadow_models));
        assert_eq!(Config { compare: false, ..reg.clone() }.variants(), [Variant::BnReg]);
        assert_eq!(
            Config { compare: false, norm: Norm::None, ..reg.clone() }.variants(),
            [Variant::Plain]
        );
        let gn = Config { versus: Norm::Group, ..reg.clone() };
        assert_eq!(gn.variants(), [Variant::Bn, Variant::BnReg, Variant::Gn]);
        let ln = Config { norm: Norm::Layer, versus: Norm::Batch, ..reg };
        assert_eq!(
            ln.variants(),
            [Variant::Ln, Variant::Bn],
            "the regularizer is BN's first model's"
        );
        assert_eq!(ln.validate(), Ok(()));
        let same = Config { versus: Norm::Batch, ..Config::default() };
        assert_eq!(same.validate().unwrap_err().field, "versus");
        Config { compare: false, versus: Norm::Batch, ..Config::default() }.validate().unwrap();
        for v in [Variant::Bn, Variant::BnReg, Variant::Plain, Variant::Gn, Variant::Ln] {
            assert_eq!(Variant::of(v.norm()).norm(), v.norm());
        }
    }

    #[test]
    fn norm_reads_its_name_and_the_old_boolean() {
        let c = Config::from_json(r#"{"batch_norm": false, "compare": false}"#).unwrap();
        assert_eq!(c.norm, Norm::None);
        let c = Config::from_json(r#"{"batch_norm": true, "versus": "layer"}"#).unwrap();
        assert_eq!((c.norm, c.versus), (Norm::Batch, Norm::Layer));
        // In a comparison the old field did nothing: BN vs no-BN, as before.
        let c = Config::from_json(r#"{"compare": true, "batch_norm": false}"#).unwrap();
        assert_eq!((c.norm, c.versus), (Norm::Batch, Norm::None));
        let c = Config::from_json(r#"{"norm": "group", "versus": "none", "groups": 3}"#).unwrap();
        assert_eq!((c.norm, c.groups), (Norm::Group, 3));
        let e = Config::from_json(r#"{"norm": "instance"}"#).unwrap_err();
        assert_eq!(e.field, "norm");
        assert_eq!(c.get("norm"), Some(serde_json::json!("group")));
    }

    #[test]
    fn groups_divide_each_layer() {
        assert_eq!([6, 16, 120, 84].map(|c| Norm::Group.groups_for(2, c)), [2; 4]);
        assert_eq!([6, 16, 120, 84].map(|c| Norm::Group.groups_for(4, c)), [3, 4, 4, 4]);
        assert_eq!([6, 16, 120, 84].map(|c| Norm::Group.groups_for(100, c)), [6, 16, 60, 84]);
        assert_eq!(Norm::Layer.groups_for(4, 6), 1);
        assert_eq!(Norm::Batch.groups_for(4, 6), 0);
    }

    #[test]
    fn fields_read_text_as_a_link_or_a_control_gives_it() {
        let epochs = field("epochs").unwrap();
        assert_eq!(epochs.read("3").unwrap(), Read { value: 3.into(), clamped: None });
        assert_eq!(epochs.read("2.6").unwrap(), Read { value: 3.into(), clamped: Some(3.0) });
        assert_eq!(epochs.read("1000").unwrap().clamped, Some(200.0));
        for bad in ["abc", "NaN", "inf", "1e309", ""] {
            assert_eq!(
                epochs.read(bad).unwrap_err(),
                ReadError::ExpectedNumber { min: 1.0, max: 200.0 },
                "{bad}"
            );
        }
        let noise = field("label_noise").unwrap();
        assert_eq!(noise.read("0.25").unwrap().value, serde_json::json!(0.25));
        assert_eq!(noise.read("-1").unwrap().clamped, Some(0.0));
        assert_eq!(
            field("compare").unwrap().read("false").unwrap().value,
            serde_json::json!(false)
        );
        assert!(field("compare").unwrap().read("maybe").is_err());
        assert_eq!(
            field("dataset").unwrap().read("fashion").unwrap().value,
            serde_json::json!("fashion")
        );
        assert_eq!(
            field("dataset").unwrap().read("cifar").unwrap_err(),
            ReadError::ExpectedOneOf(vec!["mnist", "fashion"])
        );
        let canary = field("canary").unwrap();
        let drawing = crate::canary::encode(&(0..784).map(|i| i % 29 == 0).collect::<Vec<_>>());
        assert_eq!(canary.read(&drawing).unwrap().value, serde_json::json!(drawing));
        assert_eq!(canary.read("").unwrap().value, serde_json::json!(""));
        use crate::canary::CanaryError;
        assert_eq!(
            canary.read("abc").unwrap_err(),
            ReadError::NotDrawing(CanaryError::Length { len: 3 })
        );
        assert_eq!(
            canary.read(&"A".repeat(131)).unwrap_err(),
            ReadError::NotDrawing(CanaryError::Empty)
        );
        let bad = Config { canary: "x".repeat(131).replace('x', "!"), ..Config::default() };
        assert_eq!(bad.validate().unwrap_err().field, "canary");
        Config { canary: drawing, canary_label: 7, ..Config::default() }.validate().unwrap();
        let seed = field("seed").unwrap();
        assert_eq!(seed.read("18446744073709551615").unwrap().value, serde_json::json!(u64::MAX));
        for bad in ["-1", "1.5", "+3", "1e3"] {
            assert!(seed.read(bad).is_err(), "{bad}");
        }
        let mut c = Config::default();
        c.set("epochs", serde_json::json!(7)).unwrap();
        assert_eq!(c.epochs, 7);
        assert!(c.set("epochs", serde_json::json!("many")).is_err());
        assert!(c.set("epochz", serde_json::json!(1)).is_err());
        assert_eq!(c.epochs, 7, "a failed set leaves the config as it was");
    }
}
