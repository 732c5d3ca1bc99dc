//! Where the core's work runs natively: on one of rayon's threads.
//!
//! burn-flex and Spotlight's kernels (`kernels`) split each operation across rayon's threads. Called
//! from a thread outside rayon's pool, every such operation hands its work to the pool and sleeps
//! until it is done: two thread wake-ups per operation, dozens per training step, on a machine
//! with as many busy threads as cores. Run from one of the pool's own threads, an operation
//! splits its work with the others as rayon's `join` does, and the calling thread works too.

/// Runs `work` on one of rayon's threads natively and waits for it (the calling thread blocks);
/// in the browser, where a Web Worker is one thread, runs it here.
pub fn on_pool<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    #[cfg(not(target_arch = "wasm32"))]
    {
        rayon::scope(|_| work())
    }
    #[cfg(target_arch = "wasm32")]
    {
        work()
    }
}

#[cfg(test)]
mod tests {
    /// The work runs on one of rayon's threads (not the caller's) and its result comes back.
    #[test]
    #[cfg(not(target_arch = "wasm32"))]
    fn work_runs_on_the_pool() {
        assert_eq!(rayon::current_thread_index(), None);
        let (index, sum) =
            super::on_pool(|| (rayon::current_thread_index(), (1..=10).sum::<i32>()));
        assert!(index.is_some());
        assert_eq!(sum, 55);
    }
}
