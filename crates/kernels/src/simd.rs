//! The vector units Spotlight's CPU kernels are compiled for, picked at run time.
//!
//! A kernel is written once, generic over a [`Vector`] (a few lanes of f32 and the operations the
//! kernels use), and [`for_each_isa!`] compiles it three times: for AVX-512 (16 lanes) and AVX2 with
//! FMA (8) on x86-64, chosen by the CPU's features when it runs, and a plain one (4 lanes, multiply
//! then add) everywhere else — older x86-64, and WebAssembly's SIMD128 in the browser. Loops that
//! do not use [`Vector`] (pooling) are compiled the same way, so LLVM vectorizes them for the wider
//! units too (the crate is otherwise built for x86-64's baseline, SSE2).
//!
//! This module's x86 intrinsics and run-time dispatch are the workspace's only SIMD `unsafe` (the
//! root Cargo.toml's lints deny it elsewhere; `mac.rs`, behind the `macerator` feature, loads and
//! stores through macerator).

/// Lanes of the widest vector here: the buffers the kernels read and write have room for a whole
/// vector at their last position, and the weight gradient's partial sums keep this many lanes per
/// weight.
pub(super) const LANES: usize = 16;

// The kernels step through rows of whole LANES-value vectors: every vector's lanes must divide it.
const _: () =
    assert!(LANES.is_multiple_of(16) && LANES.is_multiple_of(8) && LANES.is_multiple_of(4));

/// The vector unit a kernel is compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Isa {
    /// x86-64's AVX-512 (with FMA): 16 lanes.
    Avx512,
    /// x86-64's AVX2 with FMA: 8 lanes.
    Avx2,
    /// 4 lanes, multiply then add: what LLVM makes of it for SSE2, NEON or SIMD128.
    Plain,
}

impl Isa {
    /// The widest this CPU runs.
    pub(super) fn best() -> Self {
        [Self::Avx512, Self::Avx2].into_iter().find(|isa| isa.runs()).unwrap_or(Self::Plain)
    }

    /// Each one this CPU runs, the widest first (the tests compare them all).
    #[cfg(test)]
    pub(super) fn available() -> Vec<Self> {
        [Self::Avx512, Self::Avx2]
            .into_iter()
            .filter(|isa| isa.runs())
            .chain([Self::Plain])
            .collect()
    }

    /// Its name, as the benchmark prints it.
    pub(super) fn name(self) -> &'static str {
        match self {
            Self::Avx512 => "AVX-512 (16 lanes)",
            Self::Avx2 => "AVX2 + FMA (8 lanes)",
            Self::Plain => "4-lane vectors (SSE2, NEON or WebAssembly SIMD128)",
        }
    }

    /// Whether this CPU has the features the kernels compiled for `self` use.
    pub(super) fn runs(self) -> bool {
        match self {
            #[cfg(target_arch = "x86_64")]
            Self::Avx512 => {
                is_x86_feature_detected!("avx512f")
                    && is_x86_feature_detected!("avx2")
                    && is_x86_feature_detected!("fma")
            }
            #[cfg(target_arch = "x86_64")]
            Self::Avx2 => is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma"),
            Self::Plain => true,
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }
}

/// `$name(isa, args…)`: the generic kernel `$kernel::<V>(args…)` compiled for `isa`'s vector
/// unit (the plain one when this CPU lacks it).
macro_rules! for_each_isa {
    ($(#[$doc:meta])* $name:ident => $kernel:ident($($arg:ident: $ty:ty),* $(,)?)) => {
        $(#[$doc])*
        pub(super) fn $name(isa: $crate::simd::Isa, $($arg: $ty),*) {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx512f,avx2,fma")]
                fn avx512($($arg: $ty),*) {
                    $kernel::<$crate::simd::x86::Z>($($arg),*)
                }
                #[target_feature(enable = "avx2,fma")]
                fn avx2($($arg: $ty),*) {
                    $kernel::<$crate::simd::x86::Y>($($arg),*)
                }
                if isa == $crate::simd::Isa::Avx512 && isa.runs() {
                    #[allow(unsafe_code)]
                    // SAFETY: this CPU has AVX-512F, AVX2 and FMA (`runs`).
                    return unsafe { avx512($($arg),*) };
                }
                if isa == $crate::simd::Isa::Avx2 && isa.runs() {
                    #[allow(unsafe_code)]
                    // SAFETY: this CPU has AVX2 and FMA (`runs`).
                    return unsafe { avx2($($arg),*) };
                }
            }
            let _ = isa;
            $kernel::<[f32; 4]>($($arg),*)
        }
    };
}
pub(super) use for_each_isa;

/// A vector of f32 lanes and the few operations the kernels use. Implemented by `[f32; 4]` (plain
/// arithmetic LLVM turns into the target's 4-lane vectors) and, on x86-64, by AVX2's and AVX-512's
/// registers through their intrinsics: left to itself, LLVM vectorized the plain kernels for
/// AVX-512 across the taps, with gathers, and ran them 3× slower than `gemm`.
pub(super) trait Vector: Copy {
    /// The lanes.
    const L: usize;
    /// Vector registers the instruction set has: blocks of accumulators are sized to fit.
    const REGS: usize = 16;
    fn zero() -> Self;
    fn splat(v: f32) -> Self;
    /// The first `L` values of `s`.
    fn load(s: &[f32]) -> Self;
    /// Into the first `L` values of `s`.
    fn store(self, s: &mut [f32]);
    /// `self + a·b` lane by lane.
    fn mul_add(self, a: Self, b: Self) -> Self;
    fn add(self, b: Self) -> Self;
    fn sub(self, b: Self) -> Self;

    /// The sum of the lanes.
    #[inline(always)]
    fn sum(self) -> f32 {
        let mut lanes = [0.0; LANES];
        self.store(&mut lanes);
        lanes[..Self::L].iter().sum()
    }
}

impl Vector for [f32; 4] {
    const L: usize = 4;

    #[inline(always)]
    fn zero() -> Self {
        [0.0; 4]
    }

    #[inline(always)]
    fn splat(v: f32) -> Self {
        [v; 4]
    }

    #[inline(always)]
    fn load(s: &[f32]) -> Self {
        s[..4].try_into().expect("4 values")
    }

    #[inline(always)]
    fn store(self, s: &mut [f32]) {
        s[..4].copy_from_slice(&self);
    }

    #[inline(always)]
    fn mul_add(self, a: Self, b: Self) -> Self {
        [0, 1, 2, 3].map(|l| a[l] * b[l] + self[l])
    }

    #[inline(always)]
    fn add(self, b: Self) -> Self {
        [0, 1, 2, 3].map(|l| self[l] + b[l])
    }

    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        [0, 1, 2, 3].map(|l| self[l] - b[l])
    }
}

/// The intrinsics behind [`Vector`] for AVX2 and AVX-512.
///
/// SAFETY (every `unsafe` block here): these types' methods are only called from the kernels
/// [`for_each_isa!`] compiles for their instruction set and calls only where [`Isa::runs`] found
/// it; loads and stores go through a slice of exactly the vector's length (bounds checked). Nothing
/// else names `Z` or `Y`: they are visible in the crate only for `for_each_isa!`'s expansions.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
pub(super) mod x86 {
    use std::arch::x86_64::*;

    use super::Vector;

    /// AVX-512's 16 lanes.
    #[derive(Clone, Copy)]
    pub(crate) struct Z(__m512);

    impl Vector for Z {
        const L: usize = 16;
        const REGS: usize = 32;

        #[inline(always)]
        fn zero() -> Self {
            Self(unsafe { _mm512_setzero_ps() })
        }

        #[inline(always)]
        fn splat(v: f32) -> Self {
            Self(unsafe { _mm512_set1_ps(v) })
        }

        #[inline(always)]
        fn load(s: &[f32]) -> Self {
            Self(unsafe { _mm512_loadu_ps(s[..16].as_ptr()) })
        }

        #[inline(always)]
        fn store(self, s: &mut [f32]) {
            unsafe { _mm512_storeu_ps(s[..16].as_mut_ptr(), self.0) }
        }

        #[inline(always)]
        fn mul_add(self, a: Self, b: Self) -> Self {
            Self(unsafe { _mm512_fmadd_ps(a.0, b.0, self.0) })
        }

        #[inline(always)]
        fn add(self, b: Self) -> Self {
            Self(unsafe { _mm512_add_ps(self.0, b.0) })
        }

        #[inline(always)]
        fn sub(self, b: Self) -> Self {
            Self(unsafe { _mm512_sub_ps(self.0, b.0) })
        }
    }

    /// AVX2's 8 lanes, with FMA.
    #[derive(Clone, Copy)]
    pub(crate) struct Y(__m256);

    impl Vector for Y {
        const L: usize = 8;

        #[inline(always)]
        fn zero() -> Self {
            Self(unsafe { _mm256_setzero_ps() })
        }

        #[inline(always)]
        fn splat(v: f32) -> Self {
            Self(unsafe { _mm256_set1_ps(v) })
        }

        #[inline(always)]
        fn load(s: &[f32]) -> Self {
            Self(unsafe { _mm256_loadu_ps(s[..8].as_ptr()) })
        }

        #[inline(always)]
        fn store(self, s: &mut [f32]) {
            unsafe { _mm256_storeu_ps(s[..8].as_mut_ptr(), self.0) }
        }

        #[inline(always)]
        fn mul_add(self, a: Self, b: Self) -> Self {
            Self(unsafe { _mm256_fmadd_ps(a.0, b.0, self.0) })
        }

        #[inline(always)]
        fn add(self, b: Self) -> Self {
            Self(unsafe { _mm256_add_ps(self.0, b.0) })
        }

        #[inline(always)]
        fn sub(self, b: Self) -> Self {
            Self(unsafe { _mm256_sub_ps(self.0, b.0) })
        }
    }
}
