//! Which default run shows the lesson: BN memorizing flipped labels that no-BN does not. Each
//! candidate (a share link's settings over the page's CPU default, `Config::for_backend(false)`) is
//! trained for every seed — only its target models (the jobs a full run trains first, the same
//! seeds, data and steps; the shadow models do not change them) — and the flipped-label accuracy of
//! the BN and the no-BN model at the run's end is printed per seed, with the gap BN − no-BN.
//!
//! ```text
//! cargo run --release -p spotlight-core --example default_sweep -- SEEDS 'QUERY' ['QUERY' …]
//! ```
//!
//! The rule, fixed before any run (bench/default_sweep.txt): a candidate shows the effect when the
//! gap is at least [`CLEAR_GAP`] in at least [`MOST`] of the seeds. Its cost is the sample passes
//! of the whole run (targets and shadow models) against the current default's, and each target's
//! wall time here (training and measuring). Datasets from `public/data` (`./x.sh datasets`).

use std::time::Instant;

use spotlight_core::backend::{BackendName, native_device};
use spotlight_core::config::{Config, DatasetName, Variant};
use spotlight_core::jobs::{Job, JobOutput, Role, run_job};
use spotlight_core::{link, threads};

/// The gap BN − no-BN in flipped-label accuracy at the end that counts as clear: 10 points.
const CLEAR_GAP: f64 = 0.10;
/// In how many of the seeds it must be clear: 4 of 5 (scaled: 80 %, rounded up).
const MOST: f64 = 0.8;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(seeds), queries) =
        (args.first().and_then(|s| s.parse::<u64>().ok()), &args[1.min(args.len())..])
    else {
        eprintln!("usage: default_sweep SEEDS 'QUERY' ['QUERY' …]");
        std::process::exit(2);
    };
    let bytes = std::fs::read("public/data/mnist.spds.gz")
        .expect("public/data/mnist.spds.gz (./x.sh datasets)");
    let ds = DatasetName::Mnist.decode("mnist", &bytes).expect("a valid dataset");
    let (device, backend) = native_device(BackendName::Flex).expect("burn-flex");
    let base = Config::for_backend(false);
    let need = (MOST * seeds as f64).ceil() as usize;
    println!(
        "# rule: clear when BN − no-BN flipped accuracy at the end ≥ {:.0} points in ≥ {need} of {seeds} seeds",
        100.0 * CLEAR_GAP
    );
    println!(
        "# cost: sample passes of the whole run (targets + shadows) ÷ the current CPU default's"
    );
    for q in queries {
        let link = link::parse(&format!("{}&{q}", base_query(&base)));
        for n in link.notices.iter().filter(|n| !matches!(n, link::Notice::Repeated { .. })) {
            eprintln!("notice for {q}: {n}");
        }
        let c = link.config;
        assert_eq!(
            c.variants().len(),
            2,
            "{q}: the sweep compares BN with no-BN (no regularizer, compare on)"
        );
        let cost = c.cost().sample_passes() as f64 / base.cost().sample_passes() as f64;
        println!(
            "\n## {q}  (members {}, epochs {}, batch {}, noise {:.0} %; cost ×{cost:.2})",
            c.train_size,
            c.epochs,
            c.batch_size,
            100.0 * c.label_noise
        );
        let (mut clear, mut gaps) = (0, Vec::new());
        for seed in 1..=seeds {
            let c = Config { seed, ..c.clone() };
            let mut flipped = [f64::NAN; 2];
            let mut curves = [String::new(), String::new()];
            let mut secs = [0.0; 2];
            let mut test = [f64::NAN; 2];
            for (v, variant) in c.variants().into_iter().enumerate() {
                let job = Job { config: c.clone(), role: Role::Target { variant: v } };
                let t = Instant::now();
                let r = threads::on_pool(|| {
                    pollster::block_on(run_job(&job, &ds, None, &device, &backend, || 0.0))
                })
                .expect("a target job");
                secs[v] = t.elapsed().as_secs_f64();
                let JobOutput::Target { run, .. } = r.output else { unreachable!("a target job") };
                let i = usize::from(variant == Variant::Plain);
                flipped[i] = run.last().and_then(|e| e.acc_flipped).unwrap_or(f64::NAN);
                test[i] = run.last().map_or(f64::NAN, |e| e.acc_test);
                curves[i] = run
                    .trained()
                    .map(|e| format!("{:.0}", 100.0 * e.acc_flipped.unwrap_or(f64::NAN)))
                    .collect::<Vec<_>>()
                    .join(" ");
            }
            let gap = flipped[0] - flipped[1];
            clear += usize::from(gap >= CLEAR_GAP);
            gaps.push(gap);
            println!(
                "seed {seed}: flipped BN {:5.1} %  no-BN {:5.1} %  gap {:+5.1}  | test {:.1} / {:.1} %  | per epoch BN [{}] no-BN [{}]  | {:.1} s + {:.1} s",
                100.0 * flipped[0],
                100.0 * flipped[1],
                100.0 * gap,
                100.0 * test[0],
                100.0 * test[1],
                curves[0],
                curves[1],
                secs[0],
                secs[1]
            );
        }
        let mean = gaps.iter().sum::<f64>() / gaps.len() as f64;
        let (lo, hi) =
            gaps.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &g| (l.min(g), h.max(g)));
        println!(
            "=> gap mean {:+.1}, range {:+.1} … {:+.1} points; clear in {clear} of {seeds} seeds: {}",
            100.0 * mean,
            100.0 * lo,
            100.0 * hi,
            if clear >= need { "SHOWS THE EFFECT" } else { "does not" }
        );
    }
}

/// The CPU default as a link's settings (so that a candidate's query overrides it).
fn base_query(c: &Config) -> String {
    format!(
        "train_size={}&epochs={}&batch_size={}&label_noise={}",
        c.train_size, c.epochs, c.batch_size, c.label_noise
    )
}
