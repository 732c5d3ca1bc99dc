//! The table of [`Config`](crate::config::Config)'s fields: each one's serde name, what it allows
//! (kind, range) and its text for a reader, and how a value given as text is read. Validation, the
//! share link, the course builder and the app's controls are all made from it.

use crate::read::ReadError;

/// The allowed range of one numeric field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Range {
    pub min: f64,
    pub max: f64,
    /// Whole numbers only.
    pub integer: bool,
    /// The step of the app's control.
    pub step: f64,
    /// A fraction, shown as a percentage (a slider in the app).
    pub percent: bool,
}

impl Range {
    const fn fraction(max: f64) -> Self {
        Self { min: 0.0, max, integer: false, step: 0.01, percent: true }
    }

    const fn real(min: f64, max: f64, step: f64) -> Self {
        Self { min, max, integer: false, step, percent: false }
    }

    const fn whole(min: f64, max: f64, step: f64) -> Self {
        Self { min, max, integer: true, step, percent: false }
    }

    /// `x` inside the range, rounded when whole numbers only.
    pub fn clamp(&self, x: f64) -> f64 {
        let c = x.clamp(self.min, self.max);
        if self.integer { c.round() } else { c }
    }

    pub fn contains(&self, x: f64) -> bool {
        x.is_finite() && x >= self.min && x <= self.max
    }
}

/// What values a field takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// `true` or `false`.
    Bool,
    /// One of these serde values, each with its text for a reader.
    Choice(&'static [(&'static str, &'static str)]),
    /// A number in a range.
    Number(Range),
    /// Any whole number from 0 to 2⁶⁴ − 1 (read as an integer, never through f64).
    Seed,
    /// A drawing as [`crate::canary`] text, or nothing (empty).
    Drawing,
}

/// One field of [`Config`](crate::config::Config): its serde name, what it allows, and its text for a reader.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Field {
    pub name: &'static str,
    pub kind: Kind,
    /// A short label (the app's control).
    pub label: &'static str,
    /// One sentence on what it does (the app's tooltip, `FIELDS` in the docs).
    pub help: &'static str,
}

/// A field's value as read from text (a link, a control): the JSON value to set, and the number it
/// was clamped to when it lay outside the range.
#[derive(Clone, Debug, PartialEq)]
pub struct Read {
    pub value: serde_json::Value,
    pub clamped: Option<f64>,
}

impl Field {
    /// The allowed range of a numeric field.
    pub fn range(&self) -> Option<&Range> {
        match &self.kind {
            Kind::Number(r) => Some(r),
            _ => None,
        }
    }

    /// Reads a value given as text (a share link's, a control's). A number outside the range is
    /// clamped (and says so), a whole number rounded; anything else that does not fit is an error
    /// saying what the field allows.
    pub fn read(&self, raw: &str) -> Result<Read, ReadError> {
        let raw = raw.trim();
        let value = match self.kind {
            Kind::Bool => match raw {
                "true" => serde_json::Value::Bool(true),
                "false" => serde_json::Value::Bool(false),
                _ => return Err(ReadError::ExpectedBool),
            },
            Kind::Choice(options) => match options.iter().find(|(v, _)| *v == raw) {
                Some((v, _)) => serde_json::Value::from(*v),
                None => {
                    return Err(ReadError::ExpectedOneOf(
                        options.iter().map(|(v, _)| *v).collect(),
                    ));
                }
            },
            Kind::Drawing if raw.is_empty() => serde_json::Value::from(""),
            Kind::Drawing => match crate::canary::decode(raw) {
                Ok(_) => serde_json::Value::from(raw),
                Err(why) => return Err(ReadError::NotDrawing(why)),
            },
            Kind::Seed => match raw.parse::<u64>() {
                Ok(s) if raw.bytes().all(|c| c.is_ascii_digit()) => serde_json::Value::from(s),
                _ => return Err(ReadError::ExpectedSeed),
            },
            Kind::Number(r) => {
                let x = raw.parse::<f64>().ok().filter(|x| x.is_finite());
                let Some(x) = x else {
                    return Err(ReadError::ExpectedNumber { min: r.min, max: r.max });
                };
                let c = r.clamp(x);
                let value = if r.integer {
                    serde_json::Value::from(c as u64)
                } else {
                    serde_json::Value::from(c)
                };
                return Ok(Read { value, clamped: (c != x).then_some(c) });
            }
        };
        Ok(Read { value, clamped: None })
    }
}

const DATASETS: &[(&str, &str)] = &[("mnist", "MNIST"), ("fashion", "Fashion-MNIST")];
const OOD_SOURCES: &[(&str, &str)] =
    &[("shuffle", "pixel-shuffled images"), ("other", "the other dataset")];
const REG_KINDS: &[(&str, &str)] = &[
    ("gamma", "γ only, σ held fixed (inert; for comparison)"),
    ("sigma", "(γ/σ)², gradient through σ"),
    ("hinge", "hinge max(0, γ/σ − 1)²"),
    ("project", "clip |γ| ≤ τ·σ after each step"),
];
const OPTIMIZERS: &[(&str, &str)] = &[("adam", "Adam"), ("sgd", "SGD (momentum 0.9)")];

/// Every field of [`Config`](crate::config::Config), once, in the struct's order: validation, clamping, the share link (in
/// this order) and the app's controls (in this order) all read this table; a test checks it against
/// `Config`'s serde keys. Adding a field: the struct, its `Default`, and a row here.
pub const FIELDS: &[Field] = &[
    Field {
        name: "dataset",
        kind: Kind::Choice(DATASETS),
        label: "Dataset",
        help: "The images to train on.",
    },
    Field {
        name: "compare",
        kind: Kind::Bool,
        label: "Compare BN and no-BN side by side",
        help: "Train the BN and the no-BN model on the same data and seed (the comparison is the lesson).",
    },
    Field {
        name: "batch_norm",
        kind: Kind::Bool,
        label: "BatchNorm (single model)",
        help: "With the comparison off: whether the one model has BatchNorm.",
    },
    Field {
        name: "label_noise",
        kind: Kind::Number(Range::fraction(0.5)),
        label: "Flipped labels",
        help: "The share of training labels flipped to another class: samples only memorization can fit.",
    },
    Field {
        name: "ood_fraction",
        kind: Kind::Number(Range::fraction(0.5)),
        label: "OOD images",
        help: "The share of training images replaced by out-of-distribution images.",
    },
    Field {
        name: "ood_source",
        kind: Kind::Choice(OOD_SOURCES),
        label: "OOD source",
        help: "Where the OOD images come from.",
    },
    Field {
        name: "regularizer",
        kind: Kind::Bool,
        label: "γ/σ regularizer",
        help: "Restrain γ/σ in the BN model (BN models only).",
    },
    Field {
        name: "reg_kind",
        kind: Kind::Choice(REG_KINDS),
        label: "Regularizer kind",
        help: "Which rule restrains γ/σ.",
    },
    Field {
        name: "reg_strength",
        kind: Kind::Number(Range::real(0.0, 10.0, 0.01)),
        label: "strength λ",
        help: "λ, the penalty's strength (for the γ-only, the (γ/σ)² and the hinge rules).",
    },
    Field {
        name: "reg_bound",
        kind: Kind::Number(Range::real(0.05, 10.0, 0.1)),
        label: "bound τ (clip)",
        help: "τ, the bound on γ/σ (for the clipping rule).",
    },
    Field {
        name: "epochs",
        kind: Kind::Number(Range::whole(1.0, 200.0, 1.0)),
        label: "Epochs",
        help: "Passes over the training set.",
    },
    Field {
        name: "batch_size",
        kind: Kind::Number(Range::whole(2.0, 2048.0, 1.0)),
        label: "Batch size",
        help: "Samples per training step (and per BN batch).",
    },
    Field {
        name: "learning_rate",
        kind: Kind::Number(Range::real(1e-6, 1.0, 0.0001)),
        label: "Learning rate",
        help: "The optimizer's step size.",
    },
    Field {
        name: "optimizer",
        kind: Kind::Choice(OPTIMIZERS),
        label: "Optimizer",
        help: "Adam, or SGD with momentum 0.9.",
    },
    Field {
        name: "train_size",
        kind: Kind::Number(Range::whole(20.0, 30_000.0, 100.0)),
        label: "Training samples",
        help: "Training samples: the members, for the attack.",
    },
    Field {
        name: "test_size",
        kind: Kind::Number(Range::whole(10.0, 10_000.0, 100.0)),
        label: "Test samples",
        help: "Test samples used for test accuracy.",
    },
    Field {
        name: "probe_size",
        kind: Kind::Number(Range::whole(0.0, 256.0, 1.0)),
        label: "Mechanism probe per group",
        help: "How much one step moves a sample's own margin, and its gradient, are measured on this many clean and this many noisy samples, each inside a training batch, before training and after every epoch.",
    },
    Field {
        name: "live_points",
        kind: Kind::Number(Range::whole(0.0, 64.0, 1.0)),
        label: "Live read-outs per epoch",
        help: "How often per epoch the curves move while a model trains: accuracy on a fixed sample of noisy and clean members and the loss attack against a sample of non-members (0: only at each epoch's end).",
    },
    Field {
        name: "shadow_models",
        kind: Kind::Number(Range::whole(0.0, 64.0, 1.0)),
        label: "Shadow models (attack)",
        help: "Shadow models for LiRA: 0 turns the attack off; else at least 2, so that every candidate has an IN and an OUT model.",
    },
    Field {
        name: "seed",
        kind: Kind::Seed,
        label: "Seed",
        help: "One seed for the data split, the noise, the weights and the batches.",
    },
    Field {
        name: "canary",
        kind: Kind::Drawing,
        label: "Your drawing (the canary)",
        help: "A 28×28 drawing planted among the training samples with the label you give it; the run then follows it alone: what each model predicts for it, its gradient norm, and the attacker's confidence that it was trained on.",
    },
    Field {
        name: "canary_label",
        kind: Kind::Number(Range::whole(0.0, 9.0, 1.0)),
        label: "Its label",
        help: "The label your drawing is planted with (a class number, 0–9).",
    },
];

/// The fields a student needs to ask the page's question, shown first; the others fold under
/// "Advanced" (a course link can unfold or hide either).
pub const BASIC: [&str; 5] = ["label_noise", "ood_fraction", "compare", "regularizer", "epochs"];

/// A field, by its serde name.
pub fn field(name: &str) -> Option<&'static Field> {
    FIELDS.iter().find(|f| f.name == name)
}

/// The range of a numeric field, by name.
pub fn range_of(name: &str) -> Option<&'static Range> {
    field(name).and_then(Field::range)
}
