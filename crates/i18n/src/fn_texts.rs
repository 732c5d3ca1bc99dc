//! The texts that are functions (`#[serde(skip)]`: the serialized walk of `lib.rs`'s
//! `every_language_translates_every_text` cannot see them), each called in every language with
//! sample arguments: none may be empty, and Spanish and Portuguese may not be English's (but for
//! the few listed in [`SAME_AS_ENGLISH`]). Each branch a text has (a bool, an `Option`) is called.
//!
//! A new function text is not forgotten: [`every_function_text_is_called`] reads each area's
//! source for its `pub name: fn(` fields and checks that [`called`] calls exactly those.

use crate::canary::{HistorySaid, SampleSaid, Scored, Verdict};
use crate::charts::Summary;
use crate::controls::CpuSize;
use crate::lenses::Outliers;
use crate::notices::{ClampedControl, InvalidControl, Large};
use crate::paper::Said;
use crate::status::{About, Comparison, PoolTooLarge, ShadowsSaid, Shape};
use crate::{Lang, Texts};

/// The function texts a language writes as English does, in [`called`]'s order.
const SAME_AS_ENGLISH: &[(Lang, &str)] = &[
    // "Error: …" is Spanish too.
    (Lang::Es, "status.progress.error"),
];

/// Calls `f` with `call`: the closure's argument gets its type from `f`.
fn call<F>(f: F, call: impl FnOnce(F) -> String) -> String {
    call(f)
}

/// Each function text's path, and its text: `path => |f| f(arguments)`.
macro_rules! called {
    ($t:ident; $($($path:ident).+ => $call:expr,)*) => {
        vec![$((stringify!($($path).+).replace(' ', ""), call($t.$($path).+, $call)),)*]
    };
}

/// Every function text of one language, called, by its path (`status.doing.training`).
fn called(t: &Texts) -> Vec<(String, String)> {
    let both = |f: &dyn Fn(bool) -> String| format!("{} | {}", f(true), f(false));
    called! { t;
        canary.scored => |f| {
            f(&Scored {
                model: "BN",
                confidence: "93%",
                rank: "2",
                of: "600",
                clean: "41%",
                non_member: "12%",
            })
        },
        canary.verdict => |f| {
            let v = |learned, likely| Verdict {
                model: "BN",
                learned,
                likely,
                above: "97".into(),
                rank: "3".into(),
                of: "600".into(),
            };
            [v(true, None), v(false, Some(true)), v(true, Some(false))].map(|v| f(&v)).join(" | ")
        },
        canary.predicts => |f| f("BN"),
        canary.gallery.model => |f| f("BN"),
        canary.gallery.ranked => |f| f(12, 600),
        canary.gallery.sample_says => |f| {
            let s = SampleSaid { phi: "4.2", mu_in: Some("3.9"), mu_out: "-1.2", score: "7.3" };
            format!("{} | {}", f(&s), f(&SampleSaid { mu_in: None, ..s }))
        },
        canary.gallery.history_says => |f| {
            let h = HistorySaid {
                loss_first: "2.4",
                loss_last: "0.1",
                margin_first: "-1.3",
                margin_last: "2.2",
                last_epoch: "6",
                since: Some("3"),
            };
            format!("{} | {}", f(&h), f(&HistorySaid { since: None, ..h }))
        },
        charts.median_over => |f| f("0.42", "30"),
        charts.at => |f| f("0.5", "epoch", "3"),
        charts.summary => |f| f(&Summary { count: "12", first: "0.1", last: "0.9", top: "0.95" }),
        charts.tpr_at_fpr => |f| f("12%", "1%"),
        controls.sized => |f| f(&CpuSize { train: 1000, epochs: 6, gpu_train: 3000, gpu_epochs: 10 }),
        lenses.memorized_says => |f| {
            let o = |ood| Outliers {
                epoch: "3".into(),
                ood,
                of: "50".into(),
                models: vec![("BN", "41".into()), ("no-BN", "3".into())],
            };
            both(&|ood| f(&o(ood)))
        },
        lenses.attack_says => |f| f(&[("BN", "12%".into()), ("no-BN", "3%".into())]),
        lenses.budget_says => |f| f(&crate::lenses::BudgetSaid { model: "BN", first: "3", with_first: "3 %", with_k: "9 %", k: "8" }),
        lenses.roc_flags => |f| {
            let r = crate::lenses::RocFlags { model: "BN", fpr: "1%", false_positives: "10", flagged: "113", members: "1000", shown: Some(("16", "9")) };
            format!("{} | {}", f(&r), f(&crate::lenses::RocFlags { shown: None, ..r }))
        },
        lenses.measured_earlier => |f| f("1000", "6"),
        notices.invalid => |f| f("epochs", "\"abc\"", "expected a number"),
        notices.clamped => |f| f("epochs", "\"1000\"", "200"),
        notices.repeated => |f| f("epochs"),
        notices.ignored => |f| f("a setting of 12345 characters"),
        notices.too_many => |f| f("64"),
        notices.too_long => |f| f("12345"),
        notices.conflict => |f| f("batch_size", "2048 is larger than train_size (100)"),
        notices.more => |f| f("29"),
        notices.ask_large => |f| {
            f(&Large {
                epochs: "200",
                samples: "30000",
                models: "130",
                passes: "780000000",
                times: "12",
                budget: "100000000",
            })
        },
        notices.expected_number => |f| f("1", "200"),
        notices.drawing_length => |f| f("196", "3"),
        notices.drawing_character => |f| f("'+'"),
        notices.out_of_range => |f| f("2500", "2", "2048"),
        notices.too_few_clean => |f| f("1.25", "0.9"),
        notices.batch_over_train => |f| f("2048", "100"),
        notices.same_norm => |f| f("GroupNorm"),
        notices.invalid_control => |f| {
            f(&InvalidControl { name: "epochs", raw: "\"abc\"", reason: "expected a number", kept: "5" })
        },
        notices.clamped_control => |f| {
            let c = |whole| ClampedControl { name: "epochs", raw: "1000", to: "200", min: "1", max: "200", whole };
            both(&|whole| f(&c(whole)))
        },
        notices.not_applied => |f| f("batch_size: 2048 is larger than train_size (100)"),
        paper.plain => |f| {
            let get = |_: &str| Some(0.5);
            let num = |x: f64, decimals: usize| format!("{x:.decimals$}");
            let said = Said { get: &get, num: &num };
            let ids: Vec<char> = t.paper.claims.iter().map(|c| c.id).collect();
            ids.iter().map(|&id| f(id, &said).unwrap_or_default()).collect::<Vec<_>>().join(" | ")
        },
        paper.captions.tradeoff => |f| f("5%"),
        theory.at_step => |f| f(40, 200),
        theory.bad_setting => |f| f("lr must be positive"),
        theory.data_says => |f| format!("{} | {}", f("0.3", Some("1.2")), f("0.3", None)),
        theory.margin_says => |f| {
            [f(Some(Some(12)), Some(40)), f(Some(None), None), f(None, Some(40))].join(" | ")
        },
        theory.ratio_says => |f| f(120, "1.1", 3),
        theory.gamma_says => |f| f("1.4", "1.1"),
        tour.count => |f| f(2, 4),
        status.banner.estimate => |f| format!("{} | {}", f(About::Seconds(30)), f(About::Minutes(3))),
        status.banner.on_page => |f| f("no workers"),
        status.banner.no_gpu_in_workers => |f| f("no adapter"),
        status.banner.cpu => |f| f("flex"),
        status.banner.lost => |f| f("destroyed"),
        status.banner.software_fallback => |f| f("SwiftShader"),
        status.banner.measured => |f| {
            format!("{} | {}", f("1,900", "2", "2,500", "2", false), f("9,000", "2", "2,500", "2", true))
        },
        status.banner.webgpu_unmeasured => |f| f("no answer"),
        status.banner.cpu_unmeasured => |f| f("no answer"),
        status.banner.no_answer => |f| f(30),
        status.banner.adapter_error => |f| f("TypeError: no adapter"),
        status.banner.webgpu_failed => |f| f("device lost"),
        status.progress.loading => |f| f("mnist.spds.gz"),
        status.progress.of_mb => |f| f("3.2", "11.0", "29%"),
        status.progress.unpacking => |f| f("mnist.spds.gz", "11.0"),
        status.progress.eta => |f| f("12"),
        status.progress.done_in => |f| f("26.0", "1,234"),
        status.progress.cancelled_at => |f| f("40%", "12.5"),
        status.progress.error => |f| f("the network broke off"),
        status.progress.say_training => |f| f("25%"),
        status.progress.say_done => |f| f("26"),
        status.doing.training => |f| f("BN and no-BN"),
        status.doing.shadows => |f| {
            f(&ShadowsSaid {
                done: "3".into(),
                all: "16".into(),
                per_model: "8".into(),
                running: "2".into(),
            })
        },
        status.doing.workers => |f| f("2"),
        status.doing.phases => |f| f("7.6", "shadow models 3.0 s", "0.1"),
        status.doing.shadows_s => |f| f("3.0"),
        status.failure.dataset => |f| f("the network broke off"),
        status.failure.ood_dataset => |f| f("the network broke off"),
        status.failure.kept => |f| f("cancelled"),
        status.failure.gpu_lost => |f| f("destroyed"),
        status.failure.errors => |f| format!("{} | {}", f(1), f(2)),
        status.failure.loss_diverged => |f| f("NaN", "2", "14"),
        status.failure.backend_failed => |f| f("device lost"),
        status.failure.jobs_missing => |f| format!("{} | {}", f("2", Some("3f9a")), f("2", None)),
        status.failure.not_a_target => |f| f("3f9a"),
        status.failure.worker_failed => |f| f("out of memory"),
        status.failure.worker_panicked => |f| f("index out of bounds"),
        status.failure.worker_start => |f| f("SecurityError"),
        status.failure.worker_started => |f| f("SecurityError"),
        status.failure.unreadable => |f| f("[object Object]"),
        status.failure.data_not_sent => |f| f("DataCloneError"),
        status.failure.task_not_sent => |f| f("DataCloneError"),
        status.failure.not_serialized => |f| f("key must be a string"),
        status.failure.worker_unreadable => |f| f("expected value at line 1"),
        status.load.broke_off => |f| f("NetworkError"),
        status.load.too_big => |f| f("64"),
        status.load.not_gzip => |f| f("mnist.spds.gz"),
        status.load.inflates_too_big => |f| f("64"),
        status.data.split_sizes => |f| f("train", "3000", "11"),
        status.data.label_out_of_range => |f| f("test", "12", "10"),
        status.data.classes => |f| format!("{} | {}", f(1), f(10)),
        status.data.shape => |f| {
            f(&Shape { size: "32×32", classes: "10 classes", want: "28×28", want_classes: "10 classes" })
        },
        status.data.empty_split => |f| f("60000", "0"),
        status.data.bad_gzip => |f| f("corrupt deflate stream"),
        status.data.trailing_bytes => |f| f("3"),
        status.data.truncated => |f| f("47040000", "70030", "1234"),
        status.data.pool_too_large => |f| {
            let p = |attack| PoolTooLarge { pool: "60000", attack, train: "50000", dataset: "mnist" };
            both(&|attack| f(&p(attack)))
        },
        status.data.canary_size => |f| f("784", "1024"),
        status.bench.gpu_work => |f| f("48", "1.2", "0.15"),
        status.bench.timing => |f| f("BN", "flex"),
        status.bench.timing_comparison => |f| f("flex"),
        status.bench.timing_shadows => |f| f("flex"),
        status.bench.shadows_caption => |f| f("4", "256", "32"),
        status.bench.unfinished => |f| f("cancelled"),
        status.bench.failed => |f| f("device lost"),
        status.bench.load_failed => |f| f("the network broke off"),
        status.bench.comparison => |f| {
            f(&Comparison { samples: "1000", epochs: "6", shadows: "16", backend: "flex" })
        },
        status.bench.in_workers => |f| f("2"),
        status.bench.in_all => |f| f("26.0"),
        status.bench.flipped_gap => |f| f("+38"),
    }
}

#[test]
fn every_function_text_is_written_in_every_language() {
    let [en, es, pt] = Lang::ALL.map(|l| called(l.texts()));
    let mut left = Vec::new();
    for (lang, other) in [(Lang::Es, &es), (Lang::Pt, &pt)] {
        for ((path, e), (_, o)) in en.iter().zip(other) {
            assert!(!e.is_empty() && !o.is_empty(), "{path}: empty in English or {lang:?}");
            if e == o {
                left.push((lang, path.as_str()));
            }
        }
    }
    assert_eq!(left, SAME_AS_ENGLISH, "the function texts left as English's, by language");
}

/// Each area's source, by the name of its member of [`Texts`].
const SOURCES: &[(&str, &str)] = &[
    ("page", include_str!("page.rs")),
    ("controls", include_str!("controls.rs")),
    ("fields", include_str!("fields.rs")),
    ("lenses", include_str!("lenses.rs")),
    ("status", include_str!("status.rs")),
    ("canary", include_str!("canary.rs")),
    ("tour", include_str!("tour.rs")),
    ("theory", include_str!("theory.rs")),
    ("paper", include_str!("paper.rs")),
    ("charts", include_str!("charts.rs")),
    ("notices", include_str!("notices.rs")),
];

#[test]
fn every_function_text_is_called() {
    let called = called(&crate::EN);
    let paths: Vec<&str> = called.iter().map(|(p, _)| p.as_str()).collect();
    let mut declared = 0;
    for (area, source) in SOURCES {
        // The area's `pub name: fn(…` fields, in every struct of its file.
        let mut fields: Vec<&str> = source
            .lines()
            .filter_map(|l| l.trim().strip_prefix("pub ")?.split_once(": fn(").map(|(n, _)| n))
            .collect();
        let mut listed: Vec<&str> = paths
            .iter()
            .filter(|p| p.split('.').next() == Some(*area))
            .filter_map(|p| p.rsplit('.').next())
            .collect();
        fields.sort_unstable();
        listed.sort_unstable();
        let not_called: Vec<_> = fields.iter().filter(|f| !listed.contains(f)).collect();
        let not_declared: Vec<_> = listed.iter().filter(|l| !fields.contains(l)).collect();
        assert!(
            not_called.is_empty() && not_declared.is_empty(),
            "{area}: not called in `called`: {not_called:?}; called but not declared: {not_declared:?}"
        );
        assert_eq!(listed, fields, "{area}: a function text called twice, or declared twice");
        declared += fields.len();
    }
    assert_eq!(paths.len(), declared, "every path once, in an area of `Texts`");
    // A function cannot be serialized: every function text is `#[serde(skip)]`, and so is only
    // one other text (a claim's letter). A function field the line scan above missed shows here.
    let skipped: usize = SOURCES.iter().map(|(_, s)| s.matches("#[serde(skip)]").count()).sum();
    assert_eq!(skipped, declared + 1, "a `#[serde(skip)]` text that is not called here");
}
