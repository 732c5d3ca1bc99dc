//! The page's state: what it is doing ([`Activity`]), the progress bar, and the signals every view
//! reads ([`Ui`]). One table of settings (the core's `Config`) drives the controls and the URL.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use leptos::prelude::*;
use spotlight_core::backend::BackendName;
use spotlight_core::bench::{BenchReport, PhaseTimes};
use spotlight_core::board;
use spotlight_core::config::Config;
use spotlight_core::course::Course;
use spotlight_core::link::{self, AskWhy, Link};
use spotlight_core::report::RunError;
use spotlight_core::{Report, Variant};
use spotlight_i18n::say::notice;
use spotlight_i18n::{Lang, Texts};

use crate::backend::{self, Backend};
use crate::web;

/// What the lenses show before a page's first run: the page's CPU default run, measured earlier with
/// the CLI (`spotlight run --link 'train_size=1000&epochs=6&probe_size=16' --preview results/default-cpu.json`; a
/// core test checks that it is the CPU default's). Marked "measured earlier" on the page.
pub fn measured_earlier() -> Option<&'static Report> {
    static MEASURED: std::sync::LazyLock<Option<Report>> = std::sync::LazyLock::new(|| {
        serde_json::from_str(include_str!("../../results/default-cpu.json")).ok()
    });
    MEASURED.as_ref()
}

/// What the page is doing: one state, read by every view.
#[derive(Clone, Debug, PartialEq)]
pub enum Activity {
    Idle,
    /// Getting a run ready: the backend, the datasets.
    Loading(Loading),
    Training,
    /// The benchmark's throughput part (its comparison is then a run like any other).
    Benchmarking,
    Done,
    Cancelled,
    Failed(String),
    /// A dataset could not be fetched or decoded: offer a retry.
    LoadFailed(String),
}

impl Activity {
    /// Whether something is running (a run, or the benchmark): the other buttons wait.
    pub fn busy(&self) -> bool {
        matches!(self, Self::Loading(_) | Self::Training | Self::Benchmarking)
    }
}

/// What is getting a run ready (the progress line says it in the page's language).
#[derive(Clone, Debug, PartialEq)]
pub enum Loading {
    Starting,
    /// A dataset's download: its file, and once bytes came, how many with the total (when the
    /// server says it).
    Fetching {
        file: &'static str,
        got: Option<(u64, Option<u64>)>,
    },
    /// Unpacking a downloaded dataset of `bytes` bytes.
    Unpacking {
        file: &'static str,
        bytes: usize,
    },
}

/// What a run is doing, as the progress line says it (in the page's language).
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Doing {
    #[default]
    Nothing,
    /// The run's board, and how many Web Workers run its tasks (0: the page's thread).
    Board(board::Doing, usize),
    Done,
}

/// The benchmark's note: what it is timing, or how it ended.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum BenchNote {
    #[default]
    None,
    /// The page's WebGPU device could not be opened: the backend's label, burn's error.
    NoGpu(String, String),
    /// A backend could not be timed: its label, the error.
    Failed(String, RunError),
    NoMnist,
    /// Timing a model on a backend (its label).
    Timing(Variant, String),
    /// Timing shadow models one by one and stacked on a backend (its label).
    TimingShadows(String),
    /// Timing the comparison in the controls on a backend (its label).
    TimingComparison(String),
    Done,
    /// The comparison did not finish: how it ended.
    Unfinished(Activity),
}

/// The progress bar's numbers, as last drawn.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Bar {
    pub fraction: f64,
    pub doing: Doing,
    pub samples_per_s: f64,
    pub eta_s: f64,
    pub elapsed_s: f64,
}

/// The page's shared signals.
#[derive(Clone, Copy)]
pub struct Ui {
    pub config: RwSignal<Config>,
    pub notices: RwSignal<Vec<String>>,
    /// The backend the link asked for (fixed for the page's life).
    pub backend_pref: Option<BackendName>,
    /// The backend, chosen at start-up, and again (the CPU) after a lost GPU device.
    pub backend: LocalResource<Backend>,
    /// True while the page times the backends to choose one (`backend::choose`).
    pub measuring: RwSignal<bool>,
    /// Why a WebGPU device (a worker's or the page's) was lost, once one was.
    pub gpu_lost: RwSignal<Option<String>>,
    /// Why WebGPU trains on the page's thread, once a worker could not open a device (the
    /// browser offers WebGPU only on the page): burn's error in that worker; until then it trains
    /// in workers.
    pub gpu_on_page: RwSignal<Option<String>>,
    /// A link's `run=1` that waits for a click, with why (too large, or inside another site's page).
    pub ask: RwSignal<Option<AskWhy>>,
    /// How many runs this page started (for the tests: one click, one run).
    pub runs_started: RwSignal<u32>,
    pub activity: RwSignal<Activity>,
    pub bar: RwSignal<Bar>,
    pub report: RwSignal<Option<Report>>,
    /// The last run's wall time by phase.
    pub times: RwSignal<Option<PhaseTimes>>,
    /// This machine's pace on the CPU, in seconds per sample pass of one worker
    /// (`jobs::Job::sample_passes`): the rehearsal's, then each finished CPU run's. The banner's
    /// estimate of a run's time before it starts.
    pub pace: RwSignal<Option<f64>>,
    pub cancel: StoredValue<Arc<AtomicBool>>,
    pub bench: RwSignal<BenchReport>,
    pub bench_note: RwSignal<BenchNote>,
    /// The default experiment for the page's backend (`Config::for_backend`): the presets build on it.
    pub base: RwSignal<Config>,
    /// What the page's link hides (a course link), fixed for the page's life; its share links keep it.
    pub course: StoredValue<Course>,
    /// The guided tour's step, 1-based, while it is open.
    pub tour: RwSignal<Option<usize>>,
    /// The page's language: the link's `lang=`, else the browser's first language the page has;
    /// the language menu changes it.
    pub lang: RwSignal<Lang>,
}

impl Ui {
    /// The page's state for a parsed link; starts choosing the backend at once, so that the
    /// banner is true before any run.
    pub fn new(link: &Link) -> Self {
        let pref = link.backend;
        let gpu_lost = RwSignal::new(None);
        let lang = match link.course.lang {
            Some(code) => Lang::parse(code).unwrap_or_default(),
            None => Lang::preferred(web::browser_languages().iter().map(String::as_str)),
        };
        let measuring = RwSignal::new(false);
        let choosing = backend::Choosing {
            even_software: link.measure,
            never: link.bench,
            config: link.config.clone(),
            lang,
            measuring,
        };
        Self {
            config: RwSignal::new(link.config.clone()),
            notices: RwSignal::new(
                link.notices.iter().map(|n| notice::link_notice(lang, n)).collect(),
            ),
            backend_pref: pref,
            // Reads `gpu_lost`: a lost device makes the next run choose again (the CPU).
            backend: LocalResource::new(move || {
                backend::choose(pref, gpu_lost.get(), choosing.clone())
            }),
            measuring,
            gpu_lost,
            gpu_on_page: RwSignal::new(None),
            ask: RwSignal::new(None),
            runs_started: RwSignal::new(0),
            activity: RwSignal::new(Activity::Idle),
            bar: RwSignal::new(Bar::default()),
            report: RwSignal::new(None),
            times: RwSignal::new(None),
            pace: RwSignal::new(None),
            cancel: StoredValue::new(Arc::new(AtomicBool::new(false))),
            bench: RwSignal::new(BenchReport::default()),
            bench_note: RwSignal::new(BenchNote::None),
            base: RwSignal::new(Config::default()),
            course: StoredValue::new(link.course.clone()),
            // A step at a part the course hides opens at the next one it shows.
            tour: RwSignal::new(
                link.course
                    .tour
                    .and_then(|n| link.course.tour_steps().into_iter().find(|&s| s >= n)),
            ),
            lang: RwSignal::new(lang),
        }
    }

    /// Every text in the page's language (tracked: a view that reads it follows the menu).
    pub fn t(self) -> &'static Texts {
        self.lang.get().texts()
    }

    /// One text of the page's language, following the language menu: `{ui.tr(|t| t.page.lede)}`.
    /// Every text read this way is one closure type, so the view code that keeps a reactive text is
    /// compiled once for them all (a closure of its own per text costs a few KB of wasm each).
    pub fn tr(
        self,
        pick: fn(&'static Texts) -> &'static str,
    ) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
        move || pick(self.t())
    }

    /// The page's language, untracked (for a notice written once).
    pub fn lang_now(self) -> Lang {
        self.lang.get_untracked()
    }

    /// Switches the page's language; its links keep it from now on.
    pub fn set_lang(self, lang: Lang) {
        self.course.update_value(|c| *c = c.clone().with_lang(Some(lang.code())));
        self.lang.set(lang);
        web::replace_query(&self.share_query(&self.config.get_untracked()));
    }

    /// The report the lenses draw: this page's run, or — before its first — the one measured
    /// earlier ([`measured_earlier`]).
    pub fn shown_report(self) -> Option<Report> {
        self.report.get().or_else(|| {
            (self.runs_started.get() == 0).then(|| measured_earlier().cloned()).flatten()
        })
    }

    /// Whether the settings' "Advanced" fold opens with the page (a course link that shows one).
    pub fn course_unfolds(self) -> bool {
        self.course.with_value(Course::unfolds_advanced)
    }

    /// Whether the page's link hides `part` (a name of `course::parts`).
    pub fn hides(self, part: &str) -> bool {
        self.course.with_value(|c| c.hides(part))
    }

    /// Whether a run or the benchmark is going on.
    pub fn busy(self) -> bool {
        self.activity.with_untracked(Activity::busy)
    }

    /// Adds a notice (shortened, and the oldest dropped past the core's cap).
    pub fn notice(self, text: String) {
        let short: String = text.chars().take(300).collect();
        let text = if short.len() < text.len() { short + "…" } else { text };
        self.notices.update(|n| {
            n.push(text);
            if n.len() > link::MAX_NOTICES {
                n.remove(0);
            }
        });
    }

    /// Sets the config and the page's URL with it.
    pub fn set_config(self, c: Config) {
        web::replace_query(&self.share_query(&c));
        self.config.set(c);
    }

    /// The share link of a config: the config, what the page's link hides, its language (the
    /// link's or one picked in the menu) and the backend the page was opened with (never `run=1`,
    /// nor the tour's step).
    pub fn share_query(self, c: &Config) -> String {
        let hidden = self
            .course
            .with_value(|k| Course::new(k.hidden().iter().copied(), None).with_lang(k.lang));
        self.link_query(c, hidden)
    }

    /// The link of a config with a course (a teacher's course link).
    pub fn link_query(self, c: &Config, course: Course) -> String {
        let link = link::parse("");
        Link { config: c.clone(), backend: self.backend_pref, course, config_given: true, ..link }
            .to_query()
    }
}
