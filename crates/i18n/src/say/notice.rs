//! The notices in the page's language: a link's [`Notice`]s, a [`ConfigError`], and what the
//! controls say when a value is refused, clamped or not applied. The core's enums say what
//! happened, [`crate::notices`] holds the sentences; English is the core's `Display`, word
//! for word (the CLI's and the browser tests' texts). A field is named by its link name
//! (`label_noise`), a value the link or a control gave is echoed quoted as the core echoes it.

use crate::Lang;
use crate::notices::{ClampedControl, InvalidControl, Large, Notices};
use spotlight_core::canary::{CanaryError, TEXT_LEN};
use spotlight_core::config::{ConfigError, ConfigProblem, MAX_CORRUPTED, Range};
#[cfg(test)]
use spotlight_core::link::StrictError;
use spotlight_core::link::{AskWhy, Notice, TooLong, short};
use spotlight_core::read::ReadError;

fn texts(lang: Lang) -> &'static Notices {
    &lang.texts().notices
}

/// A key or value a link gave, as a notice echoes it: shortened and quoted.
fn quoted(s: &str) -> String {
    format!("{:?}", short(s))
}

/// Why a text is not a drawing.
pub fn canary_error(lang: Lang, e: &CanaryError) -> String {
    let t = texts(lang);
    match e {
        CanaryError::Length { len } => (t.drawing_length)(&lang.plain(TEXT_LEN), &lang.plain(len)),
        CanaryError::Character(c) => (t.drawing_character)(&format!("{c:?}")),
        CanaryError::Spill => t.drawing_spill.to_string(),
        CanaryError::Empty => t.drawing_empty.to_string(),
    }
}

/// Why a value does not fit a field (or a link key: `backend=`, `tour=`, `hide=`).
pub fn read_error(lang: Lang, e: &ReadError) -> String {
    let t = texts(lang);
    match e {
        ReadError::ExpectedBool => t.expected_bool.to_string(),
        ReadError::ExpectedOneOf(names) => format!("{}{}", t.expected_one_of, names.join(", ")),
        ReadError::ExpectedNumber { min, max } => {
            (t.expected_number)(&lang.plain(min), &lang.plain(max))
        }
        ReadError::ExpectedSeed => format!("{}{}", t.expected_seed, lang.plain(u64::MAX)),
        ReadError::NotDrawing(why) => format!("{}{}", t.not_drawing, canary_error(lang, why)),
        ReadError::Allowed(names) => format!("{}{}", t.allowed, names.join(", ")),
        ReadError::NotAPart => t.not_a_part.to_string(),
        ReadError::TourStep { max } => format!("{}{}", t.tour_step, lang.plain(max)),
    }
}

/// What is wrong with a config's field (without the field's name).
pub fn config_problem(lang: Lang, p: &ConfigProblem) -> String {
    let t = texts(lang);
    match p {
        ConfigProblem::OutOfRange { value, min, max } => {
            (t.out_of_range)(&lang.plain(value), &lang.plain(min), &lang.plain(max))
        }
        ConfigProblem::TooFewClean { sum } => {
            (t.too_few_clean)(&lang.plain(sum), &lang.plain(MAX_CORRUPTED))
        }
        ConfigProblem::OneShadow => t.one_shadow.to_string(),
        ConfigProblem::NotDrawing(why) => format!("{}{}", t.not_drawing, canary_error(lang, why)),
        ConfigProblem::BatchOverTrain { batch, train } => {
            (t.batch_over_train)(&lang.plain(batch), &lang.plain(train))
        }
        ConfigProblem::NotJson(e) => format!("{}{e}", t.not_json),
        ConfigProblem::NotObject => t.not_object.to_string(),
        // serde's own text: English in every language.
        ConfigProblem::Json(e) => e.clone(),
    }
}

/// A link the CLI's strict reading refused: "key: the notice" (the page reads links leniently, so
/// only the tests write it, in every language).
#[cfg(test)]
pub fn strict_error(lang: Lang, e: &StrictError) -> String {
    format!("{}: {}", e.field, link_notice(lang, &e.notice))
}

/// A config that cannot run: "field: what is wrong".
pub fn config_error(lang: Lang, e: &ConfigError) -> String {
    format!("{}: {}", e.field, config_problem(lang, &e.problem))
}

/// One of a link's notices.
pub fn link_notice(lang: Lang, n: &Notice) -> String {
    let t = texts(lang);
    match n {
        Notice::UnknownKey { key } => format!("{}{}", t.unknown_key, quoted(key)),
        Notice::Invalid { key, value, reason } => {
            (t.invalid)(key, &quoted(value), &read_error(lang, reason))
        }
        Notice::Clamped { key, value, to } => (t.clamped)(key, &quoted(value), &lang.plain(to)),
        Notice::Repeated { key } => (t.repeated)(&short(key)),
        Notice::TooLong { what: TooLong::Pairs { max } } => (t.too_many)(&lang.plain(max)),
        Notice::TooLong { what: TooLong::Part { len } } => (t.too_long)(&lang.plain(len)),
        Notice::Conflict { key, reason } => (t.conflict)(key, &config_problem(lang, reason)),
        Notice::More { count } => (t.more)(&lang.plain(count)),
    }
}

/// Why a `run=1` link waits for a click.
pub fn ask(lang: Lang, why: &AskWhy) -> String {
    let t = texts(lang);
    match why {
        AskWhy::ForeignFrame => t.ask_foreign_frame.to_string(),
        AskWhy::Large { cost, passes, budget, times } => (t.ask_large)(&Large {
            epochs: &lang.plain(cost.epochs),
            samples: &lang.plain(cost.samples),
            models: &lang.plain(cost.models),
            passes: &lang.int(*passes),
            times: &lang.plain(times.round()),
            budget: &lang.int(*budget),
        }),
    }
}

/// A control's text the field refused: `name` the field's link name, `raw` what was typed,
/// `kept` the value the control shows again.
pub fn invalid_control(
    lang: Lang,
    name: &str,
    raw: &str,
    reason: &ReadError,
    kept: &str,
) -> String {
    (texts(lang).invalid_control)(&InvalidControl {
        name,
        raw: &format!("{raw:?}"),
        reason: &read_error(lang, reason),
        kept,
    })
}

/// A control's number outside the field's range, set to `to`.
pub fn clamped_control(lang: Lang, name: &str, raw: &str, to: f64, range: &Range) -> String {
    let n = |x: f64| lang.plain(x);
    (texts(lang).clamped_control)(&ClampedControl {
        name,
        raw,
        to: &n(to),
        min: &n(range.min),
        max: &n(range.max),
        whole: range.integer,
    })
}

/// A control's value that would make the config unable to run, not applied.
pub fn not_applied(lang: Lang, e: &ConfigError) -> String {
    (texts(lang).not_applied)(&config_error(lang, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::say::assert_written;
    use spotlight_core::config::{Config, field};
    use spotlight_core::link;

    fn canary_errors() -> Vec<CanaryError> {
        vec![
            CanaryError::Length { len: 3 },
            CanaryError::Character('+'),
            CanaryError::Spill,
            CanaryError::Empty,
        ]
    }

    fn read_errors() -> Vec<ReadError> {
        let mut out = vec![
            ReadError::ExpectedBool,
            ReadError::ExpectedOneOf(vec!["mnist", "fashion"]),
            ReadError::ExpectedNumber { min: 0.05, max: 10.0 },
            ReadError::ExpectedSeed,
            ReadError::Allowed(vec!["ndarray", "flex"]),
            ReadError::NotAPart,
            ReadError::TourStep { max: 4 },
        ];
        out.extend(canary_errors().into_iter().map(ReadError::NotDrawing));
        out
    }

    /// Every problem but serde's text (English everywhere).
    fn problems() -> Vec<ConfigProblem> {
        let mut out = vec![
            ConfigProblem::OutOfRange { value: 2500.0, min: 2.0, max: 2048.0 },
            ConfigProblem::TooFewClean { sum: 1.25 },
            ConfigProblem::OneShadow,
            ConfigProblem::BatchOverTrain { batch: 2048, train: 100 },
            ConfigProblem::NotJson("expected value at line 1 column 1".into()),
            ConfigProblem::NotObject,
        ];
        out.extend(canary_errors().into_iter().map(ConfigProblem::NotDrawing));
        out
    }

    fn notices() -> Vec<Notice> {
        let mut out = vec![
            Notice::UnknownKey { key: "k".repeat(60) },
            Notice::Clamped { key: "label_noise".into(), value: "0.9".into(), to: 0.5 },
            Notice::Repeated { key: "epochs".into() },
            Notice::TooLong { what: TooLong::Pairs { max: link::MAX_PAIRS } },
            Notice::TooLong { what: TooLong::Part { len: 12345 } },
            Notice::More { count: 29 },
        ];
        out.extend(read_errors().into_iter().map(|reason| Notice::Invalid {
            key: "dataset".into(),
            value: "cifar".into(),
            reason,
        }));
        out.extend(
            problems()
                .into_iter()
                .map(|reason| Notice::Conflict { key: "batch_size".into(), reason }),
        );
        // And what hostile links really give.
        for q in [
            "epochs=abc&seed=-1&label_noise=0.9&epochs=3&x=1&backend=tpu&tour=9&lang=xx&hide=nope",
            "batch_size=2048&train_size=100",
        ] {
            out.extend(link::parse(q).notices);
        }
        out.extend(
            link::parse(&(0..80).map(|i| format!("k{i}=1")).collect::<Vec<_>>().join("&")).notices,
        );
        out
    }

    #[test]
    fn every_notice_is_written_in_every_language_and_english_is_the_cores() {
        for n in notices() {
            let [en, es, pt] = Lang::ALL.map(|l| link_notice(l, &n));
            assert_written(&format!("{n:?}"), &en, &es, &pt, &n.to_string());
        }
        for e in read_errors() {
            let [en, es, pt] = Lang::ALL.map(|l| read_error(l, &e));
            assert_written(&format!("{e:?}"), &en, &es, &pt, &e.to_string());
        }
        for p in problems() {
            let e = ConfigError { field: "canary".into(), problem: p };
            let [en, es, pt] = Lang::ALL.map(|l| config_error(l, &e));
            assert_written(&format!("{e:?}"), &en, &es, &pt, &e.to_string());
            let [en, es, pt] = Lang::ALL.map(|l| not_applied(l, &e));
            assert_written(&format!("{e:?}"), &en, &es, &pt, &format!("{e}; not applied"));
        }
        // serde's text stays as it is; the sentence around it is translated.
        let e = ConfigError {
            field: "epochs".into(),
            problem: ConfigProblem::Json("invalid type: string \"many\"".into()),
        };
        assert_eq!(config_error(Lang::Es, &e), e.to_string());
        assert_written(
            "Json",
            &not_applied(Lang::En, &e),
            &not_applied(Lang::Es, &e),
            &not_applied(Lang::Pt, &e),
            &format!("{e}; not applied"),
        );
        // What the core itself gives.
        let bad = [
            Config { epochs: 0, ..Config::default() },
            Config { label_noise: 0.5, ood_fraction: 0.5, ..Config::default() },
            Config { shadow_models: 1, ..Config::default() },
            Config { batch_size: 256, train_size: 100, ..Config::default() },
            Config { canary: "A".repeat(TEXT_LEN), ..Config::default() },
        ];
        for c in bad {
            let e = c.validate().unwrap_err();
            let [en, es, pt] = Lang::ALL.map(|l| config_error(l, &e));
            assert_written(&format!("{e:?}"), &en, &es, &pt, &e.to_string());
        }
        for json in ["{", "[1]"] {
            let e = Config::from_json(json).unwrap_err();
            let [en, es, pt] = Lang::ALL.map(|l| config_error(l, &e));
            assert_written(json, &en, &es, &pt, &e.to_string());
        }
        let e = link::parse_strict("epochs=0").unwrap_err();
        assert_written(
            "strict",
            &strict_error(Lang::En, &e),
            &strict_error(Lang::Es, &e),
            &strict_error(Lang::Pt, &e),
            &e.to_string(),
        );
    }

    #[test]
    fn why_a_link_waits_is_written_in_every_language_and_english_is_the_cores() {
        let large = link::parse("run=1&epochs=200&train_size=30000&shadow_models=64");
        for gpu in [false, true] {
            for frame in [false, true] {
                let link::AutoRun::Ask(why) = link::autorun(&large, gpu, frame) else {
                    panic!("a max-cost link must ask")
                };
                let [en, es, pt] = Lang::ALL.map(|l| ask(l, &why));
                assert_written(&format!("{why:?}"), &en, &es, &pt, &why.to_string());
            }
        }
        let link::AutoRun::Ask(why) = link::autorun(&large, false, false) else { unreachable!() };
        assert!(
            ask(Lang::Pt, &why)
                .contains("200 épocas × 30.000 amostras × 130 modelos = 780.000.000"),
            "{}",
            ask(Lang::Pt, &why)
        );
    }

    #[test]
    fn the_controls_notices_are_todays_english() {
        let epochs = field("epochs").unwrap();
        let r = epochs.range().unwrap();
        let (raw, reason) = ("abc", epochs.read("abc").unwrap_err());
        let [en, es, pt] = Lang::ALL.map(|l| invalid_control(l, "epochs", raw, &reason, "5"));
        assert_written(
            "invalid",
            &en,
            &es,
            &pt,
            &format!("epochs: {raw:?} is not valid ({reason}); kept 5"),
        );
        assert_eq!(en, "epochs: \"abc\" is not valid (expected a number from 1 to 200); kept 5");
        for (name, raw) in [("epochs", "1000"), ("label_noise", "0.75")] {
            let f = field(name).unwrap();
            let (to, r) = (f.read(raw).unwrap().clamped.unwrap(), f.range().unwrap());
            let [en, es, pt] = Lang::ALL.map(|l| clamped_control(l, name, raw, to, r));
            let today = format!(
                "{name}: {raw} set to {to} (allowed {} to {}{})",
                r.min,
                r.max,
                if r.integer { ", whole numbers" } else { "" }
            );
            assert_written(name, &en, &es, &pt, &today);
        }
        assert_eq!(
            clamped_control(Lang::En, "epochs", "1000", 200.0, r),
            "epochs: 1000 set to 200 (allowed 1 to 200, whole numbers)"
        );
        assert_eq!(
            clamped_control(
                Lang::Es,
                "label_noise",
                "0.75",
                0.5,
                field("label_noise").unwrap().range().unwrap()
            ),
            "label_noise: 0.75 se ajustó a 0,5 (se permite de 0 a 0,5)"
        );
        let e = Config { batch_size: 2048, train_size: 100, ..Config::default() }
            .validate()
            .unwrap_err();
        assert_eq!(
            not_applied(Lang::En, &e),
            "batch_size: 2048 is larger than train_size (100); not applied"
        );
        assert_eq!(
            not_applied(Lang::Pt, &e),
            "batch_size: 2.048 é maior que train_size (100); não aplicado"
        );
    }
}
