//! The peak f32 rate of the cores the kernels run on, for `spotlight bench`'s "share of peak": a
//! loop of fused multiply-adds on the vector unit the kernels pick ([`Isa::best`]), on every thread
//! of rayon's pool at once (the threads the kernels split a batch across).
//!
//! Each thread keeps [`ACCUMULATORS`] vectors, each a chain of dependent multiply-adds
//! (`acc ← acc·a + b`), so that the unit always has independent work while one multiply-add waits
//! on the last (a few cycles of latency, two units on many x86 cores). A multiply-add counts as two
//! FLOPs per lane (the 4-lane unit multiplies then adds, also two): FLOPs = 2 × lanes ×
//! accumulators × iterations. No loads or stores: the rate is the arithmetic's ceiling, which no
//! real kernel reaches.
//!
//! Native only (rayon's threads and `std::time::Instant`; the browser has neither).

use std::hint::black_box;
use std::time::Instant;

use super::simd::{Isa, Vector, for_each_isa};

/// Independent vector accumulators per thread: enough to hide a multiply-add's latency on two
/// units (4 cycles × 2), and with `a` and `b` within AVX2's 16 registers.
const ACCUMULATORS: usize = 12;

/// Iterations per call of the loop, between readings of the clock (about 2 µs on a 3 GHz core).
const CHUNK: usize = 4096;

/// The peak f32 rate measured by [`peak_flops`].
#[derive(Clone, Debug, PartialEq)]
pub struct PeakFlops {
    /// FLOPs per second, all threads together (each thread's rate over its own time, summed).
    pub flops_per_s: f64,
    /// The threads that ran the loop at once (rayon's pool).
    pub threads: usize,
    /// The vector unit, as [`vector_unit`](crate::vector_unit) names it.
    pub unit: &'static str,
    /// f32 lanes of one vector of that unit.
    pub lanes: usize,
}

for_each_isa! {
    /// `iterations` rounds of one multiply-add on each of [`ACCUMULATORS`] vectors; writes the
    /// accumulators' sum to `sum` (so that the loop is not optimized away) and the vector's lanes
    /// to `lanes`.
    fma_chunk => fma_kernel(iterations: usize, sum: &mut f32, lanes: &mut usize)
}

fn fma_kernel<V: Vector>(iterations: usize, sum: &mut f32, lanes: &mut usize) {
    // acc ← acc·½ + ½ converges to 1: no overflow, no subnormals. The multiplicand is the
    // accumulator itself, so that the product cannot be taken out of the loop (the 4-lane unit
    // multiplies then adds), and the constants come through `black_box`, so that nothing folds.
    let a = V::splat(black_box(0.5));
    let b = V::splat(black_box(0.5));
    let mut acc = [V::splat(black_box(0.0)); ACCUMULATORS];
    for _ in 0..iterations {
        for x in acc.iter_mut() {
            *x = b.mul_add(*x, a);
        }
    }
    *sum = acc.iter().fold(V::zero(), |s, x| s.add(*x)).sum();
    *lanes = V::L;
}

/// One thread's run: FLOPs per second of the loop on `isa` for about `seconds`, and its lanes.
fn one_thread(isa: Isa, seconds: f64) -> (f64, usize) {
    let (mut lanes, mut sum, mut chunks) = (1, 0.0f32, 0u64);
    let start = Instant::now();
    let elapsed = loop {
        let mut s = 0.0;
        fma_chunk(isa, CHUNK, &mut s, &mut lanes);
        sum += s;
        chunks += 1;
        let t = start.elapsed().as_secs_f64();
        if t >= seconds {
            break t.max(1e-9);
        }
    };
    black_box(sum);
    let flops = 2.0 * lanes as f64 * ACCUMULATORS as f64 * CHUNK as f64 * chunks as f64;
    (flops / elapsed, lanes)
}

/// The peak f32 rate of this machine's cores: the multiply-add loop on [`Isa::best`]'s vector
/// unit, run for about `seconds` on every thread of rayon's current pool at once
/// (`rayon::broadcast`), each thread's rate summed. Blocks for about `seconds`.
pub fn peak_flops(seconds: f64) -> PeakFlops {
    peak_flops_on(Isa::best(), seconds)
}

fn peak_flops_on(isa: Isa, seconds: f64) -> PeakFlops {
    let seconds = seconds.max(1e-3);
    let rates = rayon::broadcast(|_| one_thread(isa, seconds));
    PeakFlops {
        flops_per_s: rates.iter().map(|r| r.0).sum(),
        threads: rates.len(),
        unit: isa.name(),
        lanes: rates.first().map_or(1, |r| r.1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every vector unit this CPU runs gives a positive, finite rate with its own lanes, on every
    /// thread of the pool. (No comparison of rates: timings on a shared machine are not a test.)
    #[test]
    fn peak_is_a_positive_rate_on_each_unit() {
        for isa in Isa::available() {
            let p = peak_flops_on(isa, 0.02);
            assert!(p.flops_per_s.is_finite() && p.flops_per_s > 0.0, "{isa:?}: {p:?}");
            assert_eq!(p.threads, rayon::current_num_threads());
            assert_eq!(p.unit, isa.name());
            let lanes = match isa {
                Isa::Avx512 => 16,
                Isa::Avx2 => 8,
                Isa::Plain => 4,
            };
            assert_eq!(p.lanes, lanes, "{isa:?}");
        }
    }

    /// The public entry names the unit the kernels run on, and counts each of the pool's threads.
    #[test]
    fn peak_names_the_kernels_unit() {
        let p = peak_flops(0.02);
        assert!(p.flops_per_s.is_finite() && p.flops_per_s > 0.0, "{p:?}");
        assert_eq!(p.unit, crate::vector_unit());
        assert!(p.threads >= 1);
        // In a pool of one thread, one thread runs the loop.
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let p1 = one.install(|| peak_flops(0.02));
        assert_eq!(p1.threads, 1);
        assert!(p1.flops_per_s.is_finite() && p1.flops_per_s > 0.0, "{p1:?}");
    }

    /// The loop computes what it says: acc ← acc·½ + ½ from 0, n times, is 1 − 2⁻ⁿ per lane.
    #[test]
    fn peak_loop_computes_its_recurrence() {
        for isa in Isa::available() {
            let (mut sum, mut lanes) = (0.0, 0);
            fma_chunk(isa, 3, &mut sum, &mut lanes);
            let want = (1.0 - 0.125) * (ACCUMULATORS * lanes) as f32;
            assert!((sum - want).abs() < 1e-4, "{isa:?}: {sum} ≠ {want}");
        }
    }
}
