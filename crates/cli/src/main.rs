//! `spotlight`: Spotlight's experiments, headless. Argument parsing and files only; every
//! experiment step is spotlight-core's.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use spotlight_core::backend::{BackendName, native_device};
use spotlight_core::config::DatasetName;
use spotlight_core::data::Dataset;
use spotlight_core::report::{Report, median};
use spotlight_core::{Config, jobs, link, paper};
use spotlight_core::{driver, experiment};

mod bench;

const USAGE: &str = "\
usage:
  spotlight run (--config FILE.json | --link 'QUERY') [--backend ndarray|flex|wgpu] [--out FILE] [--data-dir DIR] [--quiet]
  spotlight paper [--quick | --size quick|mid|full] [--seeds N] [--seed FIRST] [--backend B] [--out-dir DIR]
                  [--shard I/N | --jobs J | --merge DIR] [--data-dir DIR] [--quiet]
  spotlight bench [--backends ndarray,flex,wgpu] [--batches 64,128,256] [--steps N] [--no-torch] [--data-dir DIR]

  --link takes the query string of an app share link (with or without the leading '?').
  Backends: ndarray, flex (also spelled cpu), wgpu (also webgpu; needs the `wgpu` feature), as in links.
  paper: every model (target or shadow) is a job, written to OUT/jobs/KEY.json when it finishes and
  never run again; --shard I/N runs the jobs whose index is I mod N (0-based), --jobs J runs J
  shards as child processes and merges, --merge DIR only builds the table from DIR's jobs.
  Reports are JSON (spotlight-core's Report). Exit code 2: bad arguments, config or link.";

/// An error with its exit code.
pub struct Fail(pub u8, pub String);

fn usage(msg: impl Into<String>) -> Fail {
    Fail(2, format!("{}\n\n{USAGE}", msg.into()))
}

/// Simple `--flag value` arguments.
pub struct Args {
    items: Vec<String>,
}

impl Args {
    fn flag(&mut self, name: &str) -> bool {
        match self.items.iter().position(|a| a == name) {
            Some(i) => {
                self.items.remove(i);
                true
            }
            None => false,
        }
    }

    fn value(&mut self, name: &str) -> Result<Option<String>, Fail> {
        match self.items.iter().position(|a| a == name) {
            Some(i) if i + 1 < self.items.len() => {
                let v = self.items.remove(i + 1);
                self.items.remove(i);
                Ok(Some(v))
            }
            Some(_) => Err(usage(format!("{name} needs a value"))),
            None => Ok(None),
        }
    }

    fn done(self) -> Result<(), Fail> {
        match self.items.first() {
            Some(a) => Err(usage(format!("unknown argument {a:?}"))),
            None => Ok(()),
        }
    }
}

fn main() -> ExitCode {
    let mut items: Vec<String> = std::env::args().skip(1).collect();
    if items.is_empty() || items[0] == "-h" || items[0] == "--help" {
        println!("{USAGE}");
        return if items.is_empty() { ExitCode::from(2) } else { ExitCode::SUCCESS };
    }
    let cmd = items.remove(0);
    let args = Args { items };
    let result = match cmd.as_str() {
        "run" => cmd_run(args),
        "paper" => cmd_paper(args),
        "bench" => bench::cmd_bench(args),
        other => Err(usage(format!("unknown command {other:?}"))),
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
    Dataset::decode(&path.display().to_string(), &bytes).map_err(|e| Fail(1, e.to_string()))
}

fn backend_arg(args: &mut Args) -> Result<BackendName, Fail> {
    match args.value("--backend")? {
        Some(b) => BackendName::parse(&b).map_err(|e| usage(format!("--backend: {b:?} is not a backend; {e}"))),
        None => Ok(BackendName::Ndarray),
    }
}

fn data_dir(args: &mut Args) -> Result<PathBuf, Fail> {
    Ok(args.value("--data-dir")?.map(PathBuf::from).unwrap_or_else(|| PathBuf::from("public/data")))
}

fn progress_bar(total: usize, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(total as u64);
    pb.set_style(
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} steps  {msg}").expect("a valid template").progress_chars("=> "),
    );
    pb
}

/// Runs one experiment with a progress bar.
pub fn run_experiment(config: &Config, data_dir: &Path, backend: BackendName, quiet: bool, prefix: &str) -> Result<Report, Fail> {
    let ds = load_dataset(data_dir, config.dataset)?;
    let other = if config.ood_fraction > 0.0 && config.ood_source == spotlight_core::config::OodSourceName::Other {
        Some(load_dataset(data_dir, config.dataset.other())?)
    } else {
        None
    };
    let (device, name) = native_device(backend).map_err(|e| Fail(1, e))?;
    let mut exp = experiment::Experiment::new(config, &ds, other.as_ref(), &device, &name).map_err(|e| Fail(2, e))?;
    let pb = progress_bar(exp.steps_total(), quiet);
    pb.set_prefix(prefix.to_string());
    let start = Instant::now();
    pollster::block_on(driver::drive(&mut exp, &|| start.elapsed().as_secs_f64(), &|| false, |_, pace| {
        pb.set_position(pace.progress.steps_done as u64);
        pb.set_message(format!("{:.0} samples/s  ETA {:.0} s  {}", pace.samples_per_s, pace.eta_s, pace.progress.describe()));
    }));
    pb.finish_and_clear();
    Ok(exp.report())
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
        let name = r.variant(run).label();
        s.push_str(&format!("  {name}:\n"));
        if let Some(e) = &run.error {
            s.push_str(&format!("    stopped: {e}\n"));
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
            if let (Some(n), Some(c)) = (median(&last.grad_norms.noisy), median(&last.grad_norms.clean)) {
                s.push_str(&format!("    median per-sample grad norm (in a batch), last epoch: noisy {n:.3}, clean {c:.3}\n"));
            }
            if let Some(g) = run.grad_norm_summary() {
                s.push_str(&format!(
                    "    the same, mean over epochs: noisy {:.3}, clean {:.3} (noisy/clean {:.2})\n",
                    g.noisy,
                    g.clean,
                    g.ratio()
                ));
            }
            if !last.gamma_sigma.is_empty() {
                let init = run.initial().map(|e| e.gamma_sigma.clone()).unwrap_or_default();
                let gs: Vec<String> = last
                    .gamma_sigma
                    .iter()
                    .enumerate()
                    .map(|(l, g)| match init.get(l) {
                        Some(i) => format!("{} {:.2} (init {:.2})", g.layer, g.batch_median, i.batch_median),
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
        }
        if let Some(e) = &run.attack_error {
            s.push_str(&format!("    attack: {e}\n"));
        }
    }
    s
}

fn cmd_run(mut args: Args) -> Result<(), Fail> {
    let config_file = args.value("--config")?;
    let link_q = args.value("--link")?;
    let backend = backend_arg(&mut args)?;
    let out = args.value("--out")?.map(PathBuf::from).unwrap_or_else(|| PathBuf::from("spotlight-report.json"));
    let dir = data_dir(&mut args)?;
    let quiet = args.flag("--quiet");
    args.done()?;
    let config = match (config_file, link_q) {
        (Some(f), None) => {
            let text = std::fs::read_to_string(&f).map_err(|e| Fail(2, format!("{f}: {e}")))?;
            Config::from_json(&text).map_err(|e| Fail(2, format!("{f}: {e}")))?
        }
        (None, Some(q)) => link::parse_strict(&q).map_err(|e| Fail(2, format!("link: {e}")))?.config,
        _ => return Err(usage("run needs exactly one of --config FILE or --link QUERY")),
    };
    let started = Instant::now();
    let report = run_experiment(&config, &dir, backend, quiet, "run")?;
    write_atomic(&out, &report.to_json())?;
    print!("{}", summary(&report));
    println!("wall time {:.1} s; report written to {}", started.elapsed().as_secs_f64(), out.display());
    Ok(())
}

fn cmd_paper(mut args: Args) -> Result<(), Fail> {
    let quick = args.flag("--quick");
    let size = match args.value("--size")? {
        Some(s) => paper::Size::parse(&s).ok_or_else(|| usage(format!("--size: {s:?} is not quick, mid or full")))?,
        None if quick => paper::Size::Quick,
        None => paper::Size::Full,
    };
    let backend = backend_arg(&mut args)?;
    let whole = |name: &str, v: Option<String>| -> Result<Option<u64>, Fail> {
        v.map(|s| s.parse::<u64>().map_err(|_| usage(format!("{name}: {s:?} is not a whole number")))).transpose()
    };
    let first_seed = whole("--seed", args.value("--seed")?)?.unwrap_or(1);
    let n_seeds = whole("--seeds", args.value("--seeds")?)?.unwrap_or(if size == paper::Size::Full { 1 } else { 3 });
    if n_seeds == 0 || n_seeds > 100 {
        return Err(usage(format!("--seeds: {n_seeds} is out of range; allowed 1 to 100")));
    }
    let shard = match args.value("--shard")? {
        Some(s) => Some(parse_shard(&s)?),
        None => None,
    };
    let jobs = whole("--jobs", args.value("--jobs")?)?;
    let merge = args.value("--merge")?.map(PathBuf::from);
    let out_dir = merge.clone().or(args.value("--out-dir")?.map(PathBuf::from)).unwrap_or_else(|| PathBuf::from("."));
    let dir = data_dir(&mut args)?;
    let quiet = args.flag("--quiet");
    args.done()?;
    if [shard.is_some(), jobs.is_some(), merge.is_some()].iter().filter(|&&x| x).count() > 1 {
        return Err(usage("--shard, --jobs and --merge exclude each other"));
    }
    let seeds: Vec<u64> = (0..n_seeds).map(|i| first_seed + i).collect();
    let grid = paper::grid(size, &seeds);
    let all_jobs = grid_jobs(&grid);
    let store = out_dir.join("jobs");
    std::fs::create_dir_all(&store).map_err(|e| Fail(1, format!("{}: {e}", store.display())))?;
    let started = Instant::now();
    match (shard, jobs, &merge) {
        (Some((i, n)), _, _) => {
            run_jobs(&all_jobs, i, n, &store, &dir, backend, quiet)?;
            return Ok(());
        }
        (None, Some(j), _) => {
            let j = j.clamp(1, 64);
            let exe = std::env::current_exe().map_err(|e| Fail(1, e.to_string()))?;
            let mut children = Vec::new();
            for i in 0..j {
                let mut c = std::process::Command::new(&exe);
                c.args(["paper", "--size", size.name(), "--seeds", &n_seeds.to_string(), "--seed", &first_seed.to_string()]);
                c.args(["--backend", backend.as_str(), "--shard", &format!("{i}/{j}"), "--quiet"]);
                c.arg("--out-dir").arg(&out_dir).arg("--data-dir").arg(&dir);
                children.push(c.spawn().map_err(|e| Fail(1, format!("starting shard {i}/{j}: {e}")))?);
            }
            let mut failed = Vec::new();
            for (i, mut ch) in children.into_iter().enumerate() {
                let ok = ch.wait().map(|s| s.success()).unwrap_or(false);
                if !ok {
                    failed.push(i);
                }
            }
            if !failed.is_empty() {
                return Err(Fail(1, format!("shards {failed:?} of {j} failed; their finished jobs are kept in {}", store.display())));
            }
        }
        (None, None, Some(_)) => {}
        (None, None, None) => run_jobs(&all_jobs, 0, 1, &store, &dir, backend, quiet)?,
    }
    merge_grid(&grid, size, &store, &out_dir, &dir, started)
}

/// `I/N`, 0 ≤ I < N.
fn parse_shard(s: &str) -> Result<(usize, usize), Fail> {
    let bad = || usage(format!("--shard: {s:?} is not I/N with 0 ≤ I < N"));
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// Every job of the grid, each once, in a fixed order.
fn grid_jobs(grid: &[Config]) -> Vec<jobs::Job> {
    let mut seen = std::collections::HashSet::new();
    grid.iter().flat_map(jobs::jobs_of).filter(|j| seen.insert(j.key())).collect()
}

fn job_path(store: &Path, key: &str) -> PathBuf {
    store.join(format!("{key}.json"))
}

fn read_job(store: &Path, key: &str) -> Option<jobs::JobResult> {
    let text = std::fs::read_to_string(job_path(store, key)).ok()?;
    serde_json::from_str::<jobs::JobResult>(&text).ok().filter(|r| r.key == key)
}

/// Writes `contents` to `path` through a temporary file and a rename: a crash never leaves half a file.
pub fn write_atomic(path: &Path, contents: &str) -> Result<(), Fail> {
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, contents).map_err(|e| Fail(1, format!("{}: {e}", tmp.display())))?;
    std::fs::rename(&tmp, path).map_err(|e| Fail(1, format!("{}: {e}", path.display())))
}

/// Runs the jobs of shard `i` of `n` that have no result in `store` yet.
fn run_jobs(all: &[jobs::Job], i: usize, n: usize, store: &Path, data_dir: &Path, backend: BackendName, quiet: bool) -> Result<(), Fail> {
    let mine: Vec<&jobs::Job> = all.iter().enumerate().filter(|(k, _)| k % n == i).map(|(_, j)| j).collect();
    let todo: Vec<&jobs::Job> = mine.iter().copied().filter(|j| read_job(store, &j.key()).is_none()).collect();
    eprintln!("shard {i}/{n}: {} jobs, {} already done, {} to run", mine.len(), mine.len() - todo.len(), todo.len());
    let (device, name) = native_device(backend).map_err(|e| Fail(1, e))?;
    let mut cache: Option<(DatasetName, Dataset)> = None;
    let clock = Instant::now();
    for (k, job) in todo.iter().enumerate() {
        if cache.as_ref().is_none_or(|(d, _)| *d != job.config.dataset) {
            cache = Some((job.config.dataset, load_dataset(data_dir, job.config.dataset)?));
        }
        let ds = &cache.as_ref().expect("just set").1;
        let other = needs_other(&job.config).then(|| load_dataset(data_dir, job.config.dataset.other())).transpose()?;
        let t = Instant::now();
        let result = pollster::block_on(jobs::run_job(job, ds, other.as_ref(), &device, &name, || clock.elapsed().as_secs_f64()))
            .map_err(|e| Fail(1, format!("{}: {e}", job.describe())))?;
        write_atomic(&job_path(store, &result.key), &serde_json::to_string(&result).expect("serializable"))?;
        if !quiet {
            eprintln!("  [{}/{}] {} ({:.1} s)", k + 1, todo.len(), job.describe(), t.elapsed().as_secs_f64());
        }
    }
    Ok(())
}

fn needs_other(c: &Config) -> bool {
    c.ood_fraction > 0.0 && c.ood_source == spotlight_core::config::OodSourceName::Other
}

/// Builds every report of the grid from the job store, writes each, then the claims table.
fn merge_grid(grid: &[Config], size: paper::Size, store: &Path, out_dir: &Path, data_dir: &Path, started: Instant) -> Result<(), Fail> {
    let reports_dir = out_dir.join("reports");
    std::fs::create_dir_all(&reports_dir).map_err(|e| Fail(1, format!("{}: {e}", reports_dir.display())))?;
    let mut results = std::collections::HashMap::new();
    for job in grid_jobs(grid) {
        if let Some(r) = read_job(store, &job.key()) {
            results.insert(r.key.clone(), r);
        }
    }
    let mut reports = Vec::new();
    let mut missing = 0usize;
    let mut diverged = Vec::new();
    for (i, config) in grid.iter().enumerate() {
        let ds = load_dataset(data_dir, config.dataset)?;
        let other = needs_other(config).then(|| load_dataset(data_dir, config.dataset.other())).transpose()?;
        match jobs::assemble(config, &ds, other.as_ref(), |k| results.get(k)) {
            Ok(r) => {
                let name = format!(
                    "{:02}-noise{:.0}-{}-seed{}.json",
                    i + 1,
                    100.0 * config.label_noise,
                    if config.regularizer { format!("reg{}", config.reg_strength) } else { "compare".into() },
                    config.seed
                );
                write_atomic(&reports_dir.join(name), &r.to_json())?;
                for run in &r.runs {
                    if let Some(e) = &run.error {
                        diverged.push(format!(
                            "{} (noise {:.0}%, seed {}): {e}",
                            config.variant(run.batch_norm).label(),
                            100.0 * config.label_noise,
                            config.seed
                        ));
                    }
                }
                reports.push(r);
            }
            Err(jobs::AssembleError::Missing(m)) => missing += m.len(),
            Err(e) => return Err(Fail(1, e.to_string())),
        }
    }
    if missing > 0 {
        return Err(Fail(
            1,
            format!("{missing} job(s) of the grid have no result in {} yet; run the missing shards, then --merge again", store.display()),
        ));
    }
    let table = paper::claims(&reports);
    println!("\nThe paper's directions, on our runs ({} size):\n", size.name());
    print!("{}", table.to_text());
    let json = serde_json::json!({ "size": size.name(), "table": table });
    let json_path = out_dir.join("paper-report.json");
    write_atomic(&json_path, &serde_json::to_string_pretty(&json).expect("serializable"))?;
    let svg_path = out_dir.join("paper-memorization.svg");
    let noisy: Vec<&Report> = reports.iter().filter(|r| r.config.label_noise > 0.0 && !r.config.regularizer).collect();
    write_atomic(&svg_path, &spotlight_plots::accuracy_curves(&noisy, "Memorization: accuracy on flipped labels (thick), clean and test"))?;
    let trade_path = out_dir.join("paper-tradeoff.svg");
    write_atomic(&trade_path, &spotlight_plots::tradeoff_chart(&table))?;
    println!(
        "\nwall time {:.1} s; wrote {}, {}, {} and {} reports in {}",
        started.elapsed().as_secs_f64(),
        json_path.display(),
        svg_path.display(),
        trade_path.display(),
        reports.len(),
        reports_dir.display()
    );
    if !diverged.is_empty() {
        return Err(Fail(1, format!("models diverged:\n  {}", diverged.join("\n  "))));
    }
    Ok(())
}
