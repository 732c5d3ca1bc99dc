//! The core's and the data crate's enums written as sentences in a language: a link's notices and a
//! config's problems (`notice`), a dataset's and an experiment's data errors (`data`), a run's
//! progress, phase times and failures (`run`). The enums say what happened, the areas' texts
//! (`notices`, `status`) hold the words, these functions pick the words by variant and fill in the
//! values. The page calls these in its language, the CLI in English: an error's English is here,
//! not in the enum (whose `Display`, where it has one, is its variant and values; the exceptions,
//! and why, are said by each function).

pub mod data;
pub mod notice;
pub mod run;

/// A text written in every language: English, Spanish and Portuguese not empty, and Spanish and
/// Portuguese not left in English.
#[cfg(test)]
fn assert_written(what: &str, en: &str, es: &str, pt: &str) {
    for (lang, text) in [("en", en), ("es", es), ("pt", pt)] {
        assert!(!text.trim().is_empty(), "{what}: {lang} is empty");
    }
    for (lang, text) in [("es", es), ("pt", pt)] {
        assert_ne!(text, en, "{what}: {lang} is left in English");
    }
}
