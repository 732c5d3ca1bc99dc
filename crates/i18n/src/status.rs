//! The page's status texts: the backend banner and the notices' frame, the progress line (and what a
//! screen reader is told of it), what a run is doing, why it failed, the dataset downloads, the
//! benchmark, and the crash panel. Values come in already written (numbers by `Lang`).

use serde::Serialize;

/// The shadow models' progress, each number written already: done, in all, per model, training now.
pub struct ShadowsSaid {
    pub done: String,
    pub all: String,
    pub per_model: String,
    pub running: String,
}

#[derive(Debug, Serialize)]
pub struct Status {
    pub banner: Banner,
    pub progress: Progress,
    pub doing: Doing,
    pub failure: Failure,
    pub load: Load,
    /// What is wrong with a dataset's asset, or with the data an experiment is built from.
    pub data: Data,
    pub bench: Bench,
    pub crash: Crash,
}

/// A duration rounded for "about …": to 5 s under a minute and a half (at least 5 s), else to
/// whole minutes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum About {
    Seconds(u64),
    Minutes(u64),
}

impl About {
    /// `seconds`, rounded so.
    pub fn of(seconds: f64) -> Self {
        let s = seconds.max(0.0);
        if s < 90.0 {
            Self::Seconds(((s / 5.0).round() as u64).max(1) * 5)
        } else {
            Self::Minutes((s / 60.0).round() as u64)
        }
    }
}

/// Which backend the page trains on, and why; the notices' frame.
#[derive(Debug, Serialize)]
pub struct Banner {
    /// Before the backend is chosen.
    pub starting: &'static str,
    /// Before the backend's name once a run started ("Training on CPU (…)").
    pub training_on: &'static str,
    /// Before the backend's name before any run.
    pub backend: &'static str,
    pub in_workers: &'static str,
    /// Before a run, on the CPU: how long a run with these settings takes here, measured by the
    /// page's rehearsal or its last run ([`About`]).
    #[serde(skip)]
    pub estimate: fn(About) -> String,
    /// Training on the page's thread: why (`no_gpu_in_workers`).
    #[serde(skip)]
    pub on_page: fn(&str) -> String,
    /// The browser's reason.
    #[serde(skip)]
    pub no_gpu_in_workers: fn(&str) -> String,
    /// A CPU backend's label, from its name ("flex").
    #[serde(skip)]
    pub cpu: fn(&str) -> String,
    /// A WebGPU adapter that is software (in brackets after its name).
    pub fallback_adapter: &'static str,
    /// A WebGPU adapter with neither vendor nor architecture.
    pub unnamed_adapter: &'static str,
    /// Why the CPU: a lost GPU device (the browser's reason, or `no_reason`).
    #[serde(skip)]
    pub lost: fn(&str) -> String,
    /// A lost GPU device's reason when the browser gives none.
    pub no_reason: &'static str,
    /// The fold under the banner with the technical reason for the backend.
    pub why: &'static str,
    pub link_cpu: &'static str,
    pub link_ndarray_missing: &'static str,
    pub link_ndarray: &'static str,
    /// Why the CPU: WebGPU is a software fallback (the adapter's name).
    #[serde(skip)]
    pub software_fallback: fn(&str) -> String,
    /// While the page times a few training steps on WebGPU and on the CPU, before its first run.
    pub measuring: &'static str,
    /// Both backends measured: WebGPU's samples per second in all and its workers, the CPU's and
    /// its workers (each written), and whether WebGPU is the faster (the one the page trains on).
    #[serde(skip)]
    pub measured: fn(&str, &str, &str, &str, bool) -> String,
    /// After [`measured`](Self::measured) when the figures are this session's earlier ones.
    pub measured_earlier: &'static str,
    /// WebGPU could not be measured (why): the CPU.
    #[serde(skip)]
    pub webgpu_unmeasured: fn(&str) -> String,
    /// The CPU could not be measured (why): WebGPU.
    #[serde(skip)]
    pub cpu_unmeasured: fn(&str) -> String,
    /// A measurement that gave no answer within this many seconds.
    #[serde(skip)]
    pub no_answer: fn(u64) -> String,
    pub no_webgpu: &'static str,
    pub no_request_adapter: &'static str,
    pub no_promise: &'static str,
    pub no_adapter: &'static str,
    /// The browser's error when asked for an adapter.
    #[serde(skip)]
    pub adapter_error: fn(&str) -> String,
    /// A WebGPU device that could not be opened (burn's error).
    #[serde(skip)]
    pub webgpu_failed: fn(&str) -> String,
    pub notices: &'static str,
    pub dismiss: &'static str,
}

/// The progress bar, its line, what is announced, and the buttons beside it.
#[derive(Debug, Serialize)]
pub struct Progress {
    /// The section's accessible name.
    pub label: &'static str,
    pub bar_label: &'static str,
    pub ready: &'static str,
    pub starting: &'static str,
    /// A dataset's download (its file), without figures.
    #[serde(skip)]
    pub loading: fn(&str) -> String,
    /// MB so far, MB in all, the share done.
    #[serde(skip)]
    pub of_mb: fn(&str, &str, &str) -> String,
    /// The file, its MB.
    #[serde(skip)]
    pub unpacking: fn(&str, &str) -> String,
    pub samples_per_s: &'static str,
    /// Seconds left.
    #[serde(skip)]
    pub eta: fn(&str) -> String,
    pub benchmarking: &'static str,
    /// Seconds in all, samples per second.
    #[serde(skip)]
    pub done_in: fn(&str, &str) -> String,
    /// The share done, seconds.
    #[serde(skip)]
    pub cancelled_at: fn(&str, &str) -> String,
    #[serde(skip)]
    pub error: fn(&str) -> String,
    /// Announced: the share done.
    #[serde(skip)]
    pub say_training: fn(&str) -> String,
    pub say_benchmarking: &'static str,
    /// Announced: seconds in all.
    #[serde(skip)]
    pub say_done: fn(&str) -> String,
    pub say_cancelled: &'static str,
    pub retry: &'static str,
    pub ask_label: &'static str,
    pub start_it: &'static str,
    pub not_now: &'static str,
    pub not_every_model: &'static str,
    /// After a model's name: its attack failed.
    pub attack: &'static str,
    pub export_json: &'static str,
    pub export_csv: &'static str,
}

/// What a run is doing (the progress line), and its wall time by phase.
#[derive(Debug, Serialize)]
pub struct Doing {
    pub attacking: &'static str,
    pub done: &'static str,
    /// The target models training now (joined by `and`).
    #[serde(skip)]
    pub training: fn(&str) -> String,
    pub and: &'static str,
    /// Shadow models done, in all, per model, training now.
    #[serde(skip)]
    pub shadows: fn(&ShadowsSaid) -> String,
    pub waiting: &'static str,
    /// How many workers.
    #[serde(skip)]
    pub workers: fn(&str) -> String,
    /// Seconds training, the shadow models' part (`shadows_s` or `shadows_alongside`), seconds attacking.
    #[serde(skip)]
    pub phases: fn(&str, &str, &str) -> String,
    #[serde(skip)]
    pub shadows_s: fn(&str) -> String,
    pub shadows_alongside: &'static str,
}

/// Why a run stopped or a model failed.
#[derive(Debug, Serialize)]
pub struct Failure {
    /// The download's or the decoder's error.
    #[serde(skip)]
    pub dataset: fn(&str) -> String,
    #[serde(skip)]
    pub ood_dataset: fn(&str) -> String,
    /// What stopped the run.
    #[serde(skip)]
    pub kept: fn(&str) -> String,
    /// The browser's reason.
    #[serde(skip)]
    pub gpu_lost: fn(&str) -> String,
    /// How many models' errors are listed.
    #[serde(skip)]
    pub errors: fn(usize) -> String,
    /// The loss's value, the epoch, the step.
    #[serde(skip)]
    pub loss_diverged: fn(&str, &str, &str) -> String,
    /// The backend's error.
    #[serde(skip)]
    pub backend_failed: fn(&str) -> String,
    pub job_before_data: &'static str,
    pub attack_before_data: &'static str,
    pub nothing_to_attack: &'static str,
    /// How many jobs of an experiment have no result yet, and the first one's key (when known).
    #[serde(skip)]
    pub jobs_missing: fn(&str, Option<&str>) -> String,
    /// The key of a result that should be a target model's and is not.
    #[serde(skip)]
    pub not_a_target: fn(&str) -> String,
    /// The worker's error.
    #[serde(skip)]
    pub worker_failed: fn(&str) -> String,
    pub worker_script: &'static str,
    /// The panic's text.
    #[serde(skip)]
    pub worker_panicked: fn(&str) -> String,
    #[serde(skip)]
    pub worker_start: fn(&str) -> String,
    #[serde(skip)]
    pub worker_started: fn(&str) -> String,
    pub no_document: &'static str,
    pub no_module: &'static str,
    /// The message, as the browser shows it.
    #[serde(skip)]
    pub unreadable: fn(&str) -> String,
    #[serde(skip)]
    pub data_not_sent: fn(&str) -> String,
    #[serde(skip)]
    pub task_not_sent: fn(&str) -> String,
    pub stuck: &'static str,
    #[serde(skip)]
    pub not_serialized: fn(&str) -> String,
    pub not_text: &'static str,
    #[serde(skip)]
    pub worker_unreadable: fn(&str) -> String,
    pub no_images: &'static str,
    pub images_mismatch: &'static str,
}

/// A dataset's download and unpacking going wrong.
#[derive(Debug, Serialize)]
pub struct Load {
    pub not_a_response: &'static str,
    /// The browser's error.
    #[serde(skip)]
    pub broke_off: fn(&str) -> String,
    /// The cap, in MB.
    #[serde(skip)]
    pub too_big: fn(&str) -> String,
    pub not_bytes: &'static str,
    #[serde(skip)]
    pub not_gzip: fn(&str) -> String,
    #[serde(skip)]
    pub inflates_too_big: fn(&str) -> String,
}

/// A dataset's images of another shape than expected: their size ("32×32") and classes (by
/// `Data::classes`), the size and classes expected.
pub struct Shape<'a> {
    pub size: &'a str,
    pub classes: &'a str,
    pub want: &'a str,
    pub want_classes: &'a str,
}

/// An experiment's pool of samples larger than the dataset's training images: the pool, whether it
/// holds members and non-members (the attack), the training images, the dataset's name.
pub struct PoolTooLarge<'a> {
    pub pool: &'a str,
    pub attack: bool,
    pub train: &'a str,
    pub dataset: &'a str,
}

/// The benchmark's timed comparison: training samples, epochs, shadow models, the backend.
pub struct Comparison<'a> {
    pub samples: &'a str,
    pub epochs: &'a str,
    pub shadows: &'a str,
    pub backend: &'a str,
}

/// What is wrong with a dataset's asset (after the file's name), or why an experiment's data cannot
/// be built. Numbers come in written; English is the data crate's and the core's text.
#[derive(Debug, Serialize)]
pub struct Data {
    /// The splits' names, for `split_sizes` and `label_out_of_range`.
    pub train: &'static str,
    pub test: &'static str,
    /// The split, its labels, its pixel bytes.
    #[serde(skip)]
    pub split_sizes: fn(&str, &str, &str) -> String,
    /// The split, the label, the classes.
    #[serde(skip)]
    pub label_out_of_range: fn(&str, &str, &str) -> String,
    /// A number of classes (for `shape`).
    #[serde(skip)]
    pub classes: fn(u8) -> String,
    #[serde(skip)]
    pub shape: fn(&Shape) -> String,
    /// Train images, test images.
    #[serde(skip)]
    pub empty_split: fn(&str, &str) -> String,
    pub neither_gzip_nor_asset: &'static str,
    /// The unpacker's error (English).
    #[serde(skip)]
    pub bad_gzip: fn(&str) -> String,
    pub not_asset: &'static str,
    pub name_not_utf8: &'static str,
    pub sizes_overflow: &'static str,
    /// How many bytes.
    #[serde(skip)]
    pub trailing_bytes: fn(&str) -> String,
    /// Bytes needed, the offset, bytes left.
    #[serde(skip)]
    pub truncated: fn(&str, &str, &str) -> String,
    #[serde(skip)]
    pub pool_too_large: fn(&PoolTooLarge) -> String,
    pub no_other_dataset: &'static str,
    pub other_size: &'static str,
    /// The drawing's pixels, the images'.
    #[serde(skip)]
    pub canary_size: fn(&str, &str) -> String,
    pub no_clean_member: &'static str,
}

/// The benchmark's view.
#[derive(Debug, Serialize)]
pub struct Bench {
    pub title: &'static str,
    /// The explanation, before and after the link's `bench=1`.
    pub teach_before: &'static str,
    pub teach_after: &'static str,
    pub run: &'static str,
    pub export: &'static str,
    /// backend, model, batch, train samples/s, one MNIST epoch, WebGPU work per step.
    pub headers: [&'static str; 6],
    /// A WebGPU row's work per step: dispatches, submits, read-backs (each written already).
    #[serde(skip)]
    pub gpu_work: fn(&str, &str, &str) -> String,
    pub needs_mnist: &'static str,
    /// The model, the backend.
    #[serde(skip)]
    pub timing: fn(&str, &str) -> String,
    #[serde(skip)]
    pub timing_comparison: fn(&str) -> String,
    /// Timing the shadow models one by one and stacked on a backend (its label).
    #[serde(skip)]
    pub timing_shadows: fn(&str) -> String,
    /// Above the shadow models' table: how many models, about how many members each, the batch.
    #[serde(skip)]
    pub shadows_caption: fn(&str, &str, &str) -> String,
    /// backend, model, one by one (samples/s), stacked (samples/s), stacked ÷ one by one, WebGPU
    /// dispatches per trained sample (one by one → stacked).
    pub shadows_headers: [&'static str; 6],
    pub done: &'static str,
    /// How the comparison ended (`cancelled`, `failed`, `load_failed`).
    #[serde(skip)]
    pub unfinished: fn(&str) -> String,
    pub cancelled: &'static str,
    #[serde(skip)]
    pub failed: fn(&str) -> String,
    #[serde(skip)]
    pub load_failed: fn(&str) -> String,
    #[serde(skip)]
    pub comparison: fn(&Comparison) -> String,
    #[serde(skip)]
    pub in_workers: fn(&str) -> String,
    pub on_page: &'static str,
    /// Seconds in all.
    #[serde(skip)]
    pub in_all: fn(&str) -> String,
    pub stopped_early: &'static str,
    /// After the comparison's time: BN − no-BN flipped-label accuracy at its end, in points (written).
    #[serde(skip)]
    pub flipped_gap: fn(&str) -> String,
}

/// The panel shown when the app crashed, and the browser's question before leaving a run.
#[derive(Debug, Serialize)]
pub struct Crash {
    pub heading: &'static str,
    pub explain: &'static str,
    pub reload: &'static str,
    pub uncaught: &'static str,
    pub leave: &'static str,
}

pub const EN: Status = Status {
    banner: Banner {
        starting: "Backend: starting (WebGPU if this browser has it, else the CPU)…",
        training_on: "Training on",
        backend: "Runs on",
        in_workers: "training in the background (Web Workers), the page stays free",
        estimate: |d| match d {
            About::Seconds(s) => format!("a run with these settings takes about {s} s here"),
            About::Minutes(m) => format!("a run with these settings takes about {m} min here"),
        },
        on_page: |why| format!("training on the page's thread: {why}"),
        no_gpu_in_workers: |why| format!("this browser offers no WebGPU to workers ({why})"),
        cpu: |name| format!("CPU ({name}, in WebAssembly)"),
        fallback_adapter: "fallback adapter",
        unnamed_adapter: "unnamed adapter",
        lost: |why| {
            format!(
                "the GPU device was lost ({why}); the CPU from now on, reload to try WebGPU again"
            )
        },
        no_reason: "no reason given",
        why: "Why this one?",
        link_cpu: "the link asks for the CPU backend",
        link_ndarray_missing: "the link asks for burn-ndarray, which the page does not include (the CLI has it); the CPU backend burn-flex instead",
        link_ndarray: "the link asks for burn-ndarray",
        software_fallback: |name| {
            format!(
                "WebGPU here is only a software fallback ({name}), which runs on the same processor as the CPU backend and slower (~10× on our test machine), so it is not measured; measure=1 in the link measures both, backend=webgpu uses it anyway"
            )
        },
        measuring: "Measuring which trains faster here, WebGPU or the CPU: a few training steps on each…",
        measured: |gpu, gpu_workers, cpu, cpu_workers, on_gpu| {
            let pick = if on_gpu { "WebGPU" } else { "the CPU" };
            format!(
                "measured here: WebGPU {gpu} samples/s, CPU {cpu} samples/s (one worker's rate times a run's workers: {gpu_workers} and {cpu_workers}), so training on {pick}"
            )
        },
        measured_earlier: "(measured earlier in this session)",
        webgpu_unmeasured: |why| format!("WebGPU could not be measured ({why}), so the CPU"),
        cpu_unmeasured: |why| format!("the CPU could not be measured ({why}), so WebGPU"),
        no_answer: |s| format!("no answer within {s} s"),
        no_webgpu: "this browser has no WebGPU (navigator.gpu is missing)",
        no_request_adapter: "navigator.gpu.requestAdapter is not a function",
        no_promise: "requestAdapter gave no promise",
        no_adapter: "WebGPU gave no adapter (requestAdapter() returned null)",
        adapter_error: |e| e.to_string(),
        webgpu_failed: |e| format!("WebGPU could not start ({e})"),
        notices: "Some settings were not used as given:",
        dismiss: "Dismiss",
    },
    progress: Progress {
        label: "progress",
        bar_label: "experiment progress",
        ready: "Ready. Press Run.",
        starting: "Starting…",
        loading: |file| format!("Loading {file}"),
        of_mb: |got, total, pct| format!("{got} of {total} MB ({pct})"),
        unpacking: |file, mb| format!("Unpacking {file} ({mb} MB)…"),
        samples_per_s: "samples/s",
        eta: |s| format!("ETA {s} s"),
        benchmarking: "Benchmarking (see the benchmark below)…",
        done_in: |s, rate| format!("done in {s} s ({rate} samples/s)"),
        cancelled_at: |pct, s| {
            format!("Cancelled at {pct} after {s} s; what was measured is kept below.")
        },
        error: |e| format!("Error: {e}"),
        say_training: |pct| format!("Training: {pct} done."),
        say_benchmarking: "Benchmarking.",
        say_done: |s| format!("Done in {s} s. The charts and tables below show the results."),
        say_cancelled: "Cancelled. What was measured is kept.",
        retry: "Retry",
        ask_label: "Start this run?",
        start_it: "Start it",
        not_now: "Not now",
        not_every_model: "Not every model finished:",
        attack: "attack",
        export_json: "Export report (JSON)",
        export_csv: "Export curves (CSV)",
    },
    doing: Doing {
        attacking: "running the membership attacks",
        done: "done",
        training: |models| format!("training {models}"),
        and: " and ",
        shadows: |c| {
            format!(
                "shadow models: {} of {} done ({} per model), {} training",
                c.done, c.all, c.per_model, c.running
            )
        },
        waiting: "waiting for a worker",
        workers: |n| format!("({n} workers)"),
        phases: |targets, shadows, attack| {
            format!("training {targets} s, {shadows}, attack {attack} s")
        },
        shadows_s: |s| format!("shadow models {s} s"),
        shadows_alongside: "shadow models alongside",
    },
    failure: Failure {
        dataset: |e| format!("The dataset could not be loaded: {e}"),
        ood_dataset: |e| format!("The OOD dataset could not be loaded: {e}"),
        kept: |e| format!("{e}; what was measured until then is kept below"),
        gpu_lost: |why| {
            format!(
                "the GPU device was lost during the run ({why}); what was measured is kept below, and the next run uses the CPU"
            )
        },
        errors: |n| {
            format!(
                "the run ended with {n} error{}, listed below; what was measured is kept",
                if n == 1 { "" } else { "s" }
            )
        },
        loss_diverged: |value, epoch, step| {
            format!(
                "training stopped: the loss became {value} at epoch {epoch}, step {step}; try a lower learning rate"
            )
        },
        backend_failed: |e| format!("training stopped: the backend failed: {e}"),
        job_before_data: "a job before the data",
        attack_before_data: "an attack before the data",
        nothing_to_attack: "nothing to attack",
        jobs_missing: |n, key| match key {
            Some(key) => format!("{n} job(s) have no result yet (e.g. key {key})"),
            None => format!("{n} job(s) have no result yet"),
        },
        not_a_target: |key| format!("job {key} is not a target"),
        worker_failed: |e| format!("a training worker failed: {e}"),
        worker_script: "the worker's script failed to load or run",
        worker_panicked: |e| format!("a training worker panicked: {e}"),
        worker_start: |e| format!("a Web Worker could not start: {e}"),
        worker_started: |e| format!("a Web Worker could not be started: {e}"),
        no_document: "no document",
        no_module: "the page does not name its module (no modulepreload link)",
        unreadable: |m| format!("a worker sent a message the page cannot read: {m}"),
        data_not_sent: |e| format!("the data could not be sent to a worker: {e}"),
        task_not_sent: |e| format!("a task could not be sent to a worker: {e}"),
        stuck: "the run has tasks left but none can start (a bug)",
        not_serialized: |e| format!("a message did not serialize: {e}"),
        not_text: "a message that is not text",
        worker_unreadable: |e| format!("a message the worker cannot read: {e}"),
        no_images: "the data came without its images",
        images_mismatch: "the data's images do not match its labels",
    },
    load: Load {
        not_a_response: "not a response",
        broke_off: |e| format!("the download broke off ({e})"),
        too_big: |mb| format!("more than {mb} MB, too large for a dataset"),
        not_bytes: "a chunk that is not bytes",
        not_gzip: |e| format!("not valid gzip ({e})"),
        inflates_too_big: |mb| {
            format!("decompresses to more than {mb} MB, too large for a dataset asset")
        },
    },
    data: Data {
        train: "train",
        test: "test",
        split_sizes: |split, labels, bytes| {
            format!("{split} split: {labels} labels but {bytes} pixel bytes")
        },
        label_out_of_range: |split, label, classes| {
            format!("{split} split: label {label} is out of range for {classes} classes")
        },
        classes: |n| format!("{n} class{}", if n == 1 { "" } else { "es" }),
        shape: |&Shape { size, classes, want, want_classes }| {
            format!("{size} images in {classes}, expected {want} in {want_classes}")
        },
        empty_split: |train, test| {
            format!("{train} train and {test} test images; both splits must have some")
        },
        neither_gzip_nor_asset: "neither gzip nor a Spotlight dataset asset (bad magic)",
        bad_gzip: |e| format!("not a valid gzip'd dataset asset: {e}"),
        not_asset: "not a Spotlight dataset asset (bad magic)",
        name_not_utf8: "dataset name is not UTF-8",
        sizes_overflow: "sizes overflow",
        trailing_bytes: |n| format!("{n} trailing bytes after the dataset"),
        truncated: |needed, at, left| {
            format!(
                "truncated dataset asset: needed {needed} more bytes at offset {at}, {left} left"
            )
        },
        pool_too_large: |&PoolTooLarge { pool, attack, train, dataset }| {
            let both = if attack { " (members + non-members for the attack)" } else { "" };
            format!(
                "train_size: {pool} samples{both} do not fit in the {train} training images of {dataset}"
            )
        },
        no_other_dataset: "ood_source: \"other\" needs the other dataset loaded",
        other_size: "ood_source: the other dataset's images are of another size",
        canary_size: |drawing, image| {
            format!("canary: a drawing is {drawing} pixels, this dataset's images {image}")
        },
        no_clean_member: "canary: no clean member to put it in place of",
    },
    bench: Bench {
        title: "Benchmark",
        teach_before: "How fast this browser trains: samples per second of training steps (forward, backward and an optimizer \
                       step, at the batch size in the controls) for each model on every backend the page has — WebGPU when it \
                       runs, and the CPU backend (burn-flex) in WebAssembly — and, from that, how long one full MNIST epoch \
                       (60,000 images) would take. Then it times the comparison in the controls, attack included, on the \
                       page's backend. Open a link with ",
        teach_after: " to run it at once.",
        run: "Run benchmark",
        export: "Export benchmark (JSON)",
        headers: [
            "backend",
            "model",
            "batch",
            "train samples/s",
            "one MNIST epoch",
            "WebGPU work per step",
        ],
        gpu_work: |d, s, r| format!("{d} dispatches, {s} submits, {r} read-backs"),
        needs_mnist: "The benchmark needs MNIST, which could not be loaded; run it again to retry.",
        timing: |model, backend| format!("Timing {model} on {backend}…"),
        timing_comparison: |backend| format!("Timing the comparison in the controls on {backend}…"),
        timing_shadows: |backend| {
            format!("Timing shadow models on {backend}, one by one, then stacked as one network…")
        },
        shadows_caption: |models, members, batch| {
            format!(
                "Shadow models, {models} of about {members} members each (2 epochs, batch {batch}, images of noise), trained one by one as a run trains them, or stacked as one network (one kernel launch serves them all); with the pool's scores:"
            )
        },
        shadows_headers: [
            "backend",
            "model",
            "one by one, samples/s",
            "stacked, samples/s",
            "stacked ÷ one by one",
            "WebGPU dispatches per sample",
        ],
        done: "Done.",
        unfinished: |how| {
            format!("The comparison did not finish ({how}); its time is up to where it stopped.")
        },
        cancelled: "Cancelled",
        failed: |e| format!("Failed({e:?})"),
        load_failed: |e| format!("LoadFailed({e:?})"),
        comparison: |&Comparison { samples, epochs, shadows, backend }| {
            format!(
                "The comparison ({samples} training samples, {epochs} epochs, {shadows} shadow models) on {backend}"
            )
        },
        in_workers: |n| format!(" in {n} Web Workers"),
        on_page: " on the page's thread",
        in_all: |s| format!(": {s} s in all"),
        stopped_early: " (stopped early)",
        flipped_gap: |p| {
            format!(" What it showed: BN − no-BN flipped-label accuracy at the end, {p} points.")
        },
    },
    crash: Crash {
        heading: "Spotlight crashed — reload the page.",
        explain: "Something inside the app failed and it cannot go on. Your settings are in the address; what this run measured is lost.",
        reload: "Reload the page",
        uncaught: "an uncaught error",
        leave: "A run is going on; leaving the page loses it.",
    },
};

pub const ES: Status = Status {
    banner: Banner {
        starting: "Backend: iniciando (WebGPU si este navegador lo tiene; si no, la CPU)…",
        training_on: "Entrenando en",
        backend: "Se ejecuta en:",
        in_workers: "entrena en segundo plano, en hilos aparte del navegador",
        estimate: |d| match d {
            About::Seconds(s) => format!("con estos ajustes, una ejecución tarda aquí unos {s} s"),
            About::Minutes(m) => {
                format!("con estos ajustes, una ejecución tarda aquí unos {m} min")
            }
        },
        on_page: |why| format!("entrenamiento en el hilo de la página: {why}"),
        no_gpu_in_workers: |why| format!("este navegador no ofrece WebGPU a los workers ({why})"),
        cpu: |name| format!("CPU ({name}, en WebAssembly)"),
        fallback_adapter: "adaptador de respaldo",
        unnamed_adapter: "adaptador sin nombre",
        lost: |why| {
            format!(
                "se perdió el dispositivo GPU ({why}); desde ahora la CPU, recarga la página para volver a probar WebGPU"
            )
        },
        no_reason: "sin motivo indicado",
        why: "¿Por qué este?",
        link_cpu: "el enlace pide el backend de CPU",
        link_ndarray_missing: "el enlace pide burn-ndarray, que la página no incluye (la CLI sí); en su lugar, el backend de CPU burn-flex",
        link_ndarray: "el enlace pide burn-ndarray",
        software_fallback: |name| {
            format!(
                "WebGPU aquí es solo un respaldo por software ({name}), que corre en el mismo procesador que el backend de CPU y más lento (~10× en nuestra máquina de pruebas), así que no se mide; measure=1 en el enlace mide ambos, backend=webgpu lo usa de todos modos"
            )
        },
        measuring: "Midiendo qué entrena más rápido aquí, WebGPU o la CPU: unos pasos de entrenamiento en cada uno…",
        measured: |gpu, gpu_workers, cpu, cpu_workers, on_gpu| {
            let pick = if on_gpu { "WebGPU" } else { "la CPU" };
            format!(
                "medido aquí: WebGPU {gpu} muestras/s, CPU {cpu} muestras/s (el ritmo de un hilo de trabajo por los de una ejecución: {gpu_workers} y {cpu_workers}), así que entrena en {pick}"
            )
        },
        measured_earlier: "(medido antes en esta sesión)",
        webgpu_unmeasured: |why| format!("no se pudo medir WebGPU ({why}), así que la CPU"),
        cpu_unmeasured: |why| format!("no se pudo medir la CPU ({why}), así que WebGPU"),
        no_answer: |s| format!("sin respuesta en {s} s"),
        no_webgpu: "este navegador no tiene WebGPU (falta navigator.gpu)",
        no_request_adapter: "navigator.gpu.requestAdapter no es una función",
        no_promise: "requestAdapter no devolvió una promesa",
        no_adapter: "WebGPU no dio ningún adaptador (requestAdapter() devolvió null)",
        adapter_error: |e| format!("requestAdapter falló: {e}"),
        webgpu_failed: |e| format!("WebGPU no pudo iniciarse ({e})"),
        notices: "Algunos ajustes no se usaron tal como se dieron:",
        dismiss: "Cerrar",
    },
    progress: Progress {
        label: "progreso",
        bar_label: "progreso del experimento",
        ready: "Listo. Pulsa Ejecutar.",
        starting: "Iniciando…",
        loading: |file| format!("Cargando {file}"),
        of_mb: |got, total, pct| format!("{got} de {total} MB ({pct})"),
        unpacking: |file, mb| format!("Descomprimiendo {file} ({mb} MB)…"),
        samples_per_s: "muestras/s",
        eta: |s| format!("quedan {s} s"),
        benchmarking: "Midiendo el rendimiento (ver la prueba de rendimiento más abajo)…",
        done_in: |s, rate| format!("terminado en {s} s ({rate} muestras/s)"),
        cancelled_at: |pct, s| {
            format!("Cancelado al {pct} después de {s} s; lo medido se conserva más abajo.")
        },
        error: |e| format!("Error: {e}"),
        say_training: |pct| format!("Entrenando: {pct} hecho."),
        say_benchmarking: "Midiendo el rendimiento.",
        say_done: |s| {
            format!(
                "Terminado en {s} s. Los gráficos y las tablas de abajo muestran los resultados."
            )
        },
        say_cancelled: "Cancelado. Lo medido se conserva.",
        retry: "Reintentar",
        ask_label: "¿Iniciar esta ejecución?",
        start_it: "Iniciarla",
        not_now: "Ahora no",
        not_every_model: "No todos los modelos terminaron:",
        attack: "ataque",
        export_json: "Exportar informe (JSON)",
        export_csv: "Exportar curvas (CSV)",
    },
    doing: Doing {
        attacking: "ejecutando los ataques de inferencia de pertenencia",
        done: "listo",
        training: |models| format!("entrenando {models}"),
        and: " y ",
        shadows: |c| {
            format!(
                "modelos sombra: {} de {} listos ({} por modelo), {} entrenando",
                c.done, c.all, c.per_model, c.running
            )
        },
        waiting: "esperando un worker",
        workers: |n| format!("({n} workers en paralelo)"),
        phases: |targets, shadows, attack| {
            format!("entrenamiento {targets} s, {shadows}, ataque {attack} s")
        },
        shadows_s: |s| format!("modelos sombra {s} s"),
        shadows_alongside: "modelos sombra en paralelo",
    },
    failure: Failure {
        dataset: |e| format!("No se pudo cargar el conjunto de datos: {e}"),
        ood_dataset: |e| format!("No se pudo cargar el conjunto de datos OOD: {e}"),
        kept: |e| format!("{e}; lo medido hasta entonces se conserva más abajo"),
        gpu_lost: |why| {
            format!(
                "se perdió el dispositivo GPU durante la ejecución ({why}); lo medido se conserva más abajo, y la próxima ejecución usa la CPU"
            )
        },
        errors: |n| {
            if n == 1 {
                "la ejecución terminó con 1 error, listado abajo; lo medido se conserva".to_string()
            } else {
                format!(
                    "la ejecución terminó con {n} errores, listados abajo; lo medido se conserva"
                )
            }
        },
        loss_diverged: |value, epoch, step| {
            format!(
                "el entrenamiento se detuvo: la pérdida llegó a {value} en la época {epoch}, paso {step}; prueba una tasa de aprendizaje más baja"
            )
        },
        backend_failed: |e| format!("el entrenamiento se detuvo: falló el backend: {e}"),
        job_before_data: "una tarea antes de los datos",
        attack_before_data: "un ataque antes de los datos",
        nothing_to_attack: "nada que atacar",
        jobs_missing: |n, key| match key {
            Some(key) => format!("{n} tarea(s) aún sin resultado (p. ej., la clave {key})"),
            None => format!("{n} tarea(s) aún sin resultado"),
        },
        not_a_target: |key| format!("la tarea {key} no es la de un modelo atacado"),
        worker_failed: |e| format!("falló un worker de entrenamiento: {e}"),
        worker_script: "el script del worker no se pudo cargar o ejecutar",
        worker_panicked: |e| format!("un worker de entrenamiento entró en pánico: {e}"),
        worker_start: |e| format!("no se pudo crear un Web Worker: {e}"),
        worker_started: |e| format!("no se pudo poner en marcha un Web Worker: {e}"),
        no_document: "no hay documento",
        no_module: "la página no nombra su módulo (falta el enlace modulepreload)",
        unreadable: |m| format!("un worker envió un mensaje que la página no puede leer: {m}"),
        data_not_sent: |e| format!("no se pudieron enviar los datos a un worker: {e}"),
        task_not_sent: |e| format!("no se pudo enviar una tarea a un worker: {e}"),
        stuck: "a la ejecución le quedan tareas, pero ninguna puede empezar (un error del programa)",
        not_serialized: |e| format!("un mensaje no se pudo serializar: {e}"),
        not_text: "un mensaje que no es texto",
        worker_unreadable: |e| format!("un mensaje que el worker no puede leer: {e}"),
        no_images: "los datos llegaron sin sus imágenes",
        images_mismatch: "las imágenes de los datos no coinciden con sus etiquetas",
    },
    load: Load {
        not_a_response: "no es una respuesta",
        broke_off: |e| format!("la descarga se interrumpió ({e})"),
        too_big: |mb| format!("más de {mb} MB, demasiado grande para un conjunto de datos"),
        not_bytes: "un fragmento que no es de bytes",
        not_gzip: |e| format!("no es un gzip válido ({e})"),
        inflates_too_big: |mb| {
            format!("al descomprimirse ocupa más de {mb} MB, demasiado para un conjunto de datos")
        },
    },
    data: Data {
        train: "entrenamiento",
        test: "prueba",
        split_sizes: |split, labels, bytes| {
            format!("partición de {split}: {labels} etiquetas pero {bytes} bytes de píxeles")
        },
        label_out_of_range: |split, label, classes| {
            format!(
                "partición de {split}: la etiqueta {label} está fuera de rango para {classes} clases"
            )
        },
        classes: |n| format!("{n} clase{}", if n == 1 { "" } else { "s" }),
        shape: |&Shape { size, classes, want, want_classes }| {
            format!("imágenes de {size} en {classes}; se esperaban de {want} en {want_classes}")
        },
        empty_split: |train, test| {
            format!(
                "{train} imágenes de entrenamiento y {test} de prueba; ambas particiones deben tener alguna"
            )
        },
        neither_gzip_nor_asset: "no es ni gzip ni un archivo de datos de Spotlight (número mágico incorrecto)",
        bad_gzip: |e| format!("no es un archivo de datos en gzip válido: {e}"),
        not_asset: "no es un archivo de datos de Spotlight (número mágico incorrecto)",
        name_not_utf8: "el nombre del conjunto de datos no es UTF-8",
        sizes_overflow: "los tamaños se desbordan",
        trailing_bytes: |n| format!("{n} bytes de más tras el conjunto de datos"),
        truncated: |needed, at, left| {
            format!(
                "archivo de datos truncado: se necesitaban {needed} bytes más en la posición {at}, quedan {left}"
            )
        },
        pool_too_large: |&PoolTooLarge { pool, attack, train, dataset }| {
            let both = if attack { " (miembros + no miembros para el ataque)" } else { "" };
            format!(
                "train_size: {pool} muestras{both} no caben en las {train} imágenes de entrenamiento de {dataset}"
            )
        },
        no_other_dataset: "ood_source: \"other\" necesita el otro conjunto de datos cargado",
        other_size: "ood_source: las imágenes del otro conjunto de datos son de otro tamaño",
        canary_size: |drawing, image| {
            format!(
                "canary: un dibujo tiene {drawing} píxeles; las imágenes de este conjunto, {image}"
            )
        },
        no_clean_member: "canary: no hay ningún miembro limpio al que reemplazar",
    },
    bench: Bench {
        title: "Prueba de rendimiento",
        teach_before: "Qué tan rápido entrena este navegador: muestras por segundo de pasos de entrenamiento (propagación hacia \
                       adelante, hacia atrás y un paso del optimizador, con el tamaño de lote de los controles) para cada modelo \
                       en cada backend que tiene la página — WebGPU cuando funciona, y el backend de CPU (burn-flex) en \
                       WebAssembly — y, a partir de eso, cuánto tardaría una época completa de MNIST (60.000 imágenes). Después \
                       mide la comparación de los controles, ataque incluido, en el backend de la página. Abre un enlace con ",
        teach_after: " para ejecutarla de inmediato.",
        run: "Ejecutar la prueba de rendimiento",
        export: "Exportar la prueba de rendimiento (JSON)",
        headers: [
            "backend de cálculo",
            "modelo",
            "lote",
            "muestras de entrenamiento/s",
            "una época de MNIST",
            "trabajo de WebGPU por paso",
        ],
        gpu_work: |d, s, r| format!("{d} lanzamientos, {s} envíos, {r} lecturas"),
        needs_mnist: "La prueba de rendimiento necesita MNIST, que no se pudo cargar; ejecútala de nuevo para reintentar.",
        timing: |model, backend| format!("Midiendo {model} en {backend}…"),
        timing_comparison: |backend| {
            format!("Midiendo la comparación de los controles en {backend}…")
        },
        timing_shadows: |backend| {
            format!(
                "Midiendo modelos sombra en {backend}, uno a uno y luego apilados en una sola red…"
            )
        },
        shadows_caption: |models, members, batch| {
            format!(
                "Modelos sombra, {models} de unos {members} miembros cada uno (2 épocas, lote {batch}, imágenes de ruido), entrenados uno a uno como los entrena una ejecución, o apilados en una sola red (un lanzamiento de kernel sirve a todos); con las puntuaciones del conjunto:"
            )
        },
        shadows_headers: [
            "backend de cálculo",
            "modelo",
            "uno a uno, muestras/s",
            "apilados, muestras/s",
            "apilados ÷ uno a uno",
            "despachos WebGPU por muestra",
        ],
        done: "Listo.",
        unfinished: |how| {
            format!("La comparación no terminó ({how}); su tiempo llega hasta donde se detuvo.")
        },
        cancelled: "cancelada",
        failed: |e| format!("error: {e}"),
        load_failed: |e| format!("error de carga: {e}"),
        comparison: |&Comparison { samples, epochs, shadows, backend }| {
            format!(
                "La comparación ({samples} muestras de entrenamiento, {epochs} épocas, {shadows} modelos sombra) en {backend}"
            )
        },
        in_workers: |n| format!(" en {n} hilos aparte del navegador"),
        on_page: " en el hilo de la página",
        in_all: |s| format!(": {s} s en total"),
        stopped_early: " (se detuvo antes de terminar)",
        flipped_gap: |p| {
            format!(
                " Lo que mostró: exactitud en etiquetas invertidas al final, BN − sin BN, {p} puntos."
            )
        },
    },
    crash: Crash {
        heading: "Spotlight falló — recarga la página.",
        explain: "Algo dentro de la aplicación falló y no puede continuar. Tus ajustes están en la dirección; lo que midió esta \
                  ejecución se perdió.",
        reload: "Recargar la página",
        uncaught: "un error no capturado",
        leave: "Hay una ejecución en curso; salir de la página la pierde.",
    },
};

pub const PT: Status = Status {
    banner: Banner {
        starting: "Backend: iniciando (WebGPU se este navegador tiver; senão, a CPU)…",
        training_on: "Treinando em",
        backend: "Roda em:",
        in_workers: "treina em segundo plano, em threads à parte do navegador",
        estimate: |d| match d {
            About::Seconds(s) => {
                format!("com estas configurações, uma execução leva aqui cerca de {s} s")
            }
            About::Minutes(m) => {
                format!("com estas configurações, uma execução leva aqui cerca de {m} min")
            }
        },
        on_page: |why| format!("treinamento na thread da página: {why}"),
        no_gpu_in_workers: |why| format!("este navegador não oferece WebGPU aos workers ({why})"),
        cpu: |name| format!("CPU ({name}, em WebAssembly)"),
        fallback_adapter: "adaptador de reserva",
        unnamed_adapter: "adaptador sem nome",
        lost: |why| {
            format!(
                "o dispositivo GPU foi perdido ({why}); a CPU daqui em diante, recarregue para tentar o WebGPU de novo"
            )
        },
        no_reason: "sem motivo informado",
        why: "Por que este?",
        link_cpu: "o link pede o backend de CPU",
        link_ndarray_missing: "o link pede burn-ndarray, que a página não inclui (a CLI inclui); em seu lugar, o backend de CPU burn-flex",
        link_ndarray: "o link pede burn-ndarray",
        software_fallback: |name| {
            format!(
                "o WebGPU aqui é só uma reserva em software ({name}), que roda no mesmo processador que o backend de CPU e mais devagar (~10× na nossa máquina de testes), por isso não é medido; measure=1 no link mede os dois, backend=webgpu o usa mesmo assim"
            )
        },
        measuring: "Medindo o que treina mais rápido aqui, WebGPU ou a CPU: alguns passos de treino em cada um…",
        measured: |gpu, gpu_workers, cpu, cpu_workers, on_gpu| {
            let pick = if on_gpu { "WebGPU" } else { "a CPU" };
            format!(
                "medido aqui: WebGPU {gpu} amostras/s, CPU {cpu} amostras/s (o ritmo de um worker vezes os de uma execução: {gpu_workers} e {cpu_workers}), por isso treina em {pick}"
            )
        },
        measured_earlier: "(medido antes nesta sessão)",
        webgpu_unmeasured: |why| format!("não foi possível medir o WebGPU ({why}), por isso a CPU"),
        cpu_unmeasured: |why| format!("não foi possível medir a CPU ({why}), por isso o WebGPU"),
        no_answer: |s| format!("sem resposta em {s} s"),
        no_webgpu: "este navegador não tem WebGPU (navigator.gpu não existe)",
        no_request_adapter: "navigator.gpu.requestAdapter não é uma função",
        no_promise: "requestAdapter não devolveu uma promise",
        no_adapter: "o WebGPU não deu nenhum adaptador (requestAdapter() devolveu null)",
        adapter_error: |e| format!("requestAdapter falhou: {e}"),
        webgpu_failed: |e| format!("o WebGPU não pôde iniciar ({e})"),
        notices: "Algumas configurações não foram usadas como dadas:",
        dismiss: "Fechar",
    },
    progress: Progress {
        label: "progresso",
        bar_label: "progresso do experimento",
        ready: "Pronto. Clique em Executar.",
        starting: "Iniciando…",
        loading: |file| format!("Carregando {file}"),
        of_mb: |got, total, pct| format!("{got} de {total} MB ({pct})"),
        unpacking: |file, mb| format!("Descompactando {file} ({mb} MB)…"),
        samples_per_s: "amostras/s",
        eta: |s| format!("faltam {s} s"),
        benchmarking: "Medindo o desempenho (veja o teste de desempenho abaixo)…",
        done_in: |s, rate| format!("concluído em {s} s ({rate} amostras/s)"),
        cancelled_at: |pct, s| {
            format!("Cancelado em {pct} depois de {s} s; o que foi medido fica abaixo.")
        },
        error: |e| format!("Erro: {e}"),
        say_training: |pct| format!("Treinando: {pct} concluído."),
        say_benchmarking: "Medindo o desempenho.",
        say_done: |s| {
            format!("Concluído em {s} s. Os gráficos e as tabelas abaixo mostram os resultados.")
        },
        say_cancelled: "Cancelado. O que foi medido fica guardado.",
        retry: "Tentar de novo",
        ask_label: "Iniciar esta execução?",
        start_it: "Iniciar",
        not_now: "Agora não",
        not_every_model: "Nem todo modelo terminou:",
        attack: "ataque",
        export_json: "Exportar relatório (JSON)",
        export_csv: "Exportar curvas (CSV)",
    },
    doing: Doing {
        attacking: "executando os ataques de inferência de pertencimento",
        done: "concluído",
        training: |models| format!("treinando {models}"),
        and: " e ",
        shadows: |c| {
            format!(
                "modelos-sombra: {} de {} concluídos ({} por modelo), {} treinando",
                c.done, c.all, c.per_model, c.running
            )
        },
        waiting: "esperando um worker",
        workers: |n| format!("({n} workers em paralelo)"),
        phases: |targets, shadows, attack| {
            format!("treinamento {targets} s, {shadows}, ataque {attack} s")
        },
        shadows_s: |s| format!("modelos-sombra {s} s"),
        shadows_alongside: "modelos-sombra em paralelo",
    },
    failure: Failure {
        dataset: |e| format!("Não foi possível carregar o conjunto de dados: {e}"),
        ood_dataset: |e| format!("Não foi possível carregar o conjunto de dados OOD: {e}"),
        kept: |e| format!("{e}; o que foi medido até então fica abaixo"),
        gpu_lost: |why| {
            format!(
                "o dispositivo GPU foi perdido durante a execução ({why}); o que foi medido fica abaixo, e a próxima execução usa a CPU"
            )
        },
        errors: |n| {
            if n == 1 {
                "a execução terminou com 1 erro, listado abaixo; o que foi medido fica guardado"
                    .to_string()
            } else {
                format!(
                    "a execução terminou com {n} erros, listados abaixo; o que foi medido fica guardado"
                )
            }
        },
        loss_diverged: |value, epoch, step| {
            format!(
                "o treinamento parou: a perda chegou a {value} na época {epoch}, passo {step}; tente uma taxa de aprendizado menor"
            )
        },
        backend_failed: |e| format!("o treinamento parou: o backend falhou: {e}"),
        job_before_data: "uma tarefa antes dos dados",
        attack_before_data: "um ataque antes dos dados",
        nothing_to_attack: "nada a atacar",
        jobs_missing: |n, key| match key {
            Some(key) => format!("{n} tarefa(s) ainda sem resultado (p. ex., a chave {key})"),
            None => format!("{n} tarefa(s) ainda sem resultado"),
        },
        not_a_target: |key| format!("a tarefa {key} não é de um modelo-alvo"),
        worker_failed: |e| format!("um worker de treinamento falhou: {e}"),
        worker_script: "o script do worker não pôde ser carregado ou executado",
        worker_panicked: |e| format!("um worker de treinamento entrou em pânico: {e}"),
        worker_start: |e| format!("não foi possível criar um Web Worker: {e}"),
        worker_started: |e| format!("não foi possível pôr um Web Worker em marcha: {e}"),
        no_document: "sem documento",
        no_module: "a página não indica seu módulo (falta o link modulepreload)",
        unreadable: |m| format!("um worker enviou uma mensagem que a página não consegue ler: {m}"),
        data_not_sent: |e| format!("não foi possível enviar os dados a um worker: {e}"),
        task_not_sent: |e| format!("não foi possível enviar uma tarefa a um worker: {e}"),
        stuck: "a execução ainda tem tarefas, mas nenhuma pode começar (um bug)",
        not_serialized: |e| format!("uma mensagem não pôde ser serializada: {e}"),
        not_text: "uma mensagem que não é texto",
        worker_unreadable: |e| format!("uma mensagem que o worker não consegue ler: {e}"),
        no_images: "os dados vieram sem as imagens",
        images_mismatch: "as imagens dos dados não batem com os rótulos",
    },
    load: Load {
        not_a_response: "não é uma resposta",
        broke_off: |e| format!("o download foi interrompido ({e})"),
        too_big: |mb| format!("mais de {mb} MB, grande demais para um conjunto de dados"),
        not_bytes: "um pedaço que não é de bytes",
        not_gzip: |e| format!("não é um gzip válido ({e})"),
        inflates_too_big: |mb| {
            format!("descompactado passa de {mb} MB, grande demais para um conjunto de dados")
        },
    },
    data: Data {
        train: "treino",
        test: "teste",
        split_sizes: |split, labels, bytes| {
            format!("partição de {split}: {labels} rótulos, mas {bytes} bytes de pixels")
        },
        label_out_of_range: |split, label, classes| {
            format!(
                "partição de {split}: o rótulo {label} está fora do intervalo para {classes} classes"
            )
        },
        classes: |n| format!("{n} classe{}", if n == 1 { "" } else { "s" }),
        shape: |&Shape { size, classes, want, want_classes }| {
            format!("imagens de {size} em {classes}; esperadas de {want} em {want_classes}")
        },
        empty_split: |train, test| {
            format!(
                "{train} imagens de treino e {test} de teste; as duas partições precisam ter alguma"
            )
        },
        neither_gzip_nor_asset: "nem gzip nem um arquivo de dados do Spotlight (número mágico incorreto)",
        bad_gzip: |e| format!("não é um arquivo de dados gzip válido: {e}"),
        not_asset: "não é um arquivo de dados do Spotlight (número mágico incorreto)",
        name_not_utf8: "o nome do conjunto de dados não é UTF-8",
        sizes_overflow: "os tamanhos estouram",
        trailing_bytes: |n| format!("{n} bytes sobrando depois do conjunto de dados"),
        truncated: |needed, at, left| {
            format!(
                "arquivo de dados truncado: eram necessários mais {needed} bytes na posição {at}, restam {left}"
            )
        },
        pool_too_large: |&PoolTooLarge { pool, attack, train, dataset }| {
            let both = if attack { " (membros + não membros para o ataque)" } else { "" };
            format!(
                "train_size: {pool} amostras{both} não cabem nas {train} imagens de treino de {dataset}"
            )
        },
        no_other_dataset: "ood_source: \"other\" precisa do outro conjunto de dados carregado",
        other_size: "ood_source: as imagens do outro conjunto de dados são de outro tamanho",
        canary_size: |drawing, image| {
            format!("canary: um desenho tem {drawing} pixels; as imagens deste conjunto, {image}")
        },
        no_clean_member: "canary: não há nenhum membro limpo para substituir",
    },
    bench: Bench {
        title: "Teste de desempenho",
        teach_before: "Quão rápido este navegador treina: amostras por segundo em passos de treinamento (propagação para frente, \
                       para trás e um passo do otimizador, com o tamanho de lote dos controles) para cada modelo em cada backend \
                       que a página tem — WebGPU quando funciona, e o backend de CPU (burn-flex) em WebAssembly — e, a partir \
                       disso, quanto levaria uma época completa do MNIST (60.000 imagens). Depois mede a comparação dos \
                       controles, ataque incluído, no backend da página. Abra um link com ",
        teach_after: " para executá-lo na hora.",
        run: "Executar o teste de desempenho",
        export: "Exportar o teste de desempenho (JSON)",
        headers: [
            "backend de cálculo",
            "modelo",
            "lote",
            "amostras de treino/s",
            "uma época do MNIST",
            "trabalho de WebGPU por passo",
        ],
        gpu_work: |d, s, r| format!("{d} lançamentos, {s} envios, {r} leituras"),
        needs_mnist: "O teste de desempenho precisa do MNIST, que não pôde ser carregado; execute-o de novo para tentar outra vez.",
        timing: |model, backend| format!("Medindo {model} em {backend}…"),
        timing_comparison: |backend| format!("Medindo a comparação dos controles em {backend}…"),
        timing_shadows: |backend| {
            format!(
                "Medindo modelos sombra em {backend}, um a um e depois empilhados numa só rede…"
            )
        },
        shadows_caption: |models, members, batch| {
            format!(
                "Modelos sombra, {models} de uns {members} membros cada (2 épocas, lote {batch}, imagens de ruído), treinados um a um como uma execução os treina, ou empilhados numa só rede (um lançamento de kernel serve a todos); com as pontuações do conjunto:"
            )
        },
        shadows_headers: [
            "backend de cálculo",
            "modelo",
            "um a um, amostras/s",
            "empilhados, amostras/s",
            "empilhados ÷ um a um",
            "despachos WebGPU por amostra",
        ],
        done: "Concluído.",
        unfinished: |how| {
            format!("A comparação não terminou ({how}); seu tempo vai até onde ela parou.")
        },
        cancelled: "cancelada",
        failed: |e| format!("erro: {e}"),
        load_failed: |e| format!("erro ao carregar: {e}"),
        comparison: |&Comparison { samples, epochs, shadows, backend }| {
            format!(
                "A comparação ({samples} amostras de treino, {epochs} épocas, {shadows} modelos-sombra) em {backend}"
            )
        },
        in_workers: |n| format!(" em {n} threads à parte do navegador"),
        on_page: " na thread da página",
        in_all: |s| format!(": {s} s no total"),
        stopped_early: " (parou antes do fim)",
        flipped_gap: |p| {
            format!(
                " O que mostrou: acurácia nos rótulos trocados no fim, BN − sem BN, {p} pontos."
            )
        },
    },
    crash: Crash {
        heading: "O Spotlight travou — recarregue a página.",
        explain: "Algo dentro do app falhou e ele não pode continuar. Suas configurações estão no endereço; o que esta execução \
                  mediu se perdeu.",
        reload: "Recarregar a página",
        uncaught: "um erro não capturado",
        leave: "Há uma execução em andamento; sair da página a perde.",
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Lang;

    #[test]
    fn an_estimate_is_rounded_and_said_in_each_language() {
        assert_eq!(About::of(0.4), About::Seconds(5));
        assert_eq!(About::of(31.0), About::Seconds(30));
        assert_eq!(About::of(33.0), About::Seconds(35));
        assert_eq!(About::of(89.0), About::Seconds(90));
        assert_eq!(About::of(150.0), About::Minutes(3));
        for lang in Lang::ALL {
            let b = &lang.texts().status.banner;
            assert!((b.estimate)(About::of(31.0)).contains("30 s"), "{lang:?}");
            assert!((b.estimate)(About::of(150.0)).contains("3 min"), "{lang:?}");
        }
    }
}
