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
use spotlight_core::runner;
use spotlight_core::{Config, link, paper};

mod bench;

const USAGE: &str = "\
usage:
  spotlight run (--config FILE.json | --link 'QUERY') [--backend ndarray|flex|wgpu] [--out FILE] [--data-dir DIR] [--quiet]
  spotlight paper [--quick] [--backend B] [--seed N] [--out-dir DIR] [--data-dir DIR] [--quiet]
  spotlight bench [--backends ndarray,flex,wgpu] [--batches 64,128,256] [--steps N] [--no-torch] [--data-dir DIR]

  --link takes the query string of an app share link (with or without the leading '?').
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
        Some(b) => BackendName::parse(&b).map_err(usage),
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
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} steps  {per_sec}  ETA {eta}  {msg}")
            .expect("a valid template")
            .progress_chars("=> "),
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
    let mut exp = runner::Experiment::new(config, &ds, other.as_ref(), &device, &name).map_err(|e| Fail(2, e))?;
    let pb = progress_bar(exp.steps_total(), quiet);
    pb.set_prefix(prefix.to_string());
    while !exp.finished() {
        let p = pollster::block_on(exp.advance());
        pb.set_position(p.steps_done as u64);
        pb.set_message(p.describe());
    }
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
        let name = if run.batch_norm { if r.config.regularizer { "BN + γ/σ reg" } else { "BN" } } else { "no-BN" };
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
                s.push_str(&format!("    median grad norm: noisy {n:.3}, clean {c:.3}\n"));
            }
            if !last.gamma_sigma.is_empty() {
                let gs: Vec<String> = last.gamma_sigma.iter().map(|l| format!("{} {:.2}", l.layer, l.running)).collect();
                s.push_str(&format!("    γ/σ (running): {}\n", gs.join(", ")));
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

fn write(path: &Path, contents: &str) -> Result<(), Fail> {
    std::fs::write(path, contents).map_err(|e| Fail(1, format!("{}: {e}", path.display())))
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
    write(&out, &report.to_json())?;
    print!("{}", summary(&report));
    println!("wall time {:.1} s; report written to {}", started.elapsed().as_secs_f64(), out.display());
    Ok(())
}

fn cmd_paper(mut args: Args) -> Result<(), Fail> {
    let quick = args.flag("--quick");
    let backend = backend_arg(&mut args)?;
    let seed = match args.value("--seed")? {
        Some(s) => s.parse().map_err(|_| usage(format!("--seed: {s:?} is not a whole number")))?,
        None => 1,
    };
    let out_dir = args.value("--out-dir")?.map(PathBuf::from).unwrap_or_else(|| PathBuf::from("."));
    let dir = data_dir(&mut args)?;
    let quiet = args.flag("--quiet");
    args.done()?;
    std::fs::create_dir_all(&out_dir).map_err(|e| Fail(1, format!("{}: {e}", out_dir.display())))?;
    let started = Instant::now();
    let grid = paper::grid(quick, seed);
    let mut reports = Vec::new();
    for (i, config) in grid.iter().enumerate() {
        let label = format!(
            "{}/{} noise {:.0}%{}",
            i + 1,
            grid.len(),
            100.0 * config.label_noise,
            if config.regularizer { " +reg" } else { "" }
        );
        let r = run_experiment(config, &dir, backend, quiet, &label)?;
        if !quiet {
            print!("{}", summary(&r));
        }
        reports.push(r);
    }
    let table = paper::claims(&reports);
    println!("\nThe paper's directions, on our runs ({}):\n", if quick { "--quick size" } else { "full size" });
    print!("{}", table.to_text());
    let json = serde_json::json!({ "table": table, "reports": reports });
    let json_path = out_dir.join("paper-report.json");
    write(&json_path, &serde_json::to_string_pretty(&json).expect("serializable"))?;
    let svg_path = out_dir.join("paper-memorization.svg");
    let noisy: Vec<&Report> = reports.iter().filter(|r| r.config.label_noise > 0.0).collect();
    let svg = spotlight_plots::accuracy_curves(&noisy, "Memorization: accuracy on flipped labels (thick), clean and test");
    write(&svg_path, &svg)?;
    println!(
        "\nwall time {:.1} s; wrote {} and {}",
        started.elapsed().as_secs_f64(),
        json_path.display(),
        svg_path.display()
    );
    Ok(())
}
