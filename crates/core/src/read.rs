//! Why one value of a link, a control or a course part could not be read: the leaf the readers
//! (`config`'s fields, `backend`, `course`, `link`) share.

use std::fmt;

/// Why a value given as text does not fit (a field's, or a link key's such as `backend=`,
/// `tour=`). Its `Display` is the English the CLI and the link write ("expected true or false");
/// the page writes it in its language by variant.
#[derive(Clone, Debug, PartialEq)]
pub enum ReadError {
    /// "expected true or false"
    ExpectedBool,
    /// "expected one of a, b"
    ExpectedOneOf(Vec<&'static str>),
    /// "expected a number from min to max"
    ExpectedNumber { min: f64, max: f64 },
    /// A seed: "expected a whole number from 0 to 2⁶⁴ − 1" (written out).
    ExpectedSeed,
    /// "not a drawing: why"
    NotDrawing(crate::canary::CanaryError),
    /// "allowed: a, b" (a backend's name).
    Allowed(Vec<&'static str>),
    /// A name in `hide=`/`show=` that is no part of the page.
    NotAPart,
    /// "a tour step is a whole number from 1 to max"
    TourStep { max: usize },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ExpectedBool => f.write_str("expected true or false"),
            Self::ExpectedOneOf(names) => write!(f, "expected one of {}", names.join(", ")),
            Self::ExpectedNumber { min, max } => write!(f, "expected a number from {min} to {max}"),
            Self::ExpectedSeed => write!(f, "expected a whole number from 0 to {}", u64::MAX),
            Self::NotDrawing(why) => write!(f, "not a drawing: {why}"),
            Self::Allowed(names) => write!(f, "allowed: {}", names.join(", ")),
            Self::NotAPart => f.write_str("not a part of the page"),
            Self::TourStep { max } => write!(f, "a tour step is a whole number from 1 to {max}"),
        }
    }
}

impl std::error::Error for ReadError {}
