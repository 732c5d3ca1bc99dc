//! Why a model's training or its attack stopped ([`RunError`], kept in the report as its English
//! sentence), in the page's language: `spotlight_i18n::status::Failure` holds the sentences, English
//! is the core's `Display` word for word. Texts that come from elsewhere (the backend's error, the
//! attack's) stay as they are.
//!
//! The file uses only `spotlight_core` and `spotlight_i18n`: the i18n crate's tests include it
//! (`crates/i18n/tests/data_text.rs`) and run the tests below natively.

use spotlight_core::report::RunError;
use spotlight_core::train::TrainError;
use spotlight_i18n::status::Status;

/// A model's error in the page's language (`s`: its status texts).
pub fn run_error(s: &Status, e: &RunError) -> String {
    let f = &s.failure;
    match e {
        RunError::Train(TrainError::NonFinite { epoch, step, value }) => {
            (f.loss_diverged)(&value.to_string(), &epoch.to_string(), &step.to_string())
        }
        RunError::Train(TrainError::Backend(m)) => (f.backend_failed)(m),
        RunError::JobBeforeData => f.job_before_data.into(),
        RunError::AttackBeforeData => f.attack_before_data.into(),
        RunError::NothingToAttack => f.nothing_to_attack.into(),
        RunError::Other(text) => text.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use spotlight_i18n::Lang;

    #[test]
    fn every_run_error_is_written_in_every_language_and_english_is_the_cores() {
        let errors = [
            RunError::Train(TrainError::NonFinite { epoch: 2, step: 14, value: f64::NAN }),
            RunError::Train(TrainError::NonFinite { epoch: 1, step: 3, value: f64::INFINITY }),
            RunError::Train(TrainError::Backend("device lost".into())),
            RunError::JobBeforeData,
            RunError::AttackBeforeData,
            RunError::NothingToAttack,
        ];
        for e in &errors {
            let [en, es, pt] =
                [Lang::En, Lang::Es, Lang::Pt].map(|l| run_error(&l.texts().status, e));
            assert_eq!(en, e.to_string(), "English is the core's text");
            assert_eq!(RunError::read(&en).to_string(), en, "the report's text reads back");
            for (lang, text) in [("es", &es), ("pt", &pt)] {
                assert_ne!(text, &en, "{lang} is left in English: {en}");
            }
        }
        // Another error's text is shown as it is, in every language.
        let other = RunError::Other("the ROC needs members and non-members".into());
        for l in [Lang::En, Lang::Es, Lang::Pt] {
            assert_eq!(run_error(&l.texts().status, &other), other.to_string());
        }
    }
}
