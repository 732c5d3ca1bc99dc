//! Our hand-written `Vector` kernels against their ports to macerator (`src/mac.rs`), on LeNet-5's
//! shapes at batch 64: the direct convolution's forward (conv1 1→6 on 28×28 padded by 2, conv2
//! 6→16 on 14×14) and BatchNorm's forward with its ReLU (statistics and normalization; after conv1,
//! conv2 and the two dense layers). Both run inside the same code (padding, samples across the
//! pool's threads), on the same inputs; the outputs must agree, else the run fails.
//!
//! ```text
//! cargo run --release -p spotlight-kernels --features macerator --example macerator [-- RUNS [THREADS]]
//! ```
//!
//! RUNS (default 200) timed calls of each, ours and macerator's taking turns after 10 warm-up
//! calls each; THREADS (default 1: the kernels alone) the rayon pool they run on. Each row: the
//! minimum and median wall time of one call, in ms, and macerator's median over ours.

use std::time::Instant;

use spotlight_kernels::compare::{self, Kernels};

/// Values in [−1, 1), not round, from a seed (a linear congruential generator).
fn values(n: usize, seed: u64) -> Vec<f32> {
    let mut state = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
    (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 40) as f32 / (1u64 << 23) as f32 - 1.0
        })
        .collect()
}

/// The minimum and median of `times`, in ms.
fn min_median(mut times: Vec<f64>) -> (f64, f64) {
    times.sort_by(f64::total_cmp);
    (times[0], times[times.len() / 2])
}

/// Times `ours` and `theirs` in turns: the minimum and median of each, in ms.
fn time(runs: usize, mut ours: impl FnMut(), mut theirs: impl FnMut()) -> [(f64, f64); 2] {
    for _ in 0..10 {
        ours();
        theirs();
    }
    let (mut a, mut b) = (Vec::with_capacity(runs), Vec::with_capacity(runs));
    for _ in 0..runs {
        let t = Instant::now();
        ours();
        a.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        theirs();
        b.push(t.elapsed().as_secs_f64() * 1e3);
    }
    [min_median(a), min_median(b)]
}

/// The largest difference between two outputs, relative to 1 + |ours|.
fn largest_difference(ours: &[f32], theirs: &[f32]) -> f32 {
    assert_eq!(ours.len(), theirs.len());
    ours.iter().zip(theirs).map(|(a, b)| (a - b).abs() / (1.0 + a.abs())).fold(0.0, f32::max)
}

fn row(label: &str, [(omin, omed), (mmin, mmed)]: [(f64, f64); 2], difference: f32) {
    println!(
        "{label:<34} {omin:>8.3} {omed:>8.3}   {mmin:>8.3} {mmed:>8.3}   {:>6.2}×   {difference:.1e}",
        mmed / omed
    );
}

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<usize>().expect("a number"));
    let runs = args.next().unwrap_or(200).max(1);
    let threads = args.next().unwrap_or(1).max(1);
    println!("ours: {}", spotlight_kernels::vector_unit());
    println!("macerator: {}", compare::macerator_picks());
    println!("{runs} runs each, {threads} thread(s); times in ms, one call over a batch of 64");
    println!(
        "{:<34} {:>8} {:>8}   {:>8} {:>8}   {:>7}   largest difference",
        "", "ours min", "median", "mac min", "median", "mac/our"
    );
    let mut worst = 0f32;
    compare::on_threads(threads, || {
        for (label, x_dims, w_dims, pad) in [
            ("conv1 forward 1→6, 28×28, pad 2", [64, 1, 28, 28], [6, 1, 5, 5], 2),
            ("conv2 forward 6→16, 14×14", [64, 6, 14, 14], [16, 6, 5, 5], 0),
        ] {
            let x = values(x_dims.iter().product(), 1);
            let w = values(w_dims.iter().product(), 2);
            let run = |k| compare::conv_forward(k, &x, x_dims, &w, w_dims, pad);
            let difference = largest_difference(&run(Kernels::Ours), &run(Kernels::Macerator));
            worst = worst.max(difference);
            let times = time(
                runs,
                || drop(std::hint::black_box(run(Kernels::Ours))),
                || drop(std::hint::black_box(run(Kernels::Macerator))),
            );
            row(label, times, difference);
        }
        for (label, dims) in [
            ("BN + ReLU [64, 6, 28, 28]", [64, 6, 28 * 28]),
            ("BN + ReLU [64, 16, 10, 10]", [64, 16, 10 * 10]),
            ("BN + ReLU [64, 120]", [64, 120, 1]),
            ("BN + ReLU [64, 84]", [64, 84, 1]),
        ] {
            let x = values(dims.iter().product(), 3);
            let (gamma, beta) = (values(dims[1], 4), values(dims[1], 5));
            let run = |k| compare::bn_forward(k, &x, dims, &gamma, &beta, 1e-5, true);
            let ((ours, ours_stats), (theirs, their_stats)) =
                (run(Kernels::Ours), run(Kernels::Macerator));
            let difference = largest_difference(&ours, &theirs)
                .max(largest_difference(&ours_stats, &their_stats));
            worst = worst.max(difference);
            let times = time(
                runs,
                || drop(std::hint::black_box(run(Kernels::Ours))),
                || drop(std::hint::black_box(run(Kernels::Macerator))),
            );
            row(label, times, difference);
        }
    });
    // The sums are taken in other orders (lanes reduced in a tree); an indexing slip is off by O(1).
    assert!(worst <= 1e-4, "ours and macerator's disagree: {worst:e}");
    println!("outputs agree (largest difference {worst:.1e})");
}
