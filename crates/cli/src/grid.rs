//! `spotlight paper`: the paper's grid as jobs — the job store (one file per finished model), the
//! shards (run here, or as child processes, or as a cluster's array tasks), the merge into reports
//! and the claims table.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Instant;

use spotlight_core::backend::{BackendName, native_device};
use spotlight_core::config::{DatasetName, OptimizerName};
use spotlight_core::data::Dataset;
use spotlight_core::experiment_data::ExperimentData;
use spotlight_core::paper::PaperTable;
use spotlight_core::report::Report;
use spotlight_core::{Config, jobs, paper, threads};
use spotlight_i18n::paper::ClaimText;
use spotlight_i18n::say::data::build_error;
use spotlight_i18n::{Lang, say};

use crate::{Fail, PaperArgs, Shard, load_dataset, model_name, run_error, write_atomic};

pub fn cmd_paper(args: PaperArgs) -> Result<(), Fail> {
    let PaperArgs {
        quick,
        size,
        seeds: n_seeds,
        seed: first_seed,
        backend,
        out_dir,
        shard,
        jobs,
        merge,
        data_dir: dir,
        quiet,
    } = args;
    let size = size.unwrap_or(if quick { paper::Size::Quick } else { paper::Size::Full });
    let n_seeds = n_seeds.unwrap_or(if size == paper::Size::Full { 1 } else { 3 });
    let out_dir = merge.clone().unwrap_or(out_dir);
    let seeds: Vec<u64> = (0..n_seeds).map(|i| first_seed + i).collect();
    let grid = paper::grid(size, &seeds);
    let all_jobs = grid_jobs(&grid);
    let store = out_dir.join("jobs");
    std::fs::create_dir_all(&store).map_err(|e| Fail(1, format!("{}: {e}", store.display())))?;
    let started = Instant::now();
    match (shard, jobs, &merge) {
        (Some(Shard { i, n }), _, _) => {
            run_jobs(&all_jobs, i, n, &store, &dir, backend, quiet)?;
            return Ok(());
        }
        (None, Some(j), _) => {
            let j = j.clamp(1, 64);
            let exe = std::env::current_exe().map_err(|e| Fail(1, e.to_string()))?;
            let mut children = Vec::new();
            for i in 0..j {
                let mut c = std::process::Command::new(&exe);
                c.args(shard_args(
                    size,
                    n_seeds,
                    first_seed,
                    backend,
                    Shard { i: i as usize, n: j as usize },
                    &out_dir,
                    &dir,
                ));
                children
                    .push(c.spawn().map_err(|e| Fail(1, format!("starting shard {i}/{j}: {e}")))?);
            }
            let mut failed = Vec::new();
            for (i, mut ch) in children.into_iter().enumerate() {
                let ok = ch.wait().map(|s| s.success()).unwrap_or(false);
                if !ok {
                    failed.push(i);
                }
            }
            if !failed.is_empty() {
                let e = Fail(
                    1,
                    format!(
                        "shards {failed:?} of {j} failed; their finished jobs are kept in {}",
                        store.display()
                    ),
                );
                return Err(keep_finished(&grid, &store, &out_dir, &dir, e));
            }
        }
        (None, None, Some(_)) => {}
        (None, None, None) => {
            if let Err(e) = run_jobs(&all_jobs, 0, 1, &store, &dir, backend, quiet) {
                return Err(keep_finished(&grid, &store, &out_dir, &dir, e));
            }
        }
    }
    merge_grid(&grid, size, &store, &out_dir, &dir, started)
}

/// After a failure in the grid: writes the report of every experiment whose jobs all finished
/// (the jobs themselves are already kept), and says so with the failure.
fn keep_finished(
    grid: &[Config],
    store: &Path,
    out_dir: &Path,
    data_dir: &Path,
    failure: Fail,
) -> Fail {
    let Fail(code, msg) = failure;
    match write_reports(grid, store, out_dir, data_dir) {
        Ok(done) => Fail(
            code,
            format!(
                "{msg}\n{} of {} reports were complete and are written in {}",
                done.reports.len(),
                grid.len(),
                out_dir.join("reports").display()
            ),
        ),
        Err(Fail(_, more)) => {
            Fail(code, format!("{msg}\n(and writing the finished reports failed: {more})"))
        }
    }
}

/// What [`write_reports`] found in the job store.
struct Written {
    reports: Vec<Report>,
    /// Jobs of the grid without a result yet.
    missing: usize,
    /// "model (noise, seed): reason" for every model that stopped early.
    diverged: Vec<String>,
}

/// Builds every report of the grid whose jobs are all in the store and writes each to
/// OUT/reports/ (atomically), in the grid's order.
fn write_reports(
    grid: &[Config],
    store: &Path,
    out_dir: &Path,
    data_dir: &Path,
) -> Result<Written, Fail> {
    let reports_dir = out_dir.join("reports");
    std::fs::create_dir_all(&reports_dir)
        .map_err(|e| Fail(1, format!("{}: {e}", reports_dir.display())))?;
    let mut results = std::collections::HashMap::new();
    for job in grid_jobs(grid) {
        if let Some(r) = read_job(store, &job.key()) {
            results.insert(r.key.clone(), r);
        }
    }
    let mut out = Written { reports: Vec::new(), missing: 0, diverged: Vec::new() };
    for (i, config) in grid.iter().enumerate() {
        let ds = load_dataset(data_dir, config.dataset)?;
        let other = needs_other(config)
            .then(|| load_dataset(data_dir, config.dataset.other()))
            .transpose()?;
        match jobs::assemble(config, &ds, other.as_ref(), |k| results.get(k)) {
            Ok(r) => {
                let name = format!(
                    "{:02}-noise{:.0}-{}-seed{}.json",
                    i + 1,
                    100.0 * config.label_noise,
                    if config.regularizer {
                        format!("reg{}", config.reg_strength)
                    } else {
                        "compare".into()
                    },
                    config.seed
                );
                write_atomic(&reports_dir.join(name), &r.to_json())?;
                for run in &r.runs {
                    if let Some(e) = &run.error {
                        out.diverged.push(format!(
                            "{} (noise {:.0}%, seed {}): {}",
                            model_name(r.variant(run)),
                            100.0 * config.label_noise,
                            config.seed,
                            run_error(e)
                        ));
                    }
                }
                out.reports.push(r);
            }
            Err(jobs::AssembleError::Missing(m)) => out.missing += m.len(),
            Err(e) => return Err(Fail(1, say::run::assemble_error(Lang::En, &e))),
        }
    }
    Ok(out)
}

/// The arguments of `paper --jobs`' child process for one shard (after the program name).
pub fn shard_args(
    size: paper::Size,
    n_seeds: u64,
    first_seed: u64,
    backend: BackendName,
    shard: Shard,
    out_dir: &Path,
    data_dir: &Path,
) -> Vec<OsString> {
    let mut a: Vec<OsString> = [
        "paper",
        "--size",
        size.name(),
        "--seeds",
        &n_seeds.to_string(),
        "--seed",
        &first_seed.to_string(),
    ]
    .into_iter()
    .map(OsString::from)
    .collect();
    a.extend(
        ["--backend", backend.as_str(), "--shard", &format!("{}/{}", shard.i, shard.n), "--quiet"]
            .map(OsString::from),
    );
    a.extend([
        OsString::from("--out-dir"),
        out_dir.into(),
        OsString::from("--data-dir"),
        data_dir.into(),
    ]);
    a
}

/// Every job of the grid, each once, in a fixed order.
fn grid_jobs(grid: &[Config]) -> Vec<jobs::Job> {
    let mut seen = std::collections::HashSet::new();
    grid.iter().flat_map(jobs::jobs_of).filter(|j| seen.insert(j.key())).collect()
}

fn job_path(store: &Path, key: &str) -> PathBuf {
    store.join(format!("{key}.json"))
}

/// The finished job `key` in `store`; `None` if it has no file, or (said on stderr) if its file
/// cannot be read as that job's result (e.g. truncated): the job then counts as not done.
fn read_job(store: &Path, key: &str) -> Option<jobs::JobResult> {
    let path = job_path(store, key);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => return rejected(&path, &e.to_string()),
    };
    match serde_json::from_str::<jobs::JobResult>(&text) {
        Ok(r) if r.key == key => Some(r),
        Ok(r) => rejected(&path, &format!("it holds job {}", r.key)),
        Err(e) => rejected(&path, &e.to_string()),
    }
}

fn rejected(path: &Path, why: &str) -> Option<jobs::JobResult> {
    eprintln!("rejected job file {} ({why}): the job counts as not done", path.display());
    None
}

/// Runs the jobs of shard `i` of `n` that have no result in `store` yet.
fn run_jobs(
    all: &[jobs::Job],
    i: usize,
    n: usize,
    store: &Path,
    data_dir: &Path,
    backend: BackendName,
    quiet: bool,
) -> Result<(), Fail> {
    let mine: Vec<&jobs::Job> =
        all.iter().enumerate().filter(|(k, _)| k % n == i).map(|(_, j)| j).collect();
    let todo: Vec<&jobs::Job> =
        mine.iter().copied().filter(|j| read_job(store, &j.key()).is_none()).collect();
    eprintln!(
        "shard {i}/{n}: {} jobs, {} already done, {} to run",
        mine.len(),
        mine.len() - todo.len(),
        todo.len()
    );
    let (device, name) = native_device(backend).map_err(|e| Fail(1, e))?;
    let mut cache: Option<(DatasetName, Dataset)> = None;
    let clock = Instant::now();
    for (k, job) in todo.iter().enumerate() {
        if cache.as_ref().is_none_or(|(d, _)| *d != job.config.dataset) {
            cache = Some((job.config.dataset, load_dataset(data_dir, job.config.dataset)?));
        }
        let ds = &cache.as_ref().expect("just set").1;
        let other = needs_other(&job.config)
            .then(|| load_dataset(data_dir, job.config.dataset.other()))
            .transpose()?;
        let t = Instant::now();
        let data = ExperimentData::build(&job.config, ds, other.as_ref())
            .map_err(|e| Fail(1, format!("{}: {}", describe(job), build_error(Lang::En, &e))))?;
        let result = threads::on_pool(|| {
            pollster::block_on(jobs::run_job_on(
                job,
                &data,
                &device,
                &name,
                || clock.elapsed().as_secs_f64(),
                |_| {},
            ))
        })
        .map_err(|e| Fail(1, format!("{}: {}", describe(job), run_error(&e))))?;
        write_atomic(
            &job_path(store, &result.key),
            &serde_json::to_string(&result).expect("serializable"),
        )?;
        if !quiet {
            eprintln!(
                "  [{}/{}] {} ({:.1} s)",
                k + 1,
                todo.len(),
                describe(job),
                t.elapsed().as_secs_f64()
            );
        }
    }
    Ok(())
}

/// A job in a few words ("target BN, noise 5%, seed 2").
fn describe(job: &jobs::Job) -> String {
    let c = &job.config;
    let name = |v: usize| model_name(c.variants()[v]);
    let what = match job.role {
        jobs::Role::Target { variant } => format!("target {}", name(variant)),
        jobs::Role::Shadow { variant, k } => format!("shadow {} of {}", k + 1, name(variant)),
    };
    format!("{what}, noise {:.0}%, seed {}", 100.0 * c.label_noise, c.seed)
}

fn needs_other(c: &Config) -> bool {
    c.ood_fraction > 0.0 && c.ood_source == spotlight_core::config::OodSourceName::Other
}

/// Builds every report of the grid from the job store, writes each, then the claims table.
fn merge_grid(
    grid: &[Config],
    size: paper::Size,
    store: &Path,
    out_dir: &Path,
    data_dir: &Path,
    started: Instant,
) -> Result<(), Fail> {
    let Written { reports, missing, diverged } = write_reports(grid, store, out_dir, data_dir)?;
    if missing > 0 {
        return Err(Fail(
            1,
            format!(
                "{missing} job(s) of the grid have no result in {} yet; run the missing shards, then --merge again",
                store.display()
            ),
        ));
    }
    let table = paper::claims(&reports);
    println!("\nThe paper's directions, on our runs ({} size):\n", size.name());
    print!("{}", claims_text(&table));
    let json = serde_json::json!({ "size": size.name(), "table": table });
    let json_path = out_dir.join("paper-report.json");
    write_atomic(&json_path, &serde_json::to_string_pretty(&json).expect("serializable"))?;
    write_atomic(&out_dir.join("paper-table.md"), &claims_markdown(&table))?;
    let svg_path = out_dir.join("paper-memorization.svg");
    // The Adam arm's flipped-label runs (not the SGD arm's, not the regularizer's).
    let noisy: Vec<&Report> = reports
        .iter()
        .filter(|r| {
            r.config.label_noise > 0.0
                && !r.config.regularizer
                && r.config.optimizer == OptimizerName::Adam
        })
        .collect();
    let title = "Memorization: accuracy on flipped labels (thick), clean and test";
    write_atomic(&svg_path, &spotlight_plots::accuracy_curves(&noisy, title, Lang::En))?;
    let trade_path = out_dir.join("paper-tradeoff.svg");
    write_atomic(&trade_path, &spotlight_plots::tradeoff_chart(&table, Lang::En))?;
    println!(
        "\nwall time {:.1} s; wrote {}, paper-table.md, {}, {} and {} reports in {}",
        started.elapsed().as_secs_f64(),
        json_path.display(),
        svg_path.display(),
        trade_path.display(),
        reports.len(),
        out_dir.join("reports").display()
    );
    if !diverged.is_empty() {
        return Err(Fail(1, format!("models diverged:\n  {}", diverged.join("\n  "))));
    }
    Ok(())
}

/// The claims as a Markdown table (the README's): each claim, its tested numbers (mean ± sd over
/// the seeds that have them) and the verdict. The paper's words and the caveats are in
/// [`claims_text`] and the app's panel. The claims' words are spotlight-i18n's English.
fn claims_markdown(table: &PaperTable) -> String {
    let t = &Lang::En.texts().paper;
    let mut s = String::from("| claim | tested: mean ± sd over seeds | verdict |\n|---|---|---|\n");
    let cell = |x: &str| x.replace('|', "\\|");
    for r in &table.rows {
        let ours: Vec<String> = r
            .tests
            .iter()
            .filter_map(|x| r.numbers.iter().find(|n| n.name == x.name))
            .map(|n| format!("{} {:+.2} ± {:.2}", n.name, n.mean, n.sd))
            .collect();
        s.push_str(&format!(
            "| ({}) {} | {} | **{}** ({}/{}) |\n",
            r.id,
            cell(words(t, r.id).claim),
            cell(&ours.join("; ")),
            t.outcome(r.outcome),
            r.seeds_held,
            r.seeds_checked,
        ));
    }
    s
}

/// The table as text, one claim a block.
fn claims_text(table: &PaperTable) -> String {
    let t = &Lang::En.texts().paper;
    let mut s = format!("seeds: {:?} (numbers: mean ± sd over seeds)\n", table.seeds);
    for r in &table.rows {
        let w = words(t, r.id);
        s.push_str(&format!(
            "({}) {}\n    paper: {}\n    ours:  {}\n    tests: {}\n    → {} ({}/{} seeds); {}\n",
            r.id,
            w.claim,
            w.paper,
            r.ours(),
            r.tests
                .iter()
                .map(|x| format!("{} > {}: {}", x.name, x.bar, t.outcome(x.outcome)))
                .collect::<Vec<_>>()
                .join("; "),
            t.outcome(r.outcome),
            r.seeds_held,
            r.seeds_checked,
            w.caveat
        ));
    }
    if !table.tradeoff.is_empty() {
        s.push_str(&format!(
            "λ sweep at {:.0}% (BN, regularizer {}):\n",
            100.0 * paper::REG_NOISE,
            Config::default().reg_kind.name()
        ));
        for p in &table.tradeoff {
            s.push_str(&format!(
                "    λ = {:<5} test {:.1} ± {:.1} %, flipped {:.1} ± {:.1} %{}\n",
                p.lambda,
                p.test_acc.mean,
                p.test_acc.sd,
                p.flipped_acc.mean,
                p.flipped_acc.sd,
                p.lira_auc
                    .as_ref()
                    .map_or(String::new(), |a| format!(", LiRA AUC {:.3} ± {:.3}", a.mean, a.sd))
            ));
        }
    }
    s
}

/// A claim's words by its letter (empty for a letter without texts: the i18n crate's tests check
/// that every claim has them).
fn words(t: &spotlight_i18n::paper::Paper, id: char) -> &ClaimText {
    const NONE: ClaimText = ClaimText { id: ' ', claim: "", paper: "", caveat: "" };
    t.claim(id).unwrap_or(&NONE)
}
