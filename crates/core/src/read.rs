//! Why one value of a link, a control or a course part could not be read: the leaf the readers
//! (`config`'s fields, `backend`, `course`, `link`) share.

use std::fmt;

/// Why a value given as text does not fit (a field's, or a link key's such as `backend=`,
/// `tour=`). The page and the CLI write it with `spotlight-i18n`'s words
/// (`say::notice::read_error`, by variant), the only place its sentences are written.
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

/// The variant and its values (`ExpectedOneOf(["mnist", "fashion"])`), not a sentence: what a
/// reader sees is `spotlight-i18n`'s.
impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

impl std::error::Error for ReadError {}
