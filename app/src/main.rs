//! Spotlight's web app: controls, live views and share links around spotlight-core. UI only —
//! the experiment (data, models, training, attacks) is the core's, the charts are spotlight-plots'.

mod paper_panel;
mod web;

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use leptos::prelude::*;
use leptos::task::spawn_local;
use spotlight_core::backend::BackendName;
use spotlight_core::bench::{self, BenchReport, ComparisonTime, PhaseTimes};
use spotlight_core::burn::tensor::Device;
use spotlight_core::config::{Config, DatasetName, OodSourceName, OptimizerName, RegKind, range_of};
use spotlight_core::data::Dataset;
use spotlight_core::data::transforms::SampleKind;
use spotlight_core::driver::{self, Ending};
use spotlight_core::experiment::{Experiment, Phase};
use spotlight_core::link::{self, Link};
use spotlight_core::{Report, Variant};

/// What the page is doing.
#[derive(Clone, Debug, PartialEq)]
enum Status {
    Idle,
    Loading(String),
    Running,
    Done,
    Cancelled,
    Failed(String),
    /// A dataset could not be fetched or decoded: offer a retry.
    LoadFailed(String),
}

impl Status {
    /// Whether a run is loading or training.
    fn busy(&self) -> bool {
        matches!(self, Status::Running | Status::Loading(_))
    }
}

/// The progress bar's numbers.
#[derive(Clone, Debug, PartialEq, Default)]
struct Bar {
    fraction: f64,
    text: String,
    samples_per_s: f64,
    eta_s: f64,
    elapsed_s: f64,
}

/// The chosen backend, kept for the page's life (wgpu cannot be initialized twice).
#[derive(Clone)]
struct Backend {
    device: Device,
    label: String,
    gpu: bool,
}

thread_local! {
    static BACKEND: RefCell<Option<(Backend, Option<String>)>> = const { RefCell::new(None) };
    static CHOOSING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    static DATASETS: RefCell<HashMap<&'static str, Rc<Dataset>>> = RefCell::new(HashMap::new());
}

/// Picks the backend once: WebGPU unless the link asks for the CPU or WebGPU is missing; then
/// burn-flex (or burn-ndarray with `backend=ndarray`) with the reason.
async fn backend(pref: Option<BackendName>) -> (Backend, Option<String>) {
    // One choice per page: a second caller waits for the first (wgpu starts only once).
    while CHOOSING.with(|c| c.get()) {
        web::yield_now().await;
    }
    if let Some(b) = BACKEND.with(|b| b.borrow().clone()) {
        return b;
    }
    CHOOSING.with(|c| c.set(true));
    let cpu = |name: BackendName, why: Option<String>| {
        let device = name.cpu_device().expect("CPU backends are built into the app");
        (Backend { device, label: format!("CPU ({name}, in WebAssembly)"), gpu: false }, why)
    };
    let chosen = match pref {
        Some(BackendName::Flex) => cpu(BackendName::Flex, Some("the link asks for the CPU backend".into())),
        Some(BackendName::Ndarray) => cpu(BackendName::Ndarray, Some("the link asks for burn-ndarray".into())),
        Some(BackendName::Wgpu) | None => match web::webgpu_adapter().await {
            Err(why) => cpu(BackendName::Flex, Some(why)),
            Ok(adapter) => match Device::wgpu_options().init_async().await {
                Ok(device) => (Backend { device, label: format!("WebGPU: {adapter}"), gpu: true }, None),
                Err(e) => cpu(BackendName::Flex, Some(format!("WebGPU could not start ({e:?})"))),
            },
        },
    };
    BACKEND.with(|b| *b.borrow_mut() = Some(chosen.clone()));
    CHOOSING.with(|c| c.set(false));
    chosen
}

/// Fetches and decodes a dataset once per page, showing the download on the progress bar.
async fn dataset(name: DatasetName, ui: Ui) -> Result<Rc<Dataset>, String> {
    let file = name.asset_file();
    if let Some(d) = DATASETS.with(|m| m.borrow().get(file).cloned()) {
        return Ok(d);
    }
    ui.status.set(Status::Loading(format!("Loading {file}…")));
    let mut last = 0.0;
    let bytes = web::fetch_bytes(&format!("data/{file}"), |got, total| {
        let now = web::now_ms();
        if now - last < 50.0 {
            return;
        }
        last = now;
        let mb = |b: u64| b as f64 / 1e6;
        let (text, fraction) = match total {
            Some(t) if t > 0 => {
                let f = (got as f64 / t as f64).min(1.0);
                (format!("Loading {file}: {:.1} of {:.1} MB ({:.0}%)", mb(got), mb(t), 100.0 * f), f)
            }
            _ => (format!("Loading {file}: {:.1} MB", mb(got)), 0.0),
        };
        ui.status.set(Status::Loading(text));
        ui.bar.update(|b| b.fraction = fraction);
    })
    .await?;
    ui.bar.update(|b| b.fraction = 1.0);
    ui.status.set(Status::Loading(format!("Unpacking {file} ({:.1} MB)…", bytes.len() as f64 / 1e6)));
    web::yield_now().await;
    // The browser un-gzips off the page's critical path; the core's decoder then only parses.
    let bytes = match web::gunzip(&bytes).await {
        Some(r) => {
            let raw = r.map_err(|e| format!("{file}: {e}"))?;
            drop(bytes); // before decoding: wasm memory keeps its high-water mark for the page's life
            raw
        }
        None => bytes,
    };
    let d = Rc::new(Dataset::decode(file, &bytes).map_err(|e| format!("{file}: {e}"))?);
    ui.bar.update(|b| b.fraction = 0.0);
    DATASETS.with(|m| m.borrow_mut().insert(file, d.clone()));
    Ok(d)
}

/// Runs one experiment, updating the signals as it goes; returns its wall time by phase (also
/// when cancelled) once it has started training.
async fn run(config: Config, ui: Ui, cancel: Arc<AtomicBool>) -> Option<ComparisonTime> {
    let (be, why) = backend(ui.backend_pref.get_untracked()).await;
    ui.banner.set(match &why {
        None => format!("Training on {}", be.label),
        Some(w) => format!("Training on {} — {w}", be.label),
    });
    ui.on_gpu.set(be.gpu);
    let ds = match dataset(config.dataset, ui).await {
        Ok(d) => d,
        Err(e) => {
            ui.status.set(Status::LoadFailed(format!("The dataset could not be loaded: {e}")));
            return None;
        }
    };
    let other = if config.ood_fraction > 0.0 && config.ood_source == OodSourceName::Other {
        match dataset(config.dataset.other(), ui).await {
            Ok(d) => Some(d),
            Err(e) => {
                ui.status.set(Status::LoadFailed(format!("The OOD dataset could not be loaded: {e}")));
                return None;
            }
        }
    } else {
        None
    };
    let mut exp = match Experiment::new(&config, &ds, other.as_deref(), &be.device, &be.label) {
        Ok(e) => e,
        Err(e) => {
            ui.status.set(Status::Failed(e));
            return None;
        }
    };
    ui.status.set(Status::Running);
    ui.report.set(Some(exp.report()));
    let clock = || web::now_ms() / 1000.0;
    let mut last_draw = f64::NEG_INFINITY;
    let (ending, times) = driver::drive(&mut exp, &clock, &|| cancel.load(Ordering::Relaxed), |exp, pace| {
        let p = &pace.progress;
        // The bar at most ten times a second while training; every epoch's end and every later unit.
        if pace.elapsed_s - last_draw > 0.1 || p.epoch_finished || p.phase != Phase::Targets {
            last_draw = pace.elapsed_s;
            ui.bar.set(Bar {
                fraction: pace.fraction,
                text: p.describe(),
                samples_per_s: pace.samples_per_s,
                eta_s: pace.eta_s,
                elapsed_s: pace.elapsed_s,
            });
        }
        if p.epoch_finished || p.phase == Phase::Done {
            ui.report.set(Some(exp.report()));
        }
    })
    .await;
    let finished = ending == Ending::Finished;
    if finished {
        ui.bar.update(|b| {
            b.fraction = 1.0;
            b.eta_s = 0.0;
            b.elapsed_s = times.total_s;
            b.text = "done".into();
        });
        ui.status.set(Status::Done);
    } else {
        ui.report.set(Some(exp.report()));
        ui.status.set(Status::Cancelled);
    }
    ui.times.set(Some(times.clone()));
    Some(ComparisonTime { backend: be.label.clone(), config: config.clone(), times, finished })
}

/// Train samples/s for each model on every backend this page has (WebGPU if it runs, then the two
/// CPU backends), then the wall time of the comparison in the controls on the page's backend.
async fn run_bench(ui: Ui) {
    if ui.bench_running.get_untracked() || ui.busy() {
        return;
    }
    ui.bench_running.set(true);
    ui.bench.set(BenchReport::default());
    let config = ui.config.get_untracked();
    let (be, _) = backend(ui.backend_pref.get_untracked()).await;
    let mut backends = Vec::new();
    if be.gpu {
        backends.push((be.device.clone(), be.label.clone()));
    }
    for name in [BackendName::Flex, BackendName::Ndarray] {
        if let Ok(d) = name.cpu_device() {
            backends.push((d, format!("CPU ({name}, in WebAssembly)")));
        }
    }
    let ds = match dataset(DatasetName::Mnist, ui).await {
        Ok(d) => d,
        Err(e) => {
            ui.status.set(Status::Failed(format!("The dataset could not be loaded: {e}")));
            ui.bench_note.set("The benchmark needs MNIST, which could not be loaded; run it again to retry.".into());
            return ui.bench_running.set(false);
        }
    };
    ui.status.set(Status::Idle);
    let clock = || web::now_ms() / 1000.0;
    for (device, label) in &backends {
        for bn in [true, false] {
            ui.bench_note.set(format!("Timing {} on {label}…", Variant::unregularized(bn).label()));
            match bench::train_throughput(&ds, device, label, bn, config.batch_size, BENCH_STEPS, &clock).await {
                Ok(t) => ui.bench.update(|b| b.throughput.push(t)),
                Err(e) => {
                    ui.bench_note.set(format!("{label}: {e}"));
                    break;
                }
            }
            web::yield_now().await;
        }
    }
    ui.bench_note.set(format!("Timing the comparison in the controls on {}…", be.label));
    let comparison = ui.run_now().await;
    ui.bench.update(|b| b.comparison = comparison);
    ui.bench_note.set(match ui.status.get_untracked() {
        Status::Done => "Done.".into(),
        s => format!("The comparison did not finish ({s:?}); its time is up to where it stopped."),
    });
    ui.bench_running.set(false);
}

/// Timed training steps per model and backend in the benchmark (after the warm-up).
const BENCH_STEPS: usize = 10;

/// The page's shared signals.
#[derive(Clone, Copy)]
struct Ui {
    config: RwSignal<Config>,
    notices: RwSignal<Vec<String>>,
    banner: RwSignal<String>,
    on_gpu: RwSignal<bool>,
    backend_pref: RwSignal<Option<BackendName>>,
    status: RwSignal<Status>,
    bar: RwSignal<Bar>,
    report: RwSignal<Option<Report>>,
    /// The last run's wall time by phase.
    times: RwSignal<Option<PhaseTimes>>,
    cancel: StoredValue<Arc<AtomicBool>>,
    bench: RwSignal<BenchReport>,
    bench_running: RwSignal<bool>,
    bench_note: RwSignal<String>,
}

impl Ui {
    /// Whether a run is loading or training.
    fn busy(self) -> bool {
        self.status.with_untracked(Status::busy)
    }

    fn start(self) {
        if !self.bench_running.get_untracked() {
            spawn_local(async move {
                self.run_now().await;
            });
        }
    }

    /// Runs the experiment in the controls (unless one is running) and waits for its end.
    async fn run_now(self) -> Option<ComparisonTime> {
        if self.busy() {
            return None;
        }
        let flag = Arc::new(AtomicBool::new(false));
        self.cancel.set_value(flag.clone());
        self.bar.set(Bar::default());
        self.report.set(None);
        self.times.set(None);
        run(self.config.get_untracked(), self, flag).await
    }

    fn stop(self) {
        self.cancel.get_value().store(true, Ordering::Relaxed);
    }

    fn set_config(self, c: Config) {
        web::replace_query(&share_query(&c, self.backend_pref.get_untracked()));
        self.config.set(c);
    }
}

/// The share link of a config: the config and the backend the page was opened with (never `run=1`).
fn share_query(c: &Config, backend: Option<BackendName>) -> String {
    Link { config: c.clone(), run: false, backend, bench: false, notices: Vec::new() }.to_query()
}

/// The paper's settings, one click away.
fn presets() -> Vec<(&'static str, Config)> {
    let d = Config::default();
    vec![
        ("MNIST, 5% flipped labels, BN vs no-BN", d.clone()),
        ("MNIST, 5% flipped, with the γ/σ regularizer", Config { regularizer: true, reg_strength: 0.05, ..d.clone() }),
        ("MNIST, 20% flipped (strong memorization)", Config { label_noise: 0.2, ..d.clone() }),
        ("MNIST, clean data (no outliers)", Config { label_noise: 0.0, ..d.clone() }),
        (
            "MNIST, 5% OOD images (Fashion-MNIST)",
            Config { label_noise: 0.0, ood_fraction: 0.05, ood_source: OodSourceName::Other, ..d.clone() },
        ),
        ("Fashion-MNIST, 5% flipped labels", Config { dataset: DatasetName::Fashion, ..d.clone() }),
        (
            "Tiny (a quick look)",
            Config { train_size: 500, test_size: 500, epochs: 2, batch_size: 50, shadow_models: 2, probe_size: 32, ..d },
        ),
    ]
}

#[component]
fn NumberField(ui: Ui, field: &'static str, label: &'static str, step: &'static str) -> impl IntoView {
    let r = range_of(field).expect("a known field");
    let value = move || ui.config.with(|c| c.numeric(field).unwrap_or(0.0)).to_string();
    let on_change = move |ev: leptos::ev::Event| {
        let raw = event_target_value(&ev);
        let mut c = ui.config.get_untracked();
        match raw.trim().parse::<f64>() {
            Ok(v) if v.is_finite() => {
                let clamped = v.clamp(r.min, r.max);
                if clamped != v {
                    ui.notices.update(|n| n.push(format!("{field}: {v} is out of range ({} to {}); clamped to {clamped}", r.min, r.max)));
                }
                c.set_numeric(field, clamped);
                if let Err(e) = c.validate() {
                    ui.notices.update(|n| n.push(format!("{e}; not applied")));
                    ui.config.set(ui.config.get_untracked()); // re-render the old value
                    return;
                }
                ui.set_config(c);
            }
            _ => {
                ui.notices.update(|n| n.push(format!("{field}: {raw:?} is not a number; kept {}", c.numeric(field).unwrap_or(0.0))));
                ui.config.set(c);
            }
        }
    };
    view! {
        <label class="field">
            <span>{label}</span>
            <input type="number" name=field min=r.min.to_string() max=r.max.to_string() step=step
                prop:value=value on:change=on_change />
        </label>
    }
}

#[component]
fn Slider(ui: Ui, field: &'static str, label: &'static str) -> impl IntoView {
    let r = range_of(field).expect("a known field");
    let value = move || ui.config.with(|c| c.numeric(field).unwrap_or(0.0));
    view! {
        <label class="field slider">
            <span>{label}" "<b>{move || format!("{:.0}%", 100.0 * value())}</b></span>
            <input type="range" name=field min=r.min.to_string() max=r.max.to_string() step="0.01"
                prop:value=move || value().to_string()
                on:change=move |ev| {
                    if let Ok(v) = event_target_value(&ev).parse::<f64>() {
                        let mut c = ui.config.get_untracked();
                        c.set_numeric(field, v.clamp(r.min, r.max));
                        if c.validate().is_ok() { ui.set_config(c) } else {
                            ui.notices.update(|n| n.push(format!("{field}: label noise + OOD fraction may not exceed 0.9")));
                        }
                    }
                } />
        </label>
    }
}

#[component]
fn Toggle(ui: Ui, label: &'static str, get: fn(&Config) -> bool, set: fn(&mut Config, bool), name: &'static str) -> impl IntoView {
    view! {
        <label class="field toggle">
            <input type="checkbox" name=name prop:checked=move || ui.config.with(get)
                on:change=move |ev| {
                    let mut c = ui.config.get_untracked();
                    set(&mut c, event_target_checked(&ev));
                    ui.set_config(c);
                } />
            <span>{label}</span>
        </label>
    }
}

/// A `<select>` over one of the config's choices: `options` are (value, text) pairs.
#[component]
fn Choice(
    ui: Ui,
    label: &'static str,
    name: &'static str,
    options: &'static [(&'static str, &'static str)],
    get: fn(&Config) -> &'static str,
    set: fn(&mut Config, &str),
) -> impl IntoView {
    view! {
        <label class="field">
            <span>{label}</span>
            <select name=name prop:value=move || ui.config.with(get)
                on:change=move |ev| {
                    let mut c = ui.config.get_untracked();
                    set(&mut c, &event_target_value(&ev));
                    ui.set_config(c);
                }>
                {options.iter().map(|&(v, t)| view! { <option value=v>{t}</option> }).collect_view()}
            </select>
        </label>
    }
}

/// The regularizer choices (value = `RegKind::name`, in `RegKind::ALL` order).
const REG_KINDS: &[(&str, &str)] = &[
    ("gamma", "γ only, σ held fixed (inert; for comparison)"),
    ("sigma", "(γ/σ)², gradient through σ"),
    ("hinge", "hinge max(0, γ/σ − 1)²"),
    ("project", "clip |γ| ≤ τ·σ after each step"),
];

#[component]
fn Controls(ui: Ui) -> impl IntoView {
    let running = move || ui.status.with(Status::busy);
    let blocked = move || running() || ui.bench_running.get();
    let copied = RwSignal::new(String::new());
    let link_text = move || format!("{}?{}", web::base_url(), share_query(&ui.config.get(), ui.backend_pref.get()));
    let presets = presets();
    let preset_names: Vec<&'static str> = presets.iter().map(|p| p.0).collect();
    let preset_configs = StoredValue::new(presets.into_iter().map(|p| p.1).collect::<Vec<_>>());
    view! {
        <section class="controls" aria-label="experiment settings">
            <label class="field wide">
                <span>"Preset"</span>
                <select name="preset" on:change=move |ev| {
                    if let Ok(i) = event_target_value(&ev).parse::<usize>()
                        && let Some(c) = preset_configs.with_value(|p| p.get(i).cloned())
                    {
                        ui.set_config(c)
                    }
                }>
                    <option value="">"— the paper's settings —"</option>
                    {preset_names.into_iter().enumerate().map(|(i, n)| view! { <option value=i.to_string()>{n}</option> }).collect_view()}
                </select>
            </label>
            <Choice ui label="Dataset" name="dataset" options=&[("mnist", "MNIST"), ("fashion", "Fashion-MNIST")]
                get=|c| if c.dataset == DatasetName::Mnist { "mnist" } else { "fashion" }
                set=|c, v| c.dataset = if v == "fashion" { DatasetName::Fashion } else { DatasetName::Mnist } />
            <Toggle ui label="Compare BN and no-BN side by side" name="compare" get=|c| c.compare set=|c, v| c.compare = v />
            <Toggle ui label="BatchNorm (single model)" name="batch_norm" get=|c| c.batch_norm set=|c, v| c.batch_norm = v />
            <Slider ui field="label_noise" label="Flipped labels" />
            <Slider ui field="ood_fraction" label="OOD images" />
            <Choice ui label="OOD source" name="ood_source" options=&[("shuffle", "pixel-shuffled images"), ("other", "the other dataset")]
                get=|c| if c.ood_source == OodSourceName::Shuffle { "shuffle" } else { "other" }
                set=|c, v| c.ood_source = if v == "other" { OodSourceName::Other } else { OodSourceName::Shuffle } />
            <Toggle ui label="γ/σ regularizer" name="regularizer" get=|c| c.regularizer set=|c, v| c.regularizer = v />
            <Choice ui label="Regularizer kind" name="reg_kind" options=REG_KINDS get=|c| c.reg_kind.name()
                set=|c, v| { if let Some(k) = RegKind::ALL.into_iter().find(|k| k.name() == v) { c.reg_kind = k } } />
            <NumberField ui field="reg_strength" label="strength λ" step="0.01" />
            <NumberField ui field="reg_bound" label="bound τ (clip)" step="0.1" />
            <NumberField ui field="epochs" label="Epochs" step="1" />
            <NumberField ui field="train_size" label="Training samples" step="100" />
            <NumberField ui field="test_size" label="Test samples" step="100" />
            <NumberField ui field="learning_rate" label="Learning rate" step="0.0001" />
            <NumberField ui field="batch_size" label="Batch size" step="1" />
            <Choice ui label="Optimizer" name="optimizer" options=&[("adam", "Adam"), ("sgd", "SGD (momentum 0.9)")]
                get=|c| if c.optimizer == OptimizerName::Adam { "adam" } else { "sgd" }
                set=|c, v| c.optimizer = if v == "sgd" { OptimizerName::Sgd } else { OptimizerName::Adam } />
            <NumberField ui field="shadow_models" label="Shadow models (attack)" step="1" />
            <NumberField ui field="probe_size" label="Gradient probe per group" step="1" />
            <label class="field">
                <span>"Seed"</span>
                <input type="number" name="seed" min="0" step="1" prop:value=move || ui.config.with(|c| c.seed).to_string()
                    on:change=move |ev| {
                        let raw = event_target_value(&ev);
                        match raw.trim().parse::<u64>() {
                            Ok(s) => { let mut c = ui.config.get_untracked(); c.seed = s; ui.set_config(c) }
                            Err(_) => { ui.notices.update(|n| n.push(format!("seed: {raw:?} is not a whole number ≥ 0; kept"))); ui.config.set(ui.config.get_untracked()) }
                        }
                    } />
            </label>
            <div class="buttons">
                <button id="run" on:click=move |_| ui.start() disabled=blocked>
                    {move || if ui.report.with(|r| r.is_some()) { "Rerun" } else { "Run" }}
                </button>
                <button id="cancel" on:click=move |_| ui.stop() disabled=move || !running()>"Cancel"</button>
                <button id="copy-link" on:click=move |_| {
                    let text = link_text();
                    spawn_local(async move {
                        copied.set(match web::copy(&text).await { Ok(()) => "Link copied.".into(), Err(e) => format!("Copy failed ({e}); select the link below.") });
                    });
                }>"Copy link"</button>
            </div>
            <input id="share-link" class="share" readonly prop:value=link_text aria-label="share link" />
            <span class="copied">{move || copied.get()}</span>
        </section>
    }
}

#[component]
fn ProgressView(ui: Ui) -> impl IntoView {
    view! {
        <section class="progress" aria-label="progress">
            <div class="bar"><div id="progress-fill" style:width=move || format!("{:.1}%", 100.0 * ui.bar.get().fraction)></div></div>
            <div id="progress-text">{move || {
                let b = ui.bar.get();
                match ui.status.get() {
                    Status::Idle => "Ready. Press Run.".to_string(),
                    Status::Loading(s) => s,
                    Status::Running => format!("{:.0}% — {} — {:.0} samples/s — ETA {:.0} s", 100.0 * b.fraction, b.text, b.samples_per_s, b.eta_s),
                    Status::Done => format!("100% — done in {:.1} s ({:.0} samples/s){}", b.elapsed_s, b.samples_per_s,
                        ui.times.get().map(|t| format!("; training {:.1} s, shadow models {:.1} s, attack {:.1} s", t.targets_s, t.shadows_s, t.attack_s)).unwrap_or_default()),
                    Status::Cancelled => format!("Cancelled at {:.0}% after {:.1} s; what was measured is kept below.", 100.0 * b.fraction, b.elapsed_s),
                    Status::Failed(e) | Status::LoadFailed(e) => format!("Error: {e}"),
                }
            }}</div>
            <Show when=move || matches!(ui.status.get(), Status::LoadFailed(_))>
                <button id="retry" on:click=move |_| ui.start()>"Retry"</button>
            </Show>
        </section>
    }
}

fn pct(x: Option<f64>) -> String {
    x.map_or("—".into(), |v| format!("{:.1}%", 100.0 * v))
}

#[component]
fn Views(ui: Ui) -> impl IntoView {
    // Each chart redraws only when its own inputs change: the training curves do not redraw when
    // the attack's results arrive, nor the ROC at every epoch.
    let training = Memo::new(move |_| {
        ui.report.get().map(|mut r| {
            for run in &mut r.runs {
                run.attack = None;
                run.attack_error = None;
            }
            r
        })
    });
    let attacked = Memo::new(move |_| ui.report.get().filter(|r| r.runs.iter().any(|x| x.attack.is_some())));
    let accuracy = move || training.get().map(|r| spotlight_plots::accuracy_curves(&[&r], "Accuracy per epoch")).unwrap_or_default();
    let grads = move || training.get().map(|r| spotlight_plots::grad_norm_histograms(&r)).unwrap_or_default();
    let grad_curves = move || training.get().map(|r| spotlight_plots::grad_norm_curves(&r)).unwrap_or_default();
    let gamma = move || training.get().map(|r| spotlight_plots::gamma_sigma_curves(&[&r])).unwrap_or_default();
    let roc = move || attacked.get().map(|r| spotlight_plots::roc_curves(&r)).unwrap_or_default();
    let has_attack = move || ui.report.with(|r| r.as_ref().is_some_and(|r| r.runs.iter().any(|x| x.attack.is_some())));
    view! {
        <section class="view" id="view-accuracy">
            <h2>"Memorization: accuracy on flipped labels"</h2>
            <p class="teach">"A flipped label is wrong on purpose: nothing in the image points to it, so the only way to get it
               \"right\" is to memorize that one sample. Accuracy on flipped samples (thick lines) is memorization;
               clean-train and test accuracy (thin) are learning. The paper: models with BN fit the flipped labels faster and further."</p>
            <div class="chart" inner_html=accuracy></div>
            <table class="numbers" id="epoch-table">
                <tr><th>"model"</th><th>"epoch"</th><th>"flipped"</th><th>"OOD"</th><th>"clean train"</th><th>"test"</th></tr>
                {move || ui.report.with(|r| r.as_ref().map(|r| r.runs.iter().filter_map(|run| run.last().map(|e| (run, e))).map(|(run, e)| view! {
                    <tr><td>{r.variant(run).label()}</td><td>{e.epoch}</td><td>{pct(e.acc_flipped)}</td>
                        <td>{pct(e.acc_ood)}</td><td>{pct(e.acc_clean)}</td><td>{pct(Some(e.acc_test))}</td></tr>
                }).collect_view()))}
            </table>
        </section>
        <section class="view" id="view-gradients">
            <h2>"Per-sample influence: gradient norms"</h2>
            <p class="teach">"How hard one sample pulls on the model. Each probe sample joins a training batch of batch_size−1 clean
               members; BN uses that batch's statistics (the running statistics are left alone); we take the length of the gradient
               of that sample's own loss over every weight, before training (epoch 0) and after each epoch. The paper: with BN,
               noisy samples' norms shift much higher than clean ones'. The histogram is the last epoch; the curves are the
               medians per epoch; the table averages those medians over the trained epochs."</p>
            <div class="chart" inner_html=grads></div>
            <div class="chart" inner_html=grad_curves></div>
            <GradTable ui />
        </section>
        <section class="view" id="view-gamma">
            <h2>"The amplifier: γ/σ per BN layer"</h2>
            <p class="teach">"BN divides each channel by the batch's standard deviation σ and multiplies it by a learned scale γ.
               The paper shows that in a (stochastic) gradient-descent step the progress on an outlier is multiplied by (γ/σ)², and
               that outliers push γ up — a feedback loop. With Adam (the default optimizer) the step on each weight is normalized by
               the running size of that weight's own gradients, so the factor enters once, not squared. The chart shows, per BN layer, the median
               over channels of γ/σ with the batch σ (measured on a fixed batch), from epoch 0, the untrained model. Above the line
               γ/σ = 1, BN amplifies — but γ/σ starts above 1 already at initialization (γ = 1, and with PyTorch-style
               initialization the σ of the pre-BN activations is below 1), so what shows the feedback loop is the change from
               epoch 0 and the difference between noise levels (compare a run with 0% and one with 20% flipped labels). The
               regularizer holds γ/σ down, by one of four rules: a penalty λ times the sum over BN layers of the mean over
               channels of (γ/σ)² with σ held fixed (the gradient reaches γ alone: inert, kept for comparison), of (γ/σ)² with the
               gradient through σ too, or of the hinge max(0, γ/σ − 1)², which charges only channels above 1; or no penalty but
               clipping |γ| ≤ τ·σ after each step."</p>
            <div class="chart" inner_html=gamma></div>
        </section>
        <section class="view" id="view-attack">
            <h2>"Privacy: the membership attack"</h2>
            <p class="teach">"An attacker who can query the model guesses whether a sample was in its training set. LiRA trains shadow
               models with and without each sample and compares the target's confidence with both. AUC 0.5 is guessing; what matters
               most is the true-positive rate at a tiny false-positive rate (1%): the share of members the attacker finds while wrongly
               accusing only 1 in 100 non-members. The last column runs LiRA on the outliers alone: flipped and OOD members against
               flipped and OOD non-members."</p>
            <Show when=has_attack fallback=|| view! { <p class="pending">"The attack runs after training (it needs at least 2 shadow models)."</p> }>
                <div class="chart" inner_html=roc></div>
                <table class="numbers" id="attack-table">
                    <tr><th>"model"</th><th>"LiRA AUC"</th><th>"TPR @ 1% FPR"</th><th>"offline AUC"</th><th>"loss-attack AUC"</th><th>"LiRA AUC, noisy only"</th></tr>
                    {move || ui.report.with(|r| r.as_ref().map(|r| r.runs.iter().filter_map(|run| run.attack.as_ref().map(|a| (run, a))).map(|(run, a)| view! {
                        <tr><td>{r.variant(run).label()}</td><td class="auc">{format!("{:.3}", a.lira_online.auc)}</td>
                            <td>{format!("{:.1}%", 100.0 * a.lira_online.tpr_at(0.01).unwrap_or(0.0))}</td>
                            <td>{format!("{:.3}", a.lira_offline.auc)}</td><td>{format!("{:.3}", a.loss.auc)}</td>
                            <td class="auc-noisy">{a.lira_noisy.as_ref().map_or("—".to_string(), |n| format!("{:.3}", n.auc))}</td></tr>
                    }).collect_view()))}
                </table>
            </Show>
        </section>
        <section class="view" id="view-gallery">
            <h2>"Most exposed training samples"</h2>
            <p class="teach">"The members LiRA is most sure about. Count the red (flipped) and orange (OOD) tags: the outliers the model
               memorized are the ones it leaks."</p>
            {move || ui.report.with(|r| r.as_ref().map(|r| r.runs.iter().filter_map(|run| run.attack.as_ref().map(|a| (r.variant(run), a.exposed.clone()))).map(|(variant, ex)| view! {
                <h3>{format!("{} model", variant.label())}</h3>
                <div class="gallery">
                    {ex.into_iter().map(|e| {
                        let (tag, class) = match e.kind { SampleKind::Clean => ("clean", "clean"), SampleKind::Flipped => ("flipped", "flipped"), SampleKind::Ood => ("OOD", "ood") };
                        view! {
                            <figure class=format!("sample {class}")>
                                <SampleImage pixels=e.pixels.clone() />
                                <figcaption>{caption(e.label, e.true_label)}<br/><span class="tag">{tag}</span></figcaption>
                            </figure>
                        }
                    }).collect_view()}
                </div>
            }).collect_view()))}
        </section>
    }
}

/// A gallery caption: the label trained with and the dataset's (OOD images have none).
fn caption(label: u8, true_label: Option<u8>) -> String {
    match true_label {
        Some(t) => format!("given {label} · true {t}"),
        None => format!("given {label} · OOD image"),
    }
}

/// Per model: the mean over the trained epochs of the median noisy and clean gradient norm, and
/// their ratio.
#[component]
fn GradTable(ui: Ui) -> impl IntoView {
    view! {
        <table class="numbers" id="grad-table">
            <tr><th>"model"</th><th>"noisy ‖∇ℓ‖ (median; mean over epochs 1…n)"</th><th>"clean ‖∇ℓ‖ (median; mean over epochs 1…n)"</th><th>"noisy / clean"</th></tr>
            {move || ui.report.with(|r| r.as_ref().map(|r| r.runs.iter().filter_map(|run| run.grad_norm_summary().map(|g| (r.variant(run), g))).map(|(variant, g)| view! {
                <tr><td>{variant.label()}</td><td>{format!("{:.3}", g.noisy)}</td><td>{format!("{:.3}", g.clean)}</td>
                    <td>{format!("{:.2}×", g.ratio())}</td></tr>
            }).collect_view()))}
        </table>
    }
}

#[component]
fn BenchView(ui: Ui) -> impl IntoView {
    let json = move || ui.bench.with(|b| b.to_json());
    let export = move |_| {
        let _ = web::download("spotlight-bench.json", "application/json", &ui.bench.with_untracked(|b| b.to_json()));
    };
    view! {
        <section class="view" id="view-bench" data-json=json>
            <h2>"Benchmark"</h2>
            <p class="teach">"How fast this browser trains: samples per second of training steps (forward, backward and an optimizer
               step, at the batch size in the controls) for each model on every backend the page has — WebGPU when it runs, and
               the two CPU backends in WebAssembly — and, from that, how long one full MNIST epoch (60,000 images) would take.
               Then it times the comparison in the controls, attack included, on the page's backend. Open a link with
               "<code>"bench=1"</code>" to run it at once."</p>
            <div class="buttons">
                <button id="bench-run" on:click=move |_| spawn_local(run_bench(ui))
                    disabled=move || ui.bench_running.get() || ui.status.with(Status::busy)>"Run benchmark"</button>
                <button id="export-bench" on:click=export disabled=move || ui.bench.with(|b| b.throughput.is_empty())>"Export benchmark (JSON)"</button>
            </div>
            <p id="bench-note">{move || ui.bench_note.get()}</p>
            <Show when=move || ui.bench.with(|b| !b.throughput.is_empty())>
                <table class="numbers" id="bench-table">
                    <tr><th>"backend"</th><th>"model"</th><th>"batch"</th><th>"train samples/s"</th><th>"one MNIST epoch"</th></tr>
                    {move || ui.bench.with(|b| b.throughput.iter().map(|t| view! {
                        <tr><td>{t.backend.clone()}</td><td>{t.model()}</td><td>{t.batch_size}</td>
                            <td class="rate">{format!("{:.0}", t.samples_per_s)}</td><td>{format!("{:.1} s", t.mnist_epoch_s())}</td></tr>
                    }).collect_view())}
                </table>
            </Show>
            <p id="bench-comparison">{move || ui.bench.with(|b| b.comparison.as_ref().map(|c| format!(
                "The comparison ({} training samples, {} epochs, {} shadow models) on {}: {:.1} s in all{} — training {:.1} s, shadow models {:.1} s, attack {:.1} s.",
                c.config.train_size, c.config.epochs, c.config.shadow_models, c.backend, c.times.total_s,
                if c.finished { "" } else { " (stopped early)" }, c.times.targets_s, c.times.shadows_s, c.times.attack_s))
            )}</p>
        </section>
    }
}

/// A 28×28 gray-scale sample on a canvas (one element, where an SVG would need 784).
#[component]
fn SampleImage(pixels: Vec<u8>) -> impl IntoView {
    use wasm_bindgen::JsCast;
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    Effect::new(move |_| {
        let Some(c) = canvas.get() else { return };
        let Ok(Some(ctx)) = c.get_context("2d") else { return };
        let Ok(ctx) = ctx.dyn_into::<web_sys::CanvasRenderingContext2d>() else { return };
        let rgba: Vec<u8> = pixels.iter().flat_map(|&p| [p, p, p, 255]).collect();
        if let Ok(img) = web_sys::ImageData::new_with_u8_clamped_array_and_sh(wasm_bindgen::Clamped(&rgba), 28, 28) {
            let _ = ctx.put_image_data(&img, 0.0, 0.0);
        }
    });
    view! { <canvas class="digit" width="28" height="28" node_ref=canvas></canvas> }
}

#[component]
fn App() -> impl IntoView {
    let parsed = link::parse(&web::query());
    let ui = Ui {
        config: RwSignal::new(parsed.config.clone()),
        notices: RwSignal::new(parsed.notices.iter().map(|n| n.to_string()).collect()),
        banner: RwSignal::new("Backend: chosen when you press Run (WebGPU if this browser has it, else the CPU).".into()),
        on_gpu: RwSignal::new(false),
        backend_pref: RwSignal::new(parsed.backend),
        status: RwSignal::new(Status::Idle),
        bar: RwSignal::new(Bar::default()),
        report: RwSignal::new(None),
        times: RwSignal::new(None),
        cancel: StoredValue::new(Arc::new(AtomicBool::new(false))),
        bench: RwSignal::new(BenchReport::default()),
        bench_running: RwSignal::new(false),
        bench_note: RwSignal::new(String::new()),
    };
    // Pick and announce the backend at once, so the banner is true before any run.
    spawn_local(async move {
        let (be, why) = backend(ui.backend_pref.get_untracked()).await;
        ui.on_gpu.set(be.gpu);
        ui.banner.set(match why {
            None => format!("Backend: {}", be.label),
            Some(w) => format!("Backend: {} — {w}", be.label),
        });
    });
    if parsed.bench {
        spawn_local(run_bench(ui));
    } else if parsed.run {
        ui.start();
    }
    let export_json = move |_| {
        if let Some(r) = ui.report.get_untracked() {
            let _ = web::download("spotlight-report.json", "application/json", &r.to_json());
        }
    };
    let export_csv = move |_| {
        if let Some(r) = ui.report.get_untracked() {
            let _ = web::download("spotlight-curves.csv", "text/csv", &r.to_csv());
        }
    };
    view! {
        <header>
            <h1>"Spotlight"</h1>
            <p class="lede">"Watch Batch Normalization make a neural network memorize outliers — and leak them to a membership-inference
               attacker. Two LeNet-5s, one with BN and one without, train side by side on the same data and seed, in your browser."</p>
            <div id="backend-banner" class=move || if ui.on_gpu.get() { "banner gpu" } else { "banner cpu" }>{move || ui.banner.get()}</div>
            <Show when=move || ui.notices.with(|n| !n.is_empty())>
                <div id="notices" class="notices" role="status">
                    <strong>"Some settings were not used as given:"</strong>
                    <ul>{move || ui.notices.get().into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
                    <button on:click=move |_| ui.notices.set(Vec::new())>"Dismiss"</button>
                </div>
            </Show>
        </header>
        <main>
            <Controls ui />
            <ProgressView ui />
            <div class="exports">
                <button id="export-json" on:click=export_json disabled=move || ui.report.with(|r| r.is_none())>"Export report (JSON)"</button>
                <button id="export-csv" on:click=export_csv disabled=move || ui.report.with(|r| r.is_none())>"Export curves (CSV)"</button>
            </div>
            <Views ui />
            <paper_panel::PaperPanel />
            <BenchView ui />
        </main>
        <footer>"After Doan, Gu & Alouani (2026), \"Batch Normalization Amplifies Memorization and Privacy Risks\". Runs entirely in this page; no data leaves it."</footer>
    }
}

/// Exposes `window.spotlightMemoryBytes()`, the size of the wasm linear memory, for the browser
/// tests that check that repeated runs do not grow it without bound.
fn expose_memory_probe() {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::{JsCast, JsValue};
    let probe = Closure::<dyn Fn() -> f64>::new(|| {
        let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
        memory.buffer().unchecked_into::<js_sys::ArrayBuffer>().byte_length() as f64
    });
    // What burn's GPU allocator holds (the page's WebGPU device; null on the CPU).
    let gpu = Closure::<dyn Fn() -> JsValue>::new(|| {
        let usage = BACKEND.with(|b| b.borrow().as_ref().filter(|(be, _)| be.gpu).and_then(|(be, _)| be.device.memory_pool_usage()));
        match usage {
            None => JsValue::NULL,
            Some(u) => {
                let o = js_sys::Object::new();
                for (k, v) in [("allocs", u.number_allocs), ("bytesInUse", u.bytes_in_use), ("bytesReserved", u.bytes_reserved)] {
                    let _ = js_sys::Reflect::set(&o, &k.into(), &(v as f64).into());
                }
                o.into()
            }
        }
    });
    if let Some(w) = web_sys::window() {
        let _ = js_sys::Reflect::set(&w, &"spotlightMemoryBytes".into(), probe.as_ref());
        let _ = js_sys::Reflect::set(&w, &"spotlightGpuMemory".into(), gpu.as_ref());
    }
    probe.forget();
    gpu.forget();
}

// Static constructors (cubecl registers its kernels through `inventory`). Without an explicit call
// wasm-ld treats the module as "command-style" and re-runs every constructor at the start of every
// call from JS into wasm — each callback, each resumed future; profiled here at a third of a run's
// main-thread time. Calling them once, first, turns that wrapping off (inventory's docs).
#[cfg(target_family = "wasm")]
#[allow(unsafe_code)]
unsafe extern "C" {
    fn __wasm_call_ctors();
}

fn main() {
    // SAFETY: runs once, before anything else in the module; the constructors only register statics.
    #[cfg(target_family = "wasm")]
    #[allow(unsafe_code)]
    unsafe {
        __wasm_call_ctors();
    }
    console_error_panic_hook::set_once();
    expose_memory_probe();
    spotlight_core::yielder::install(|| Box::pin(web::yield_now()));
    mount_to_body(App);
}
