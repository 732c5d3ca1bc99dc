//! `spotlight bench`: train-step throughput of LeNet ± BN per backend and batch size, beside the
//! same LeNet in PyTorch on CPU (`bench/torch_lenet.py`), as a ratio; and peak memory.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use spotlight_core::backend::{BackendName, native_device};
use spotlight_core::bench::{self, WARMUP};
use spotlight_core::config::DatasetName;

use crate::{Args, Fail, load_dataset, usage};

fn list<T>(v: Option<String>, default: Vec<T>, parse: impl Fn(&str) -> Result<T, String>) -> Result<Vec<T>, Fail> {
    match v {
        None => Ok(default),
        Some(s) => s.split(',').map(|x| parse(x.trim()).map_err(usage)).collect(),
    }
}

/// Peak resident memory of this process (Linux `VmHWM`), in MiB.
fn peak_rss_mib() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// Samples per second of `steps` training steps (the core's measurement, on this process's clock).
fn measure(backend: BackendName, bn: bool, batch: usize, steps: usize, ds: &spotlight_core::data::Dataset) -> Result<f64, Fail> {
    let (device, label) = native_device(backend).map_err(|e| Fail(1, e))?;
    let epoch = Instant::now();
    let clock = move || epoch.elapsed().as_secs_f64();
    let t = pollster::block_on(bench::train_throughput(ds, &device, &label, bn, batch, steps, &clock)).map_err(|e| Fail(1, e))?;
    Ok(t.samples_per_s)
}

/// PyTorch's samples/s per (bn, batch), or why there are none.
fn torch(batches: &[usize], steps: usize) -> Result<Vec<(bool, usize, f64)>, String> {
    let script = PathBuf::from("bench/torch_lenet.py");
    let b: Vec<String> = batches.iter().map(|b| b.to_string()).collect();
    let out = Command::new("python3")
        .arg(&script)
        .args(["--batches", &b.join(","), "--steps", &steps.to_string(), "--warmup", &WARMUP.to_string()])
        .output()
        .map_err(|e| format!("python3 {}: {e}", script.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(err.lines().chain(text.lines()).last().unwrap_or("failed").to_string());
    }
    let mut rows = Vec::new();
    for line in text.lines().filter(|l| l.starts_with('{')) {
        let v: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("torch output {line:?}: {e}"))?;
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

pub fn cmd_bench(mut args: Args) -> Result<(), Fail> {
    let default_backends: Vec<BackendName> = [BackendName::Ndarray, BackendName::Flex, BackendName::Wgpu]
        .into_iter()
        .filter(|b| *b != BackendName::Wgpu || cfg!(feature = "wgpu"))
        .collect();
    let backends = list(args.value("--backends")?, default_backends, |s| {
        BackendName::parse(s).map_err(|e| format!("--backends: {s:?} is not a backend; {e}"))
    })?;
    let batches = list(args.value("--batches")?, vec![64, 128, 256], |s| {
        s.parse::<usize>().ok().filter(|&b| (2..=2048).contains(&b)).ok_or(format!("--batches: {s:?} is not a batch size from 2 to 2048"))
    })?;
    let steps = match args.value("--steps")? {
        Some(s) => s.parse::<usize>().ok().filter(|&n| (1..=10_000).contains(&n)).ok_or_else(|| usage(format!("--steps: {s:?}")))?,
        None => 20,
    };
    for &b in &batches {
        bench::check_throughput(b, steps).map_err(|e| usage(format!("--batches {b} with --steps {steps}: {e}")))?;
    }
    let no_torch = args.flag("--no-torch");
    let dir = args.value("--data-dir")?.map(PathBuf::from).unwrap_or_else(|| PathBuf::from("public/data"));
    args.done()?;
    let ds = load_dataset(&dir, DatasetName::Mnist)?;
    let theirs = if no_torch { Err("skipped (--no-torch)".to_string()) } else { torch(&batches, steps) };
    if let Err(e) = &theirs {
        println!("PyTorch: not measured: {e}\n  (install torch from PyPI to compare: python3 -m pip install torch)");
    }
    println!("train-step throughput, LeNet-5, one step = forward + backward + Adam; {steps} timed steps after {WARMUP} warm-up");
    println!("{:<8} {:<6} {:>6} {:>14} {:>16} {:>8}", "backend", "model", "batch", "ours samples/s", "PyTorch samples/s", "ratio");
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
                let t = theirs.as_ref().ok().and_then(|rows| rows.iter().find(|r| r.0 == bn && r.1 == batch)).map(|r| r.2);
                println!(
                    "{:<8} {:<6} {:>6} {:>14.0} {:>16} {:>8}",
                    backend.as_str(),
                    spotlight_core::Variant::unregularized(bn).label(),
                    batch,
                    ours,
                    t.map_or("—".into(), |t| format!("{t:.0}")),
                    t.map_or("—".into(), |t| format!("{:.2}×", ours / t))
                );
            }
        }
    }
    if let Some(m) = peak_rss_mib() {
        println!("peak memory (resident, this process): {m:.0} MiB");
    }
    Ok(())
}
