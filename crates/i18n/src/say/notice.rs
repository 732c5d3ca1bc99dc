//! The notices in a language: a link's [`Notice`]s (and the CLI's strict reading of a link), a
//! [`ConfigError`], a theory lab's [`TheoryError`], and what the controls say when a value is
//! refused, clamped or not applied. The core's enums say what happened, [`crate::notices`] holds
//! the sentences: the page writes them in its language, the CLI in English. A field is named by its
//! link name (`label_noise`), a value the link or a control gave is echoed quoted and shortened
//! ([`short`]).
//!
//! The core's errors print their variant and values, not a sentence: the sentences are only here,
//! and the tests here check the English ones word for word.

use crate::Lang;
use crate::notices::{ClampedControl, InvalidControl, Large, Notices};
use spotlight_core::canary::{CanaryError, TEXT_LEN};
use spotlight_core::config::{ConfigError, ConfigProblem, MAX_CORRUPTED, Range};
use spotlight_core::link::{AskWhy, Notice, StrictError, TooLong, short};
use spotlight_core::read::ReadError;
use spotlight_core::theory::TheoryError;

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
        ConfigProblem::SameNorm { norm } => {
            let names = lang.texts().fields.norm.options;
            let at = spotlight_core::config::Norm::ALL.iter().position(|n| n == norm).unwrap_or(0);
            (t.same_norm)(names.get(at).copied().unwrap_or(norm.name()))
        }
        ConfigProblem::NotJson(e) => format!("{}{e}", t.not_json),
        ConfigProblem::NotObject => t.not_object.to_string(),
        // serde's own text: English in every language.
        ConfigProblem::Json(e) => e.clone(),
    }
}

/// A link the CLI's strict reading refused: "key: the notice", a part too long named by what it
/// was ("a setting of 300 characters: ignored a setting of 300 characters"). The page reads links
/// leniently: only the CLI writes it (in English).
pub fn strict_error(lang: Lang, e: &StrictError) -> String {
    let field = match &e.notice {
        Notice::TooLong { what } => too_long(lang, what),
        _ => e.field.clone(),
    };
    format!("{field}: {}", link_notice(lang, &e.notice))
}

/// What of a link was too long to read.
fn too_long(lang: Lang, what: &TooLong) -> String {
    let t = texts(lang);
    match what {
        TooLong::Pairs { max } => (t.too_many)(&lang.plain(max)),
        TooLong::Part { len } => (t.too_long)(&lang.plain(len)),
    }
}

/// What is wrong with a theory lab's setting: "field: what is wrong".
pub fn theory_error(lang: Lang, e: &TheoryError) -> String {
    let t = texts(lang);
    let n = |x: &f64| lang.plain(x);
    match e {
        TheoryError::NotFinite { field } => format!("{field}: {}", t.not_finite),
        TheoryError::OutOfRange { field, value, min, max } => {
            format!("{field}: {}", (t.out_of_range)(&n(value), &n(min), &n(max)))
        }
        TheoryError::NotPositive { field } => format!("{field}: {}", t.not_positive),
    }
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
        Notice::TooLong { what } => (t.ignored)(&too_long(lang, what)),
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
    use spotlight_core::theory::TheoryConfig;

    /// `said` in every language, written (see [`assert_written`]); its English.
    fn said(what: &str, said: impl Fn(Lang) -> String) -> String {
        let [en, es, pt] = Lang::ALL.map(said);
        assert_written(what, &en, &es, &pt);
        en
    }

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

    /// What hostile links really give.
    fn hostile_notices() -> Vec<Notice> {
        let mut out = Vec::new();
        for q in [
            "epochs=abc&seed=-1&label_noise=0.9&epochs=3&x=1&backend=tpu&tour=9&lang=xx&hide=nope",
            "batch_size=2048&train_size=100",
        ] {
            out.extend(link::parse(q).notices);
        }
        out.extend(
            link::parse(&(0..80).map(|i| format!("k{i}=1")).collect::<Vec<_>>().join("&")).notices,
        );
        out.extend(link::parse(&format!("epochs={}", "9".repeat(300))).notices);
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
        out.extend(hostile_notices());
        out
    }

    #[test]
    fn every_notice_is_written_in_every_language() {
        for n in notices() {
            said(&format!("{n:?}"), |l| link_notice(l, &n));
        }
        for e in read_errors() {
            said(&format!("{e:?}"), |l| read_error(l, &e));
        }
        for p in problems() {
            let e = ConfigError { field: "canary".into(), problem: p };
            said(&format!("{e:?}"), |l| config_error(l, &e));
            said(&format!("{e:?}"), |l| not_applied(l, &e));
        }
        // serde's text stays as it is; the sentence around it is translated.
        let e = ConfigError {
            field: "epochs".into(),
            problem: ConfigProblem::Json("invalid type: string \"many\"".into()),
        };
        for l in Lang::ALL {
            assert_eq!(config_error(l, &e), "epochs: invalid type: string \"many\"");
        }
        said("Json", |l| not_applied(l, &e));
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
            said(&format!("{e:?}"), |l| config_error(l, &e));
        }
        for json in ["{", "[1]"] {
            let e = Config::from_json(json).unwrap_err();
            said(json, |l| config_error(l, &e));
        }
    }

    /// The English is the words the CLI and the page have always written (the core's `Display`
    /// before these texts were the only English).
    #[test]
    fn the_english_is_todays() {
        let en = |n: &Notice| link_notice(Lang::En, n);
        let cases = [
            (
                Notice::UnknownKey { key: "k".repeat(60) },
                format!("ignored unknown setting \"{}…\"", "k".repeat(40)),
            ),
            (
                Notice::Clamped { key: "label_noise".into(), value: "0.9".into(), to: 0.5 },
                "label_noise: \"0.9\" is out of range; clamped to 0.5".into(),
            ),
            (
                Notice::Repeated { key: "epochs".into() },
                "epochs was given more than once; the last value counts".into(),
            ),
            (
                Notice::TooLong { what: TooLong::Pairs { max: 64 } },
                "ignored everything after the first 64 settings".into(),
            ),
            (
                Notice::TooLong { what: TooLong::Part { len: 12345 } },
                "ignored a setting of 12345 characters".into(),
            ),
            (Notice::More { count: 29 }, "and 29 more not listed".into()),
            (
                Notice::Invalid {
                    key: "dataset".into(),
                    value: "cifar".into(),
                    reason: ReadError::ExpectedOneOf(vec!["mnist", "fashion"]),
                },
                "dataset: \"cifar\" is not valid (expected one of mnist, fashion); kept the default"
                    .into(),
            ),
            (
                Notice::Conflict {
                    key: "batch_size".into(),
                    reason: ConfigProblem::BatchOverTrain { batch: 2048, train: 100 },
                },
                "batch_size: 2048 is larger than train_size (100); kept the default".into(),
            ),
        ];
        for (n, text) in cases {
            assert_eq!(en(&n), text);
        }
        // A course link's bad parts and a bad backend, as a link gives them.
        let l = link::parse("show=seed,teach,bogus&hide=teach&tour=7&lang=xx&backend=tpu");
        let mut said: Vec<String> = l.notices.iter().map(en).collect();
        said.sort();
        assert_eq!(
            said,
            [
                "backend: \"tpu\" is not valid (allowed: ndarray, flex, cpu, wgpu, webgpu); kept the default",
                "lang: \"xx\" is not valid (expected one of en, es, pt); kept the default",
                "show: \"bogus\" is not valid (not a part of the page); kept the default",
                "tour: \"7\" is not valid (a tour step is a whole number from 1 to 4); kept the default",
            ]
        );
        // Echoes are shortened: no notice of a long key or value runs on.
        let long = "k".repeat(150);
        for n in &link::parse(&format!("{long}=1&{long}=2&backend={long}")).notices {
            assert!(en(n).chars().count() < 150, "{}", en(n));
        }
        let q: String = (0..40).map(|i| format!("bad{i}=1&")).collect();
        let last = link::parse(&q).notices.pop().unwrap();
        assert_eq!(en(&last), format!("and {} more not listed", 40 - (link::MAX_NOTICES - 1)));
        for bad in ["AAAA", &"!".repeat(131), &"A".repeat(131)] {
            let notices = link::parse(&format!("canary={bad}")).notices;
            assert!(en(&notices[0]).starts_with("canary: "), "{}", en(&notices[0]));
            assert!(en(&notices[0]).contains("(not a drawing: "), "{}", en(&notices[0]));
        }
        let e = ConfigError { field: "shadow_models".into(), problem: ConfigProblem::OneShadow };
        assert_eq!(
            config_error(Lang::En, &e),
            "shadow_models: 1 is not enough: LiRA needs an IN and an OUT model for every candidate; use 0 (no attack) or at least 2"
        );
        assert_eq!(
            read_error(Lang::En, &field("canary").unwrap().read("abc").unwrap_err()),
            "not a drawing: a drawing is 131 characters, this is 3"
        );
        assert_eq!(
            read_error(Lang::En, &ReadError::ExpectedSeed),
            "expected a whole number from 0 to 18446744073709551615"
        );
    }

    /// The English the CLI writes for a value it cannot read and a config that cannot run, word for
    /// word (the core's errors carry no sentence of their own).
    #[test]
    fn the_read_canary_and_config_errors_say_in_english_what_the_cli_writes() {
        let read: Vec<String> = read_errors().iter().map(|e| read_error(Lang::En, e)).collect();
        assert_eq!(
            read,
            [
                "expected true or false",
                "expected one of mnist, fashion",
                "expected a number from 0.05 to 10",
                "expected a whole number from 0 to 18446744073709551615",
                "allowed: ndarray, flex",
                "not a part of the page",
                "a tour step is a whole number from 1 to 4",
                "not a drawing: a drawing is 131 characters, this is 3",
                "not a drawing: '+' is not one of A–Z a–z 0–9 - _",
                "not a drawing: its last character has bits beyond the 784 pixels",
                "not a drawing: the drawing is empty",
            ]
        );
        let problems: Vec<String> = problems()
            .iter()
            .chain(&[ConfigProblem::SameNorm { norm: spotlight_core::config::Norm::Group }])
            .map(|p| config_error(Lang::En, &ConfigError { field: "f".into(), problem: p.clone() }))
            .collect();
        assert_eq!(
            problems,
            [
                "f: 2500 is out of range; allowed 2 to 2048",
                "f: label_noise + ood_fraction = 1.25 leaves too few clean samples; allowed at most 0.9",
                "f: 1 is not enough: LiRA needs an IN and an OUT model for every candidate; use 0 (no attack) or at least 2",
                "f: 2048 is larger than train_size (100)",
                "f: not valid JSON: expected value at line 1 column 1",
                "f: expected a JSON object",
                "f: not a drawing: a drawing is 131 characters, this is 3",
                "f: not a drawing: '+' is not one of A–Z a–z 0–9 - _",
                "f: not a drawing: its last character has bits beyond the 784 pixels",
                "f: not a drawing: the drawing is empty",
                "f: GroupNorm is compared with itself; choose another normalization",
            ]
        );
        // serde's own text stays as serde wrote it, in every language.
        let json = ConfigProblem::Json("invalid type: string \"many\"".into());
        for lang in Lang::ALL {
            assert_eq!(config_problem(lang, &json), "invalid type: string \"many\"");
        }
    }

    #[test]
    fn a_link_the_cli_refuses_names_its_key() {
        let e = link::parse_strict("epochs=0").unwrap_err();
        let en = said("strict", |l| strict_error(l, &e));
        assert_eq!(en, "epochs: epochs: \"0\" is out of range; clamped to 1");
        let e = link::parse_strict("dataset=cifar").unwrap_err();
        assert_eq!(
            strict_error(Lang::En, &e),
            "dataset: dataset: \"cifar\" is not valid (expected one of mnist, fashion); kept the default"
        );
        // A part too long is named by what it was: the CLI's message as before.
        let e = link::parse_strict(&format!("epochs={}", "x".repeat(10_000_000))).unwrap_err();
        let en = said("too long", |l| strict_error(l, &e));
        assert_eq!(
            en,
            "a setting of 10000007 characters: ignored a setting of 10000007 characters"
        );
        let e = StrictError {
            field: "link".into(),
            notice: Notice::TooLong { what: TooLong::Pairs { max: 64 } },
        };
        assert_eq!(
            strict_error(Lang::En, &e),
            "everything after the first 64 settings: ignored everything after the first 64 settings"
        );
    }

    #[test]
    fn a_theory_labs_setting_is_written_in_every_language() {
        let errors = [
            TheoryError::NotFinite { field: "lr" },
            TheoryError::OutOfRange { field: "batch_size", value: 49.0, min: 2.0, max: 48.0 },
            TheoryError::NotPositive { field: "eps" },
        ];
        let en: Vec<String> =
            errors.iter().map(|e| said(&format!("{e:?}"), |l| theory_error(l, e))).collect();
        assert_eq!(
            en,
            [
                "lr: not a finite number",
                "batch_size: 49 is out of range; allowed 2 to 48",
                "eps: must be above 0",
            ]
        );
        // What the core itself gives.
        for c in [
            TheoryConfig { lr: f64::NAN, ..TheoryConfig::default() },
            TheoryConfig { lr: 0.0, ..TheoryConfig::default() },
            TheoryConfig { steps: 0, ..TheoryConfig::default() },
        ] {
            let e = c.validate().unwrap_err();
            said(&format!("{e:?}"), |l| theory_error(l, &e));
        }
        assert_eq!(
            theory_error(Lang::Es, &errors[1]),
            "batch_size: 49 está fuera de rango; se permite de 2 a 48"
        );
    }

    #[test]
    fn why_a_link_waits_is_written_in_every_language() {
        let large = link::parse("run=1&epochs=200&train_size=30000&shadow_models=64");
        for gpu in [false, true] {
            for frame in [false, true] {
                let link::AutoRun::Ask(why) = link::autorun(&large, gpu, frame) else {
                    panic!("a max-cost link must ask")
                };
                said(&format!("{why:?}"), |l| ask(l, &why));
            }
        }
        let link::AutoRun::Ask(why) = link::autorun(&large, false, true) else { unreachable!() };
        assert!(ask(Lang::En, &why).contains("another site"), "{}", ask(Lang::En, &why));
        let link::AutoRun::Ask(why) = link::autorun(&large, false, false) else { unreachable!() };
        let en = ask(Lang::En, &why);
        assert!(
            en.contains("200 epochs × 30000 samples × 130 models = 780,000,000 sample passes"),
            "{en}"
        );
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
        let en = said("invalid", |l| invalid_control(l, "epochs", raw, &reason, "5"));
        assert_eq!(en, "epochs: \"abc\" is not valid (expected a number from 1 to 200); kept 5");
        for (name, raw) in [("epochs", "1000"), ("label_noise", "0.75")] {
            let f = field(name).unwrap();
            let (to, r) = (f.read(raw).unwrap().clamped.unwrap(), f.range().unwrap());
            let en = said(name, |l| clamped_control(l, name, raw, to, r));
            let today = format!(
                "{name}: {raw} set to {to} (allowed {} to {}{})",
                r.min,
                r.max,
                if r.integer { ", whole numbers" } else { "" }
            );
            assert_eq!(en, today);
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
