//! `spotlight`: Spotlight's experiments, headless. Argument parsing and files only; every
//! experiment step is spotlight-core's.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, CommandFactory, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use spotlight_core::backend::{BackendName, native_device};
use spotlight_core::bench::PhaseTimes;
use spotlight_core::config::DatasetName;
use spotlight_core::data::Dataset;
use spotlight_core::experiment_data::ExperimentData;
use spotlight_core::report::{Report, RunError, median};
use spotlight_core::theory::{self, Optimizer, TheoryConfig};
use spotlight_core::{Config, link, paper};
use spotlight_core::{Variant, local, threads};
use spotlight_i18n::{Lang, say};

mod bench;
mod grid;

const AFTER_HELP: &str = "\
Backends: ndarray, flex (also spelled cpu), wgpu (also webgpu; needs the `wgpu` feature), as in links.
Reports are JSON (spotlight-core's Report). Exit code 2: bad arguments, config or link.";

const PAPER_NOTES: &str = "\
Every model (target or shadow) is a job, written to OUT/jobs/KEY.json when it finishes and never run
again; --shard I/N runs the jobs whose index is I mod N (0-based), --jobs J runs J shards as child
processes and merges, --merge DIR only builds the table from DIR's jobs.";

/// Spotlight's experiments, headless.
#[derive(Parser)]
#[command(name = "spotlight", after_help = AFTER_HELP, arg_required_else_help = true)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Runs one experiment from a config file or an app share link and writes its report.
    Run(RunArgs),
    /// The paper's claims: a grid of experiments, as jobs that can be sharded, resumed and merged.
    #[command(after_help = PAPER_NOTES)]
    Paper(PaperArgs),
    /// Train-step throughput per backend and batch size, beside PyTorch on CPU.
    Bench(bench::BenchArgs),
    /// The theory lab: the paper's analysis model (a linear filter with and without BN) on a toy
    /// set with one mislabeled outlier; the (γ/σ)² factor, predicted and measured, step by step.
    Theory(TheoryArgs),
    /// Prints a shell completion script to stdout.
    Completions {
        /// The shell to complete for.
        shell: clap_complete::Shell,
    },
}

#[derive(Args)]
struct RunArgs {
    #[command(flatten)]
    source: Source,
    /// The backend to run on: flex (or cpu; burn-flex with Spotlight's kernels, the fast one), ndarray,
    /// wgpu (or webgpu).
    #[arg(long, value_name = "BACKEND", default_value = "flex", value_parser = parse_backend)]
    backend: BackendName,
    /// Where the report (JSON) is written.
    #[arg(long, value_name = "FILE", default_value = "spotlight-report.json")]
    out: PathBuf,
    /// Where the dataset assets (*.spds.gz) are.
    #[arg(long, value_name = "DIR", default_value = "public/data")]
    data_dir: PathBuf,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Also writes a compact copy of the report (no images, ROC curves thinned), the page's
    /// "measured earlier" lenses before its first run (results/default-cpu.json).
    #[arg(long, value_name = "FILE")]
    preview: Option<PathBuf>,
}

/// What `run` runs: exactly one of a config file and a link.
#[derive(Args)]
#[group(required = true, multiple = false)]
struct Source {
    /// A config file (JSON, spotlight-core's Config).
    #[arg(long, value_name = "FILE.json")]
    config: Option<PathBuf>,
    /// The query string of an app share link (with or without the leading '?').
    #[arg(long, value_name = "QUERY")]
    link: Option<String>,
}

#[derive(Args)]
struct PaperArgs {
    /// Shorthand for --size quick.
    #[arg(long)]
    quick: bool,
    /// The grid's size: quick (CI), mid or full (the paper's) [default: full, or quick with --quick].
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    size: Option<paper::Size>,
    /// How many seeds, 1 to 100 [default: 1 for full, else 3].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100))]
    seeds: Option<u64>,
    /// The first seed; the seeds are FIRST, FIRST+1, ….
    #[arg(long, value_name = "FIRST", default_value_t = 1)]
    seed: u64,
    /// The backend to run on: flex (or cpu; burn-flex with Spotlight's kernels, the fast one), ndarray,
    /// wgpu (or webgpu).
    #[arg(long, value_name = "BACKEND", default_value = "flex", value_parser = parse_backend)]
    backend: BackendName,
    /// Where jobs/, reports/ and the table are written.
    #[arg(long, value_name = "DIR", default_value = ".")]
    out_dir: PathBuf,
    /// Runs only the jobs whose index is I mod N (0-based, 0 ≤ I < N).
    #[arg(long, value_name = "I/N", value_parser = parse_shard, conflicts_with_all = ["jobs", "merge"])]
    shard: Option<Shard>,
    /// Runs J shards as child processes (at most 64), then merges.
    #[arg(long, value_name = "J", conflicts_with = "merge")]
    jobs: Option<u64>,
    /// Only builds the table from DIR's jobs (DIR is also the output directory).
    #[arg(long, value_name = "DIR")]
    merge: Option<PathBuf>,
    /// Where the dataset assets (*.spds.gz) are.
    #[arg(long, value_name = "DIR", default_value = "public/data")]
    data_dir: PathBuf,
    /// No per-job lines.
    #[arg(long)]
    quiet: bool,
}

/// `theory`'s options; each one left out keeps spotlight-core's default (TheoryConfig).
#[derive(Args)]
struct TheoryArgs {
    /// Training steps [default: 200].
    #[arg(long, value_name = "N")]
    steps: Option<usize>,
    /// The learning rate [default: 0.1 for sgd, 0.01 for adam].
    #[arg(long, value_name = "X")]
    lr: Option<f64>,
    /// Samples per batch [default: 8].
    #[arg(long, value_name = "B")]
    batch_size: Option<usize>,
    /// The optimizer of both models: sgd or adam [default: sgd].
    #[arg(long, value_name = "OPT", value_parser = parse_optimizer)]
    optimizer: Option<Optimizer>,
    /// Keeps BN's γ at 1 (cuts the feedback loop).
    #[arg(long)]
    freeze_gamma: bool,
    /// Trains without the outlier (it is still read out, as a held-out point).
    #[arg(long)]
    no_outlier: bool,
    /// The seed of the data, the initialization and the batch order [default: 1].
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// The outlier's x in the signal plane (with --outlier-y) [default: -0.9].
    #[arg(long, value_name = "X", requires = "outlier_y", allow_negative_numbers = true)]
    outlier_x: Option<f64>,
    /// The outlier's y in the signal plane (with --outlier-x) [default: 0.2].
    #[arg(long, value_name = "Y", requires = "outlier_x", allow_negative_numbers = true)]
    outlier_y: Option<f64>,
    /// Shows every K-th measured step in the table.
    #[arg(
        long,
        value_name = "K",
        default_value_t = 1,
        value_parser = clap::value_parser!(u64).range(1..=1_000_000)
    )]
    every: u64,
    /// Also writes the report (JSON, spotlight-core's TheoryReport) to FILE.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
}

fn parse_optimizer(s: &str) -> Result<Optimizer, String> {
    Optimizer::parse(s).ok_or_else(|| "allowed: sgd, adam".into())
}

/// An error with its exit code.
pub struct Fail(pub u8, pub String);

/// `--backend`'s and `--backends`' values, as links spell them.
pub fn parse_backend(s: &str) -> Result<BackendName, String> {
    BackendName::parse(s.trim()).map_err(|e| say::notice::read_error(Lang::En, &e))
}

fn parse_size(s: &str) -> Result<paper::Size, String> {
    paper::Size::parse(s).ok_or_else(|| "allowed: quick, mid, full".into())
}

/// Shard `i` of `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shard {
    i: usize,
    n: usize,
}

/// `I/N`, 0 ≤ I < N.
fn parse_shard(s: &str) -> Result<Shard, String> {
    let bad = || "not I/N with 0 ≤ I < N".to_string();
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) =
        (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok(Shard { i, n })
}

fn main() -> ExitCode {
    if std::env::args_os().len() <= 1 {
        // No command: the help on stdout, exit code 2 (clap alone would print it on stderr).
        print!("{}", Cli::command().render_help());
        return ExitCode::from(2);
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Cmd::Run(a) => cmd_run(a),
        Cmd::Paper(a) => grid::cmd_paper(a),
        Cmd::Bench(a) => bench::cmd_bench(a),
        Cmd::Theory(a) => cmd_theory(a),
        Cmd::Completions { shell } => {
            clap_complete::generate(
                shell,
                &mut Cli::command(),
                "spotlight",
                &mut std::io::stdout(),
            );
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Fail(code, msg)) => {
            eprintln!("spotlight: {msg}");
            ExitCode::from(code)
        }
    }
}

/// Loads a dataset asset, or says how to make it.
pub fn load_dataset(dir: &Path, name: DatasetName) -> Result<Dataset, Fail> {
    let path = dir.join(name.asset_file());
    let bytes = std::fs::read(&path).map_err(|e| {
        Fail(1, format!("{}: {e}\nthe datasets are made by `./x.sh datasets` (npm ci in datasets/, then prepare-data)", path.display()))
    })?;
    name.decode(&path.display().to_string(), &bytes)
        .map_err(|e| Fail(1, say::data::data_error(Lang::En, &e)))
}

fn progress_bar(total: usize, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(total as u64);
    pb.set_style(
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} steps  {msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    pb
}

/// Runs one experiment with a progress bar: its report and its wall time by phase.
pub fn run_experiment(
    config: &Config,
    data_dir: &Path,
    backend: BackendName,
    quiet: bool,
    prefix: &str,
) -> Result<(Report, PhaseTimes), Fail> {
    let ds = load_dataset(data_dir, config.dataset)?;
    let other = if config.ood_fraction > 0.0
        && config.ood_source == spotlight_core::config::OodSourceName::Other
    {
        Some(load_dataset(data_dir, config.dataset.other())?)
    } else {
        None
    };
    let (device, name) = native_device(backend).map_err(|e| Fail(1, e))?;
    let data = ExperimentData::build(config, &ds, other.as_ref())
        .map_err(|e| Fail(2, say::data::build_error(Lang::En, &e)))?;
    let pb = progress_bar(0, quiet);
    pb.set_prefix(prefix.to_string());
    let start = Instant::now();
    let clock = || start.elapsed().as_secs_f64();
    let batch = config.batch_size as f64;
    let (_, times, report) = threads::on_pool(|| {
        pollster::block_on(local::run_here(
            config,
            &data,
            &device,
            &name,
            spotlight_core::shadows::stack_size(backend == BackendName::Wgpu),
            &clock,
            &|| false,
            |b, _| {
                let elapsed = clock();
                let fraction = b.fraction();
                pb.set_length(b.steps_total() as u64);
                pb.set_position(b.steps_done() as u64);
                pb.set_message(format!(
                    "{:.0} samples/s  ETA {:.0} s  {}",
                    b.steps_done() as f64 * batch / elapsed.max(1e-3),
                    if fraction > 0.0 { elapsed * (1.0 - fraction) / fraction } else { 0.0 },
                    say::run::doing(Lang::En, &b.doing(), 0)
                ));
            },
        ))
    });
    pb.finish_and_clear();
    Ok((report, times))
}

/// Why a model's training or its attack stopped, in the CLI's output: the page's words, in English.
pub fn run_error(e: &RunError) -> String {
    say::run::run_error(&Lang::En.texts().status, e)
}

/// A model's name in the CLI's output: the page's, in English ("BN", "no-BN", "BN + γ/σ reg").
pub fn model_name(v: Variant) -> &'static str {
    Lang::En.texts().charts.models.of(v)
}

fn pct(x: Option<f64>) -> String {
    x.map_or("—".into(), |v| format!("{:.1}%", 100.0 * v))
}

/// A human summary of a report.
pub fn summary(r: &Report) -> String {
    let mut s = format!(
        "{:?}, label noise {:.1}%, OOD {:.1}%, {} train samples, {} epochs, backend {}\n",
        r.config.dataset,
        100.0 * r.config.label_noise,
        100.0 * r.config.ood_fraction,
        r.config.train_size,
        r.config.epochs,
        r.backend
    );
    for run in &r.runs {
        let name = model_name(r.variant(run));
        s.push_str(&format!("  {name}:\n"));
        if let Some(e) = &run.error {
            s.push_str(&format!("    stopped: {}\n", run_error(e)));
        }
        if let Some(last) = run.last() {
            s.push_str(&format!(
                "    epoch {}: loss {:.3}, flipped acc {}, clean acc {}, OOD acc {}, test acc {}\n",
                last.epoch,
                last.train_loss,
                pct(last.acc_flipped),
                pct(last.acc_clean),
                pct(last.acc_ood),
                pct(Some(last.acc_test))
            ));
            if let Some(m) = &last.mechanism {
                for (what, g) in
                    [("the run's optimizer", &m.influence_run), ("plain SGD", &m.influence_sgd)]
                {
                    if let (Some(n), Some(c)) = (median(&g.noisy), median(&g.clean)) {
                        s.push_str(&format!(
                            "    one step's push on a probe's own margin ({what}, per unit lr), median: noisy {n:.3}, clean {c:.3}\n"
                        ));
                    }
                }
                if let Some(a) = m.scaled_grad.noisy_above_clean() {
                    s.push_str(&format!(
                        "    scale-free gradient per unit error, noisy above clean: AUC {a:.3}\n"
                    ));
                }
            }
            if !last.gamma_sigma.is_empty() {
                let init = run.initial().map(|e| e.gamma_sigma.clone()).unwrap_or_default();
                let gs: Vec<String> = last
                    .gamma_sigma
                    .iter()
                    .enumerate()
                    .map(|(l, g)| match init.get(l) {
                        Some(i) => format!(
                            "{} {:.2} (init {:.2})",
                            g.layer, g.batch_median, i.batch_median
                        ),
                        None => format!("{} {:.2}", g.layer, g.batch_median),
                    })
                    .collect();
                s.push_str(&format!("    median γ/σ (batch σ): {}\n", gs.join(", ")));
            }
        }
        if let Some(a) = &run.attack {
            s.push_str(&format!(
                "    attack ({} shadows): LiRA AUC {:.3}, TPR@1%FPR {:.3}; offline AUC {:.3}; loss-threshold AUC {:.3}\n",
                a.shadow_models,
                a.lira_online.auc,
                a.lira_online.tpr_at(0.01).unwrap_or(0.0),
                a.lira_offline.auc,
                a.loss.auc
            ));
            if a.non_members >= spotlight_core::attack::TPR_01_MIN_NON_MEMBERS {
                s.push_str(&format!(
                    "    TPR@0.1%FPR {:.3}\n",
                    a.lira_online.tpr_at(0.001).unwrap_or(0.0)
                ));
            }
            // What more shadows buy: the attack redone on the first k of them.
            if let Some(b) = &a.budget {
                for (online, name) in [(true, "online"), (false, "offline")] {
                    for (variance, vname) in [
                        (spotlight_core::attack::Variance::Global, "fixed"),
                        (spotlight_core::attack::Variance::PerSample, "per-sample"),
                    ] {
                        let pts: Vec<String> = b
                            .series(online, variance)
                            .iter()
                            .map(|p| format!("{}: {:.3}/{:.3}", p.shadows, p.auc, p.tpr_1))
                            .collect();
                        s.push_str(&format!(
                            "    shadows → AUC/TPR@1%, {name} {vname} variance: {}\n",
                            pts.join("  ")
                        ));
                    }
                }
            }
        }
        if let Some(e) = &run.attack_error {
            s.push_str(&format!("    attack: {}\n", run_error(e)));
        }
        if let Some(c) = run.last().and_then(|e| e.canary.as_ref()) {
            s.push_str(&format!(
                "    canary (planted as {}): predicted {}, p(its label) {:.3}, gradient norm {:.2}",
                r.config.canary_label, c.predicted, c.p_label, c.grad_norm
            ));
            if let Some(a) = run.attack.as_ref().and_then(|a| a.canary.as_ref()) {
                s.push_str(&format!(
                    "; attacker's confidence {:.3} (rank {} of {})",
                    a.confidence, a.rank, a.candidates
                ));
            }
            s.push('\n');
        }
    }
    s
}

fn cmd_run(args: RunArgs) -> Result<(), Fail> {
    let RunArgs { source, backend, out, data_dir: dir, quiet, preview } = args;
    let config = match (source.config, source.link) {
        (Some(f), None) => {
            let text = read_config_file(&f)?;
            Config::from_json(&text).map_err(|e| {
                Fail(2, format!("{}: {}", f.display(), say::notice::config_error(Lang::En, &e)))
            })?
        }
        (None, Some(q)) => {
            link::parse_strict(&q)
                .map_err(|e| Fail(2, format!("link: {}", say::notice::strict_error(Lang::En, &e))))?
                .config
        }
        _ => unreachable!("clap's group: exactly one of --config and --link"),
    };
    let started = Instant::now();
    let (report, times) = run_experiment(&config, &dir, backend, quiet, "run")?;
    write_atomic(&out, &report.to_json())?;
    if let Some(p) = &preview {
        write_atomic(
            p,
            &serde_json::to_string(&report.preview()).expect("a Report always serializes"),
        )?;
    }
    print!("{}", summary(&report));
    let wall = started.elapsed().as_secs_f64();
    println!(
        "wall time {wall:.1} s: {:.1} s to load the data and start, then {}; report written to {}",
        wall - times.total_s,
        say::run::phases(Lang::En, &times),
        out.display()
    );
    let failed = say::run::failures(Lang::En, &report);
    if !failed.is_empty() {
        return Err(Fail(
            1,
            format!(
                "the run did not complete (the report keeps what was measured):\n  {}",
                failed.join("\n  ")
            ),
        ));
    }
    Ok(())
}

/// The config of `theory`'s options.
fn theory_config(a: &TheoryArgs) -> TheoryConfig {
    let mut c = TheoryConfig::default();
    if let Some(o) = a.optimizer {
        c = c.with_optimizer(o);
    }
    c.lr = a.lr.unwrap_or(c.lr);
    c.steps = a.steps.unwrap_or(c.steps);
    c.batch_size = a.batch_size.unwrap_or(c.batch_size);
    c.seed = a.seed.unwrap_or(c.seed);
    c.outlier_x = a.outlier_x.unwrap_or(c.outlier_x);
    c.outlier_y = a.outlier_y.unwrap_or(c.outlier_y);
    c.freeze_gamma = a.freeze_gamma;
    c.outlier = !a.no_outlier;
    c
}

fn cmd_theory(args: TheoryArgs) -> Result<(), Fail> {
    let report = theory::run(&theory_config(&args))
        .map_err(|e| Fail(2, say::notice::theory_error(Lang::En, &e)))?;
    print!("{}", report.to_table(usize::try_from(args.every).unwrap_or(usize::MAX)));
    if let Some(p) = &args.json {
        write_atomic(p, &report.to_json())?;
        println!("report written to {}", p.display());
    }
    Ok(())
}

/// The largest config file `run --config` reads: a config is well under a kilobyte.
const MAX_CONFIG_BYTES: u64 = 64 * 1024;

/// Reads a config file, refusing one too large to be a config before reading it.
fn read_config_file(f: &Path) -> Result<String, Fail> {
    let len = std::fs::metadata(f).map_err(|e| Fail(2, format!("{}: {e}", f.display())))?.len();
    if len > MAX_CONFIG_BYTES {
        return Err(Fail(
            2,
            format!(
                "{}: {len} bytes, larger than a config can be ({} KiB at most)",
                f.display(),
                MAX_CONFIG_BYTES / 1024
            ),
        ));
    }
    std::fs::read_to_string(f).map_err(|e| Fail(2, format!("{}: {e}", f.display())))
}

/// Writes `contents` to `path` through a temporary file and a rename: a crash never leaves half a file.
pub fn write_atomic(path: &Path, contents: &str) -> Result<(), Fail> {
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, contents).map_err(|e| Fail(1, format!("{}: {e}", tmp.display())))?;
    std::fs::rename(&tmp, path).map_err(|e| Fail(1, format!("{}: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use std::ffi::OsString;

    use super::*;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn a_shards_child_arguments_parse_back() {
        let args = grid::shard_args(
            paper::Size::Mid,
            3,
            7,
            BackendName::Flex,
            Shard { i: 1, n: 4 },
            Path::new("out dir"),
            Path::new("data"),
        );
        let cli = Cli::try_parse_from(std::iter::once(OsString::from("spotlight")).chain(args))
            .unwrap_or_else(|e| panic!("{e}"));
        let Cmd::Paper(p) = cli.command else { panic!("not the paper command") };
        assert_eq!(
            (p.size, p.seeds, p.seed, p.backend),
            (Some(paper::Size::Mid), Some(3), 7, BackendName::Flex)
        );
        assert_eq!(p.shard, Some(Shard { i: 1, n: 4 }));
        assert!(p.quiet && p.jobs.is_none() && p.merge.is_none());
        assert_eq!((p.out_dir, p.data_dir), (PathBuf::from("out dir"), PathBuf::from("data")));
    }

    #[test]
    fn defaults_are_as_documented() {
        let Cmd::Bench(b) = Cli::parse_from(["spotlight", "bench"]).command else {
            panic!("not the bench command")
        };
        assert_eq!(b.batches, [64, 128, 256]);
        assert_eq!(b.steps, 20);
        assert!(b.backends.is_empty() && !b.no_torch, "the backends' default is cmd_bench's");
        let Cmd::Bench(b) = Cli::parse_from([
            "spotlight",
            "bench",
            "--backends",
            "cpu, webgpu",
            "--batches",
            "8,16",
        ])
        .command
        else {
            panic!("not the bench command")
        };
        assert_eq!(
            (b.backends, b.batches),
            (vec![BackendName::Flex, BackendName::Wgpu], vec![8, 16])
        );
        let Cmd::Run(r) = Cli::parse_from(["spotlight", "run", "--link", "epochs=1"]).command
        else {
            panic!("not the run command")
        };
        assert_eq!(
            (r.backend, r.out, r.data_dir),
            (BackendName::Flex, "spotlight-report.json".into(), "public/data".into())
        );
        let Cmd::Paper(p) = Cli::parse_from(["spotlight", "paper"]).command else {
            panic!("not the paper command")
        };
        assert_eq!((p.size, p.seeds, p.seed, p.out_dir), (None, None, 1, PathBuf::from(".")));
        let Cmd::Theory(t) = Cli::parse_from(["spotlight", "theory"]).command else {
            panic!("not the theory command")
        };
        assert_eq!(theory_config(&t), TheoryConfig::default());
        let Cmd::Theory(t) = Cli::parse_from([
            "spotlight",
            "theory",
            "--optimizer",
            "adam",
            "--outlier-x",
            "-1.5",
            "--outlier-y",
            "0",
            "--no-outlier",
        ])
        .command
        else {
            panic!("not the theory command")
        };
        let c = theory_config(&t);
        assert_eq!((c.optimizer, c.lr), (Optimizer::Adam, Optimizer::Adam.default_lr()));
        assert_eq!((c.outlier_x, c.outlier_y, c.outlier), (-1.5, 0.0, false));
        assert!(Cli::try_parse_from(["spotlight", "theory", "--outlier-x", "1"]).is_err());
        assert!(Cli::try_parse_from(["spotlight", "theory", "--optimizer", "rmsprop"]).is_err());
    }
}
