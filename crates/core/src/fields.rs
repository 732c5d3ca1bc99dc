//! The table of [`Config`](crate::config::Config)'s fields: each one's serde name and what it allows
//! (kind, range), and how a value given as text is read. Validation, the share link, the course
//! builder and the app's controls are all made from it. What a reader sees of a field (its label,
//! its help, its options' texts) is `spotlight-i18n`'s (`fields`), by the field's name.

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
    /// One of these serde values (their texts for a reader are `spotlight-i18n`'s, in this order).
    Choice(&'static [&'static str]),
    /// A number in a range.
    Number(Range),
    /// Any whole number from 0 to 2⁶⁴ − 1 (read as an integer, never through f64).
    Seed,
    /// A drawing as [`crate::canary`] text, or nothing (empty).
    Drawing,
}

/// One field of [`Config`](crate::config::Config): its serde name and what it allows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Field {
    pub name: &'static str,
    pub kind: Kind,
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
            Kind::Choice(options) => match options.iter().find(|v| **v == raw) {
                Some(v) => serde_json::Value::from(*v),
                None => return Err(ReadError::ExpectedOneOf(options.to_vec())),
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

const DATASETS: &[&str] = &["mnist", "fashion"];
const OOD_SOURCES: &[&str] = &["shuffle", "other"];
const REG_KINDS: &[&str] = &["gamma", "sigma", "hinge", "project"];
const OPTIMIZERS: &[&str] = &["adam", "sgd"];
const NORMS: &[&str] = &crate::config::Norm::NAMES;

/// Every field of [`Config`](crate::config::Config), once, in the struct's order: validation, clamping, the share link (in
/// this order) and the app's controls (in this order) all read this table; a test checks it against
/// `Config`'s serde keys. Adding a field: the struct, its `Default`, and a row here.
pub const FIELDS: &[Field] = &[
    Field { name: "dataset", kind: Kind::Choice(DATASETS) },
    Field { name: "compare", kind: Kind::Bool },
    Field { name: "norm", kind: Kind::Choice(NORMS) },
    Field { name: "versus", kind: Kind::Choice(NORMS) },
    Field { name: "groups", kind: Kind::Number(Range::whole(1.0, 16.0, 1.0)) },
    Field { name: "label_noise", kind: Kind::Number(Range::fraction(0.5)) },
    Field { name: "ood_fraction", kind: Kind::Number(Range::fraction(0.5)) },
    Field { name: "ood_source", kind: Kind::Choice(OOD_SOURCES) },
    Field { name: "regularizer", kind: Kind::Bool },
    Field { name: "reg_kind", kind: Kind::Choice(REG_KINDS) },
    Field { name: "reg_strength", kind: Kind::Number(Range::real(0.0, 10.0, 0.01)) },
    Field { name: "reg_bound", kind: Kind::Number(Range::real(0.05, 10.0, 0.1)) },
    Field { name: "epochs", kind: Kind::Number(Range::whole(1.0, 200.0, 1.0)) },
    Field { name: "batch_size", kind: Kind::Number(Range::whole(2.0, 2048.0, 1.0)) },
    Field { name: "learning_rate", kind: Kind::Number(Range::real(1e-6, 1.0, 0.0001)) },
    Field { name: "optimizer", kind: Kind::Choice(OPTIMIZERS) },
    Field { name: "train_size", kind: Kind::Number(Range::whole(20.0, 30_000.0, 100.0)) },
    Field { name: "test_size", kind: Kind::Number(Range::whole(10.0, 10_000.0, 100.0)) },
    Field { name: "probe_size", kind: Kind::Number(Range::whole(0.0, 256.0, 1.0)) },
    Field { name: "live_points", kind: Kind::Number(Range::whole(0.0, 64.0, 1.0)) },
    Field { name: "shadow_models", kind: Kind::Number(Range::whole(0.0, 64.0, 1.0)) },
    Field { name: "seed", kind: Kind::Seed },
    Field { name: "canary", kind: Kind::Drawing },
    Field { name: "canary_label", kind: Kind::Number(Range::whole(0.0, 9.0, 1.0)) },
];

/// The fields a student needs to ask the page's question, shown first; the others fold under
/// "Advanced" (a course link can unfold or hide either).
pub const BASIC: [&str; 6] =
    ["label_noise", "ood_fraction", "compare", "versus", "regularizer", "epochs"];

/// A field, by its serde name.
pub fn field(name: &str) -> Option<&'static Field> {
    FIELDS.iter().find(|f| f.name == name)
}

/// The range of a numeric field, by name.
pub fn range_of(name: &str) -> Option<&'static Range> {
    field(name).and_then(Field::range)
}
