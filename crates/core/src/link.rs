//! Share links: the whole [`Config`] in a URL query string, and back.
//!
//! The query uses `Config`'s own serde field names and values (`?dataset=mnist&label_noise=0.05&…`),
//! decoded the `application/x-www-form-urlencoded` way (`form_urlencoded`) and read field by field
//! through the core's field table ([`FIELDS`](crate::config::FIELDS)), the same reader the app's
//! controls use. Reading is lenient — a share link is user input: what cannot be used is reported
//! as a [`Notice`] and the field keeps its default, and a number out of range is clamped to its
//! [`Range`](crate::config::Range). [`parse_strict`] turns any notice into an error (the CLI).

use std::fmt;

use crate::backend::BackendName;
use crate::config::{Config, ConfigError, ConfigProblem, Cost, FIELDS, field};
use crate::course::{self, Course};
use crate::read::ReadError;

/// Keys and values longer than this are rejected without being looked at further.
pub const MAX_PART: usize = 200;

/// At most this many `key=value` pairs are read.
pub const MAX_PAIRS: usize = 64;

/// Query keys that are not `Config` fields but belong to the link: `run=1` starts the experiment at
/// once, `backend=` picks the backend in the app, `bench=1` runs the app's benchmark (throughput
/// per backend and model, then the wall time of the link's comparison), `measure=1` has it measure
/// which backend trains faster even where WebGPU is only a software adapter; a course link's
/// `hide=`, `show=`, `tour=` and `lang=` ([`crate::course`]).
pub const LINK_KEYS: [&str; 8] =
    ["run", "backend", "bench", "measure", "hide", "show", "tour", "lang"];

/// Something in a link that could not be used as it was. Its words are `spotlight-i18n`'s
/// (`say::notice::link_notice`, by variant: the page in its language, the CLI in English); its
/// `Display` is only the variant and its values (a developer's log).
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    /// Not a field of the experiment.
    UnknownKey { key: String },
    /// The value does not fit the field; the default is kept.
    Invalid { key: String, value: String, reason: ReadError },
    /// A number outside the field's range, clamped.
    Clamped { key: String, value: String, to: f64 },
    /// The key appeared more than once; the last value counts.
    Repeated { key: String },
    /// A part too long, or too many parts: ignored.
    TooLong { what: TooLong },
    /// The combination of values cannot run (e.g. batch larger than the training set): defaults.
    Conflict { key: String, reason: ConfigProblem },
    /// More notices than a page should list: how many more there were.
    More { count: usize },
}

/// What of a link was too long to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TooLong {
    /// Everything after the first `max` ([`MAX_PAIRS`]) settings.
    Pairs { max: usize },
    /// One `key=value` part of `len` characters.
    Part { len: usize },
}

impl Notice {
    /// The key the notice is about ("link" for a part too long or too many parts, "notices" for
    /// [`Notice::More`]).
    pub fn key(&self) -> &str {
        match self {
            Self::UnknownKey { key }
            | Self::Invalid { key, .. }
            | Self::Clamped { key, .. }
            | Self::Repeated { key }
            | Self::Conflict { key, .. } => key,
            Self::TooLong { .. } => "link",
            Self::More { .. } => "notices",
        }
    }
}

/// A key or value as a notice echoes it: its first 40 characters, then `…`.
pub fn short(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

/// The variant and its values, not a sentence (`UnknownKey { key: "x" }`).
impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

/// A parsed link.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    pub config: Config,
    /// `run=1`: start at once.
    pub run: bool,
    /// `backend=…`, if given and a backend's name.
    pub backend: Option<BackendName>,
    /// `bench=1`: run the benchmark.
    pub bench: bool,
    /// `measure=1`: time both backends before choosing, even a software WebGPU adapter (the page
    /// measures a hardware one anyway).
    pub measure: bool,
    /// What a course link hides, and its tour's step.
    pub course: Course,
    pub notices: Vec<Notice>,
    /// Whether the link names any experiment setting. One that names none opens the default
    /// sized to the backend ([`Config::for_backend`]); one that names some fills the rest from
    /// [`Config::default`].
    pub config_given: bool,
}

/// Reads a query string (with or without the leading `?`) leniently.
pub fn parse(query: &str) -> Link {
    let query = query.strip_prefix('?').unwrap_or(query);
    let mut link = Link {
        config: Config::default(),
        run: false,
        backend: None,
        bench: false,
        measure: false,
        course: Course::default(),
        notices: Vec::new(),
        config_given: false,
    };
    let mut seen: Vec<String> = Vec::new();
    // A course link's lists, applied once all is read: `show=` first, then `hide=`.
    let (mut show, mut hide): (Option<Vec<String>>, Vec<String>) = (None, Vec::new());
    let mut fields = serde_json::Map::new();
    let mut legacy_bn: Option<bool> = None;
    for (n, part) in query.split('&').filter(|p| !p.is_empty()).enumerate() {
        if n >= MAX_PAIRS {
            link.notices.push(Notice::TooLong { what: TooLong::Pairs { max: MAX_PAIRS } });
            break;
        }
        if part.len() > 2 * MAX_PART + 1 {
            link.notices.push(Notice::TooLong { what: TooLong::Part { len: part.len() } });
            continue;
        }
        // `+` and `%XX` decoded the form way; a bad escape is kept as it is, non-UTF-8 replaced.
        let Some((key, value)) = form_urlencoded::parse(part.as_bytes()).next() else { continue };
        let (key, value) = (key.into_owned(), value.into_owned());
        if key.len() > MAX_PART || value.len() > MAX_PART {
            link.notices.push(Notice::TooLong { what: TooLong::Part { len: part.len() } });
            continue;
        }
        if seen.contains(&key) {
            if !link.notices.contains(&Notice::Repeated { key: key.clone() }) {
                link.notices.push(Notice::Repeated { key: key.clone() });
            }
        } else {
            seen.push(key.clone());
        }
        match key.as_str() {
            "run" => link.run = matches!(value.as_str(), "1" | "true" | "yes"),
            "bench" => link.bench = matches!(value.as_str(), "1" | "true" | "yes"),
            "measure" => link.measure = matches!(value.as_str(), "1" | "true" | "yes"),
            "backend" => match BackendName::parse(&value) {
                Ok(b) => link.backend = Some(b),
                Err(reason) => link.notices.push(Notice::Invalid { key, value, reason }),
            },
            "hide" | "show" => {
                let (known, unknown) = course::read_list(&value);
                for u in unknown {
                    link.notices.push(Notice::Invalid {
                        key: key.clone(),
                        value: u.to_string(),
                        reason: ReadError::NotAPart,
                    });
                }
                let known = known.into_iter().map(str::to_string).collect();
                if key == "show" { show = Some(known) } else { hide = known }
            }
            "lang" => match course::read_lang(&value) {
                Ok(l) => link.course.lang = Some(l),
                Err(reason) => link.notices.push(Notice::Invalid { key, value, reason }),
            },
            "tour" => match course::read_tour(&value) {
                Ok(t) => link.course.tour = Some(t),
                Err(reason) => link.notices.push(Notice::Invalid { key, value, reason }),
            },
            _ => {
                // An old link's `batch_norm=true|false`: the single model's normalization (it
                // did nothing in a comparison), applied once all is read.
                if key == "batch_norm" && matches!(value.as_str(), "true" | "false") {
                    legacy_bn = Some(value == "true");
                    link.config_given = true;
                    continue;
                }
                let Some(field) = field(&key) else {
                    link.notices.push(Notice::UnknownKey { key });
                    continue;
                };
                link.config_given = true;
                // The field table reads the text: a number out of range is clamped, not refused.
                match field.read(&value) {
                    Ok(read) => {
                        if let Some(to) = read.clamped {
                            link.notices.push(Notice::Clamped {
                                key: key.clone(),
                                value: value.clone(),
                                to,
                            });
                        }
                        fields.insert(key, read.value);
                    }
                    Err(reason) => link.notices.push(Notice::Invalid { key, value, reason }),
                }
            }
        }
    }
    let mut hidden: Vec<String> = match show {
        Some(show) => {
            course::parts().into_iter().map(str::to_string).filter(|p| !show.contains(p)).collect()
        }
        None => Vec::new(),
    };
    hidden.extend(hide);
    link.course = Course::new(hidden.iter().map(String::as_str), link.course.tour)
        .with_lang(link.course.lang);
    if let Some(bn) = legacy_bn
        && fields.get("compare") == Some(&serde_json::Value::Bool(false))
        && !fields.contains_key("norm")
    {
        fields.insert("norm".into(), serde_json::Value::from(if bn { "batch" } else { "none" }));
    }
    let config: Config =
        serde_json::from_value(serde_json::Value::Object(fields)).unwrap_or_default();
    match config.validate() {
        Ok(()) => link.config = config,
        Err(ConfigError { field, problem }) => {
            link.notices.push(Notice::Conflict { key: field, reason: problem });
            // Keep what is valid alone: drop the conflicting field back to its default.
            let mut c = config;
            let d = Config::default();
            match () {
                _ if c.batch_size > c.train_size => c.batch_size = d.batch_size.min(c.train_size),
                _ if c.compare && c.norm == c.versus => {
                    (c.norm, c.versus) = (d.norm, d.versus);
                }
                _ => {
                    c.label_noise = d.label_noise;
                    c.ood_fraction = d.ood_fraction;
                }
            }
            link.config = if c.validate().is_ok() { c } else { Config::default() };
        }
    }
    cap_notices(&mut link.notices);
    link
}

/// The most notices a link lists; past it, the last line says how many more there were.
pub const MAX_NOTICES: usize = 12;

/// Keeps at most [`MAX_NOTICES`] notices, the last one saying how many were left out.
pub fn cap_notices(notices: &mut Vec<Notice>) {
    if notices.len() > MAX_NOTICES {
        let count = notices.len() - (MAX_NOTICES - 1);
        notices.truncate(MAX_NOTICES - 1);
        notices.push(Notice::More { count });
    }
}

/// The most a link may run by itself (`run=1`) without asking, in sample passes (epochs ×
/// samples × models, [`Config::cost`]): four times the default comparison on the CPU, twenty
/// times on a GPU.
pub fn autorun_budget(gpu: bool) -> u64 {
    let default = Config::default().cost().sample_passes();
    if gpu { 20 * default } else { 4 * default }
}

/// What a page opened with `run=1` does.
#[derive(Clone, Debug, PartialEq)]
pub enum AutoRun {
    /// No `run=1`: wait for the button.
    No,
    /// Start at once.
    Start,
    /// Ask first, saying why.
    Ask(AskWhy),
}

/// Why a `run=1` link waits for a click.
#[derive(Clone, Debug, PartialEq)]
pub enum AskWhy {
    /// The page is inside another site's page.
    ForeignFrame,
    /// The run is larger than the backend's budget ([`autorun_budget`]): its cost, in sample
    /// passes, and how many default comparisons that is.
    Large { cost: Cost, passes: u64, budget: u64, times: f64 },
}

/// Whether a link's `run=1` may start the run by itself: only when its cost is within the
/// backend's budget, and never inside a frame of another site (which could make a visitor's
/// machine train without their asking).
pub fn autorun(link: &Link, gpu: bool, in_foreign_frame: bool) -> AutoRun {
    if !link.run {
        return AutoRun::No;
    }
    if in_foreign_frame {
        return AutoRun::Ask(AskWhy::ForeignFrame);
    }
    let cost = link.config.cost();
    let (passes, budget) = (cost.sample_passes(), autorun_budget(gpu));
    if passes <= budget {
        return AutoRun::Start;
    }
    let times = passes as f64 / Config::default().cost().sample_passes() as f64;
    AutoRun::Ask(AskWhy::Large { cost, passes, budget, times })
}

/// Why [`parse_strict`] refused a link: its first notice, named by its key ([`Notice::key`]: "link"
/// for a part too long or too many parts). Its words are `spotlight-i18n`'s
/// (`say::notice::strict_error`, which names a part too long by what it was).
#[derive(Clone, Debug, PartialEq)]
pub struct StrictError {
    pub field: String,
    pub notice: Notice,
}

/// Reads a query string strictly: any notice is an error naming its key.
pub fn parse_strict(query: &str) -> Result<Link, StrictError> {
    let link = parse(query);
    match link.notices.first() {
        Some(n) => Err(StrictError { field: n.key().to_string(), notice: n.clone() }),
        None => Ok(link),
    }
}

impl Link {
    /// The query string of the whole link (without `?`): the config's fields, the course's
    /// parts, then `backend=`, `bench=1`, `measure=1` and `run=1` where set. [`parse`] reads it back to the
    /// same link.
    pub fn to_query(&self) -> String {
        let mut q = to_query(&self.config);
        if !self.course.is_empty() {
            q.push('&');
            q.push_str(&self.course.to_query());
        }
        if let Some(b) = self.backend {
            q.push_str(&format!("&backend={b}"));
        }
        if self.bench {
            q.push_str("&bench=1");
        }
        if self.measure {
            q.push_str("&measure=1");
        }
        if self.run {
            q.push_str("&run=1");
        }
        q
    }
}

/// The query string of a config (without `?`): every field, in [`FIELDS`]' order — but the canary
/// only when there is one, and its label only with it or when not the default (absent, they read
/// back as their defaults).
pub fn to_query(config: &Config) -> String {
    let quiet = |name: &str| match name {
        "canary" => config.canary.is_empty(),
        "canary_label" => config.canary.is_empty() && config.canary_label == 0,
        _ => false,
    };
    FIELDS
        .iter()
        .filter(|f| !quiet(f.name))
        .map(|f| match config.get(f.name).expect("every field is a key of Config") {
            serde_json::Value::String(s) => format!("{}={s}", f.name),
            other => format!("{}={other}", f.name),
        })
        .collect::<Vec<_>>()
        .join("&")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{DatasetName, Norm, OptimizerName};

    #[test]
    fn a_canary_travels_in_the_link_and_a_bad_one_is_a_notice() {
        let drawing = crate::canary::encode(&(0..784).map(|i| i % 31 < 3).collect::<Vec<_>>());
        let c = Config { canary: drawing.clone(), canary_label: 4, ..Config::default() };
        let q = to_query(&c);
        assert!(q.contains(&format!("canary={drawing}&canary_label=4")), "{q}");
        let back = parse(&q);
        assert!(back.notices.is_empty(), "{:?}", back.notices);
        assert_eq!(back.config, c);
        // No canary: neither key in the link (a label alone only when not the default).
        assert!(!to_query(&Config::default()).contains("canary"));
        let label_only = Config { canary_label: 6, ..Config::default() };
        assert_eq!(parse(&to_query(&label_only)).config, label_only);
        for bad in ["%3Cscript%3E", "AAAA", &"!".repeat(131), &"A".repeat(131)] {
            let p = parse(&format!("canary={bad}&canary_label=2"));
            assert_eq!(p.config.canary, "", "{bad}");
            assert!(
                p.notices
                    .iter()
                    .any(|n| matches!(n, Notice::Invalid { key, reason: ReadError::NotDrawing(_), .. } if key == "canary")),
                "{bad}: {:?}",
                p.notices
            );
        }
    }

    #[test]
    fn a_link_picks_the_normalizations_and_old_links_keep_working() {
        let l = parse("versus=group&groups=3");
        assert!(l.notices.is_empty(), "{:?}", l.notices);
        assert_eq!(
            (l.config.norm, l.config.versus, l.config.groups),
            (Norm::Batch, Norm::Group, 3)
        );
        assert_eq!(parse(&to_query(&l.config)).config, l.config);
        let old = parse("compare=false&batch_norm=false");
        assert!(old.notices.is_empty(), "{:?}", old.notices);
        assert_eq!(old.config.norm, Norm::None);
        assert_eq!(parse("compare=false&batch_norm=true").config.norm, Norm::Batch);
        // In a comparison the old field did nothing: BN vs no-BN, as before, and no notice.
        let cmp = parse("batch_norm=false&compare=true&label_noise=0.1");
        assert!(cmp.notices.is_empty(), "{:?}", cmp.notices);
        assert_eq!((cmp.config.norm, cmp.config.versus), (Norm::Batch, Norm::None));
        let bad = parse("norm=instance");
        assert_eq!(bad.config.norm, Norm::Batch);
        assert_eq!(bad.notices.len(), 1, "{:?}", bad.notices);
        assert_eq!(bad.notices[0].key(), "norm");
        let same = parse("norm=layer&versus=layer");
        assert_eq!((same.config.norm, same.config.versus), (Norm::Batch, Norm::None));
        assert_eq!(same.notices.len(), 1, "{:?}", same.notices);
        assert_eq!(same.notices[0].key(), "versus");
        let single = parse("compare=false&norm=layer&versus=layer");
        assert!(single.notices.is_empty() && single.config.norm == Norm::Layer);
    }

    #[test]
    fn a_course_link_hides_parts_opens_the_tour_and_round_trips() {
        let l = parse("label_noise=0.2&show=label_noise,accuracy&tour=2&lang=pt");
        assert!(l.notices.is_empty(), "{:?}", l.notices);
        assert!(!l.course.hides("label_noise") && !l.course.hides("accuracy"));
        assert!(l.course.hides("epochs") && l.course.hides("teach") && l.course.hides("attack"));
        assert_eq!((l.course.tour, l.course.lang), (Some(2), Some("pt")));
        let q = l.to_query();
        assert!(q.ends_with("&show=label_noise,accuracy&tour=2&lang=pt"), "{q}");
        assert_eq!(parse(&q), l);
        // `hide=` on top of `show=`; bad names and steps are notices, the rest is kept.
        let l = parse("show=seed,teach,bogus&hide=teach&tour=7&lang=xx");
        assert!(!l.course.hides("seed") && l.course.hides("teach") && l.course.tour.is_none());
        let invalid = |key: &str, value: &str, reason| Notice::Invalid {
            key: key.into(),
            value: value.into(),
            reason,
        };
        assert_eq!(l.notices.len(), 3, "{:?}", l.notices);
        assert_eq!(l.notices[0], invalid("show", "bogus", ReadError::NotAPart));
        assert_eq!(l.notices[1].key(), "tour");
        assert_eq!(
            l.notices[2],
            invalid("lang", "xx", ReadError::ExpectedOneOf(vec!["en", "es", "pt"]))
        );
        assert_eq!(l.course.lang, None);
        assert!(parse("").course.is_empty() && !parse("").to_query().contains("hide"));
        assert!(!parse("hide=teach").config_given, "the course alone names no setting");
    }

    #[test]
    fn a_link_without_settings_leaves_the_default_to_the_backend() {
        for q in ["", "?run=1", "backend=cpu&bench=1", "nonsense=3"] {
            assert!(!parse(q).config_given, "{q}");
        }
        for q in ["train_size=300", "epochs=abc", "run=1&seed=4"] {
            assert!(parse(q).config_given, "{q}");
        }
        // A share link names every setting: it opens the same experiment on any backend.
        let l = Link { config: Config::for_backend(false), config_given: true, ..parse("") };
        let back = parse(&l.to_query());
        assert!(back.config_given);
        assert_eq!(back.config, Config::for_backend(false));
        assert_eq!(Config::for_backend(true), Config::default());
        assert!(
            Config::for_backend(false).cost().sample_passes()
                < Config::default().cost().sample_passes()
        );
        Config::for_backend(false).validate().unwrap();
    }

    #[test]
    fn notices_are_capped_and_echoes_shortened() {
        let q: String = (0..40).map(|i| format!("bad{i}=1&")).collect();
        let link = parse(&q);
        assert_eq!(link.notices.len(), MAX_NOTICES);
        assert_eq!(link.notices.last(), Some(&Notice::More { count: 40 - (MAX_NOTICES - 1) }));
        let long = "k".repeat(150);
        assert_eq!(short(&long), format!("{}…", "k".repeat(40)));
        assert_eq!(short("k"), "k");
    }

    #[test]
    fn run_1_starts_only_within_the_budget_and_never_in_a_foreign_frame() {
        let small = parse("run=1&train_size=300&epochs=2&shadow_models=2");
        assert_eq!(autorun(&small, false, false), AutoRun::Start);
        assert_eq!(
            autorun(&parse("run=1"), false, false),
            AutoRun::Start,
            "the default comparison runs by itself"
        );
        assert_eq!(autorun(&parse("train_size=300"), false, false), AutoRun::No);
        assert_eq!(autorun(&small, false, true), AutoRun::Ask(AskWhy::ForeignFrame));
        let max = parse("run=1&epochs=200&train_size=30000&shadow_models=64");
        assert!(max.notices.is_empty(), "{:?}", max.notices);
        let AutoRun::Ask(why) = autorun(&max, true, false) else {
            panic!("a max-cost link must ask")
        };
        let AskWhy::Large { cost, passes, .. } = why else { panic!("{why:?}") };
        assert_eq!(
            (cost.epochs, cost.samples, cost.models, passes),
            (200, 30000, 130, 780_000_000)
        );
        // Between the budgets: runs by itself on a GPU, asks on the CPU.
        let mid = parse("run=1&epochs=40"); // 5 × the default's epochs: over 4 × its cost, under 20 ×
        assert_eq!(autorun(&mid, true, false), AutoRun::Start);
        assert!(matches!(autorun(&mid, false, false), AutoRun::Ask(_)));
    }

    #[test]
    fn round_trips() {
        let c = Config {
            dataset: DatasetName::Fashion,
            label_noise: 0.2,
            optimizer: OptimizerName::Sgd,
            learning_rate: 0.0125,
            seed: 987654321,
            regularizer: true,
            ..Config::default()
        };
        let q = to_query(&c);
        let link = parse(&q);
        assert!(link.notices.is_empty(), "{:?}", link.notices);
        assert_eq!(link.config, c);
        assert!(parse(&format!("?{q}&run=1")).run);
        let b = parse(&format!("?{q}&bench=1&backend=cpu&measure=1"));
        assert!(b.bench && b.measure && !b.run && b.notices.is_empty(), "{b:?}");
        assert_eq!(b.backend, Some(BackendName::Flex));
        assert_eq!(parse(&b.to_query()), b, "{}", b.to_query());
        let bad = parse("backend=tpu");
        assert_eq!(bad.backend, None);
        assert_eq!(bad.notices.len(), 1);
        assert!(
            matches!(&bad.notices[0], Notice::Invalid { key, value, reason: ReadError::Allowed(names) }
                if key == "backend" && value == "tpu" && names.join(", ") == "ndarray, flex, cpu, wgpu, webgpu"),
            "{:?}",
            bad.notices[0]
        );
        assert!(!parse("bench=0").bench);
        assert!(!parse(&q).measure && !parse("measure=0").measure);
    }

    #[test]
    fn hostile_links_keep_defaults_and_say_why() {
        let d = Config::default();
        let cases: &[(&str, &str)] = &[
            ("epochs=abc", "epochs"),
            ("epochs=1e309", "epochs"),
            ("epochs=-5", "epochs"),
            ("epochs=NaN", "epochs"),
            ("learning_rate=inf", "learning_rate"),
            ("dataset=cifar", "dataset"),
            ("compare=maybe", "compare"),
            ("<script>alert(1)</script>=1", "<script>alert(1)</script>"),
            ("seed=-1", "seed"),
            ("seed=1.5", "seed"),
        ];
        for (q, key) in cases {
            let link = parse(q);
            assert!(link.notices.iter().any(|n| n.key() == *key), "{q}: {:?}", link.notices);
        }
        assert_eq!(parse("epochs=abc").config.epochs, d.epochs);
        assert_eq!(parse("epochs=100000").config.epochs, 200);
        assert_eq!(parse("label_noise=0.9").config.label_noise, 0.5);
        let big = "x".repeat(10_000_000);
        let link = parse(&format!("epochs={big}"));
        assert!(matches!(link.notices[0], Notice::TooLong { .. }));
        assert_eq!(link.config, d);
        let strict = parse_strict(&format!("epochs={big}")).unwrap_err();
        assert_eq!(
            strict,
            StrictError {
                field: "link".into(),
                notice: Notice::TooLong { what: TooLong::Part { len: 10_000_007 } }
            }
        );
        let link = parse("epochs=3&epochs=4");
        assert_eq!(link.config.epochs, 4);
        assert!(link.notices.contains(&Notice::Repeated { key: "epochs".into() }));
        let link = parse("batch_size=2048&train_size=100");
        assert!(link.config.validate().is_ok());
        assert!(link.notices.iter().any(|n| matches!(n, Notice::Conflict { .. })));
        assert_eq!(parse("%zz=%").notices.len(), 1);
        assert!(parse_strict("epochs=0").unwrap_err().field == "epochs");
        assert!(parse_strict(&to_query(&d)).is_ok());
    }

    #[test]
    fn percent_decoding() {
        let link = parse("dataset=%66ashion&label_noise=0%2E2&reg_kind=+sigma+");
        assert!(link.notices.is_empty(), "{:?}", link.notices);
        assert_eq!((link.config.dataset, link.config.label_noise), (DatasetName::Fashion, 0.2));
        assert_eq!(parse("%41%zz=1").notices, vec![Notice::UnknownKey { key: "A%zz".into() }]);
        assert_eq!(parse("%ff=1").notices, vec![Notice::UnknownKey { key: "\u{fffd}".into() }]);
        assert_eq!(parse("epochs=%").notices[0].key(), "epochs");
    }
}
