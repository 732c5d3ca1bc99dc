//! The core's and the data crate's enums written as sentences in a language: a link's notices and a
//! config's problems (`notice`), a dataset's and an experiment's data errors (`data`), a run's
//! progress, phase times and failures (`run`). The enums say what happened, the areas' texts
//! (`notices`, `status`) hold the words, these functions pick the words by variant and fill in the
//! values. An error's English is its `Display`, word for word (the tests here check it); the page
//! calls these in its language, the CLI in English.

pub mod data;
pub mod notice;
pub mod run;

/// English is `display` (the enum's `Display`, or the CLI's text); Spanish and Portuguese are
/// written: not empty, not left in English.
#[cfg(test)]
fn assert_written(what: &str, en: &str, es: &str, pt: &str, display: &str) {
    assert_eq!(en, display, "{what}: English must be the Display text");
    for (lang, text) in [("es", es), ("pt", pt)] {
        assert!(!text.is_empty(), "{what}: {lang} is empty");
        assert_ne!(text, en, "{what}: {lang} is left in English");
    }
}
