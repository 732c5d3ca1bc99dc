//! `spotlight bench`: train-step throughput of LeNet ± BN per backend and batch size, beside the
//! same LeNet in PyTorch on CPU (`bench/torch_lenet.py`), as a ratio; each row's FLOP/s and its
//! share of the cores' peak (a multiply-add loop on the kernels' vector unit); and peak memory.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use spotlight_core::backend::{BackendName, native_device};
use spotlight_core::bench::{self, WARMUP};
use spotlight_core::config::DatasetName;
use spotlight_core::threads;

use crate::{Fail, load_dataset, model_name, parse_backend};

/// `spotlight bench`'s arguments.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// The backends to measure, comma-separated: ndarray, flex (or cpu), wgpu (or webgpu)
    /// [default: ndarray,flex, and wgpu with the `wgpu` feature].
    #[arg(long, value_name = "BACKENDS", value_delimiter = ',', value_parser = parse_backend)]
    pub(crate) backends: Vec<BackendName>,
    /// The batch sizes, comma-separated, each from 2 to 2048.
    #[arg(long, value_name = "SIZES", value_delimiter = ',', value_parser = parse_batch, default_value = "64,128,256")]
    pub(crate) batches: Vec<usize>,
    /// Timed training steps per measurement, 1 to 10000.
    #[arg(long, value_name = "N", value_parser = parse_steps, default_value_t = 20)]
    pub(crate) steps: usize,
    /// Skips PyTorch (`python3 bench/torch_lenet.py`).
    #[arg(long)]
    pub(crate) no_torch: bool,
    /// Shadow models timed one by one and stacked as one network, per backend, at the first
    /// batch size (0: none).
    #[arg(long, value_name = "N", value_parser = parse_shadows, default_value_t = 4)]
    pub(crate) shadows: usize,
    /// Where the dataset assets (*.spds.gz) are.
    #[arg(long, value_name = "DIR", default_value = "public/data")]
    pub(crate) data_dir: PathBuf,
}

fn parse_batch(s: &str) -> Result<usize, String> {
    s.trim()
        .parse::<usize>()
        .ok()
        .filter(|&b| (2..=2048).contains(&b))
        .ok_or("not a batch size from 2 to 2048".into())
}

fn parse_steps(s: &str) -> Result<usize, String> {
    s.trim()
        .parse::<usize>()
        .ok()
        .filter(|&n| (1..=10_000).contains(&n))
        .ok_or("allowed: 1 to 10000".into())
}

fn parse_shadows(s: &str) -> Result<usize, String> {
    s.trim().parse::<usize>().ok().filter(|&n| n <= 16).ok_or("allowed: 0 to 16".into())
}

/// Shadow models trained one by one, then stacked as one network (the core's measurement): the
/// rows, or why a backend could not.
fn shadows_rows(backend: BackendName, batch: usize, models: usize) -> Result<Vec<String>, Fail> {
    let (device, label) = native_device(backend).map_err(|e| Fail(1, e))?;
    let epoch = Instant::now();
    let clock = move || epoch.elapsed().as_secs_f64();
    let mut rows = Vec::new();
    for bn in [true, false] {
        let time = |stacked| {
            threads::on_pool(|| {
                pollster::block_on(bench::shadows_time(
                    &device,
                    &label,
                    bn,
                    batch,
                    models,
                    stacked,
                    &clock,
                    &|| {},
                ))
            })
            .map_err(|e| Fail(1, crate::run_error(&e)))
        };
        let (alone, stacked) = (time(false)?, time(true)?);
        let rate = |t: &bench::ShadowsTime| t.samples as f64 / t.seconds;
        rows.push(format!(
            "{:<8} {:<6} {:>6} {:>7} {:>15.0} {:>17.0} {:>8.2}×",
            backend.as_str(),
            model_name(spotlight_core::Variant::unregularized(bn)),
            batch,
            alone.models,
            rate(&alone),
            rate(&stacked),
            alone.seconds / stacked.seconds
        ));
    }
    Ok(rows)
}

/// Peak resident memory of this process (Linux `VmHWM`), in MiB.
fn peak_rss_mib() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// What the machine was doing, read from Linux's /proc (absent elsewhere): the 1-minute load
/// average, and the CPU time counters, so that a run can say how busy the machine was around it.
struct Load {
    loadavg: Option<f64>,
    /// (busy, steal, total) jiffies of all CPUs since boot.
    cpu: Option<(u64, u64, u64)>,
}

impl Load {
    fn now() -> Self {
        let loadavg = std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|s| s.split_whitespace().next().and_then(|v| v.parse().ok()));
        let cpu = std::fs::read_to_string("/proc/stat").ok().and_then(|s| {
            // cpu  user nice system idle iowait irq softirq steal …
            let v: Vec<u64> = s
                .lines()
                .next()?
                .split_whitespace()
                .skip(1)
                .filter_map(|x| x.parse().ok())
                .collect();
            let total: u64 = v.iter().take(8).sum();
            let idle = v.get(3)? + v.get(4)?;
            let steal = *v.get(7)?;
            Some((total - idle - steal, steal, total))
        });
        Self { loadavg, cpu }
    }
}

/// The conditions a figure was taken under, printed before it: build, CPU, threads, load.
fn conditions(before: &Load) -> Vec<String> {
    let mut lines = Vec::new();
    let profile = if cfg!(debug_assertions) {
        "debug (unoptimized: not a figure to compare)"
    } else {
        "release"
    };
    lines.push(format!("build: {profile}, spotlight {}", env!("CARGO_PKG_VERSION")));
    let cpu = std::fs::read_to_string("/proc/cpuinfo").ok().and_then(|s| {
        s.lines()
            .find(|l| l.starts_with("model name"))
            .and_then(|l| l.split(':').nth(1))
            .map(|m| m.trim().to_string())
    });
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let rayon = std::env::var("RAYON_NUM_THREADS").ok().filter(|v| !v.is_empty());
    lines.push(format!(
        "machine: {} logical CPUs{}; burn-flex threads: {}",
        cores,
        cpu.map_or(String::new(), |m| format!(" ({m})")),
        rayon.map_or(format!("{cores} (rayon's default: one per CPU)"), |v| format!(
            "{v} (RAYON_NUM_THREADS)"
        ))
    ));
    lines.push(format!(
        "Spotlight's CPU kernels (burn-flex): {}",
        spotlight_core::kernels::vector_unit()
    ));
    if let Some(l) = before.loadavg {
        lines.push(format!("load average (1 min) before the run: {l:.2}"));
    }
    lines
}

/// How busy the CPUs were between two readings: the share of CPU time spent working (this
/// process included) and stolen by the hypervisor.
fn busy_between(before: &Load, after: &Load) -> Option<String> {
    let ((b0, s0, t0), (b1, s1, t1)) = (before.cpu?, after.cpu?);
    let dt = t1.checked_sub(t0).filter(|&d| d > 0)? as f64;
    let load =
        after.loadavg.map_or(String::new(), |l| format!("; load average (1 min) after: {l:.2}"));
    Some(format!(
        "during the run: CPUs {:.0} % busy (this process included), {:.1} % stolen by the hypervisor{load}",
        100.0 * (b1 - b0) as f64 / dt,
        100.0 * (s1 - s0) as f64 / dt
    ))
}

/// Seconds the peak rate's multiply-add loop runs (on every thread of the pool at once).
const PEAK_SECONDS: f64 = 0.3;

/// A row's FLOP rate in GFLOP/s and its share of the peak in %, as two cells ("—" without a rate).
fn flops_cells(flops_per_sample: f64, samples_per_s: Option<f64>, peak: f64) -> (String, String) {
    match samples_per_s {
        Some(rate) => {
            let flops = flops_per_sample * rate;
            (format!("{:.1}", flops / 1e9), format!("{:.1} %", 100.0 * flops / peak))
        }
        None => ("—".into(), "—".into()),
    }
}

/// Samples per second of `steps` training steps (the core's measurement, on this process's clock).
fn measure(
    backend: BackendName,
    bn: bool,
    batch: usize,
    steps: usize,
    ds: &spotlight_core::data::Dataset,
) -> Result<f64, Fail> {
    let (device, label) = native_device(backend).map_err(|e| Fail(1, e))?;
    let epoch = Instant::now();
    let clock = move || epoch.elapsed().as_secs_f64();
    let t = threads::on_pool(|| {
        pollster::block_on(bench::train_throughput(ds, &device, &label, bn, batch, steps, &clock))
    })
    .map_err(|e| Fail(1, crate::run_error(&e)))?;
    Ok(t.samples_per_s)
}

/// PyTorch's samples/s per (bn, batch), or why there are none.
fn torch(batches: &[usize], steps: usize) -> Result<Vec<(bool, usize, f64)>, String> {
    let script = PathBuf::from("bench/torch_lenet.py");
    let b: Vec<String> = batches.iter().map(|b| b.to_string()).collect();
    let out = Command::new("python3")
        .arg(&script)
        .args([
            "--batches",
            &b.join(","),
            "--steps",
            &steps.to_string(),
            "--warmup",
            &WARMUP.to_string(),
        ])
        .output()
        .map_err(|e| format!("python3 {}: {e}", script.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(err.lines().chain(text.lines()).last().unwrap_or("failed").to_string());
    }
    let mut rows = Vec::new();
    for line in text.lines().filter(|l| l.starts_with('{')) {
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("torch output {line:?}: {e}"))?;
        rows.push((
            v["bn"].as_bool().unwrap_or(false),
            v["batch"].as_u64().unwrap_or(0) as usize,
            v["samples_per_s"].as_f64().unwrap_or(f64::NAN),
        ));
        if rows.len() == 1
            && let Some(info) = v.get("info")
        {
            println!("PyTorch: {info}");
        }
    }
    Ok(rows)
}

pub fn cmd_bench(args: BenchArgs) -> Result<(), Fail> {
    let BenchArgs { mut backends, batches, steps, no_torch, shadows, data_dir: dir } = args;
    if backends.is_empty() {
        backends = [BackendName::Ndarray, BackendName::Flex, BackendName::Wgpu]
            .into_iter()
            .filter(|b| *b != BackendName::Wgpu || cfg!(feature = "wgpu"))
            .collect();
    }
    for &b in &batches {
        bench::check_throughput(b, steps)
            .map_err(|e| Fail(2, format!("--batches {b} with --steps {steps}: {e}")))?;
    }
    let ds = load_dataset(&dir, DatasetName::Mnist)?;
    let before = Load::now();
    for line in conditions(&before) {
        println!("{line}");
    }
    // The work of a step, from the model's shape (the dataset's images and classes).
    let flops = |bn: bool| {
        bench::step_flops_per_sample(1, ds.rows, ds.cols, usize::from(ds.classes), bn)
            .unwrap_or(f64::NAN)
    };
    let peak = spotlight_core::kernels::peak_flops(PEAK_SECONDS);
    println!(
        "peak f32 of the cores: {:.1} GFLOP/s (a multiply-add loop on {}, {} threads at once, {PEAK_SECONDS} s)",
        peak.flops_per_s / 1e9,
        peak.unit,
        peak.threads
    );
    println!(
        "work of one step per sample: {:.2} MFLOP with BN, {:.2} without (the convolutions' and linear layers' multiply-adds forward and backward, and BN's arithmetic; see docs/measurements.md)",
        flops(true) / 1e6,
        flops(false) / 1e6
    );
    let theirs =
        if no_torch { Err("skipped (--no-torch)".to_string()) } else { torch(&batches, steps) };
    if let Err(e) = &theirs {
        println!(
            "PyTorch: not measured: {e}\n  (install torch from PyPI to compare: python3 -m pip install torch)"
        );
    }
    println!(
        "train-step throughput, LeNet-5, one step = forward + backward + Adam; {steps} timed steps after {WARMUP} warm-up"
    );
    println!(
        "{:<8} {:<6} {:>6} {:>14} {:>16} {:>8} {:>12} {:>7} {:>15} {:>7}",
        "backend",
        "model",
        "batch",
        "ours samples/s",
        "PyTorch samples/s",
        "ratio",
        "ours GFLOP/s",
        "of peak",
        "PyTorch GFLOP/s",
        "of peak"
    );
    for backend in &backends {
        for bn in [true, false] {
            for &batch in &batches {
                let ours = match measure(*backend, bn, batch, steps, &ds) {
                    Ok(v) => v,
                    Err(Fail(_, e)) => {
                        println!("{:<8} {e}", backend.as_str());
                        break;
                    }
                };
                let t = theirs
                    .as_ref()
                    .ok()
                    .and_then(|rows| rows.iter().find(|r| r.0 == bn && r.1 == batch))
                    .map(|r| r.2);
                let (ours_gflops, ours_share) =
                    flops_cells(flops(bn), Some(ours), peak.flops_per_s);
                let (t_gflops, t_share) = flops_cells(flops(bn), t, peak.flops_per_s);
                println!(
                    "{:<8} {:<6} {:>6} {:>14.0} {:>16} {:>8} {:>12} {:>7} {:>15} {:>7}",
                    backend.as_str(),
                    model_name(spotlight_core::Variant::unregularized(bn)),
                    batch,
                    ours,
                    t.map_or("—".into(), |t| format!("{t:.0}")),
                    t.map_or("—".into(), |t| format!("{:.2}×", ours / t)),
                    ours_gflops,
                    ours_share,
                    t_gflops,
                    t_share
                );
            }
        }
    }
    if shadows > 0 {
        let batch = batches[0];
        println!(
            "shadow models one by one vs stacked as one network (issue #33): {shadows} models, {} members each (about), 2 epochs, batch {batch}, images of noise; samples/s of training (the data's upload, an untimed epoch first, the pool's scores on each model included)",
            bench::shadows_config(true, batch, shadows).train_size
        );
        println!(
            "{:<8} {:<6} {:>6} {:>7} {:>15} {:>17} {:>9}",
            "backend",
            "model",
            "batch",
            "models",
            "alone samples/s",
            "stacked samples/s",
            "speed-up"
        );
        for backend in &backends {
            match shadows_rows(*backend, batch, shadows) {
                Ok(rows) => rows.iter().for_each(|r| println!("{r}")),
                Err(Fail(_, e)) => println!("{:<8} {e}", backend.as_str()),
            }
        }
    }
    if let Some(line) = busy_between(&before, &Load::now()) {
        println!("{line}");
    }
    if let Some(m) = peak_rss_mib() {
        println!("peak memory (resident, this process): {m:.0} MiB");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::flops_cells;

    /// A row's GFLOP/s is the FLOPs per sample times the samples/s; its share, of the peak.
    #[test]
    fn a_rows_flops_and_share_of_peak() {
        let (gflops, share) = flops_cells(2_000_000.0, Some(10_000.0), 80e9);
        assert_eq!((gflops.as_str(), share.as_str()), ("20.0", "25.0 %"));
        assert_eq!(flops_cells(2e6, None, 80e9), ("—".into(), "—".into()));
    }
}
