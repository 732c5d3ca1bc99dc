//! Spotlight's core: the paper's method, the same code natively and in wasm32, on whichever burn
//! [`Device`](burn::tensor::Device) it is handed.
//!
//! data ([`data`]: load, flip labels, inject OOD, member split) → model ([`model`]: LeNet ± BN,
//! γ/σ read-out and regularizer) → train ([`train`]: a loop you can step) → experiment
//! ([`config::Config`] in, [`report::Report`] out: [`experiment::Experiment`] steps it, [`driver`] runs it for the app and the CLI,
//! [`jobs`] cuts it into one job per model for sharded, resumable runs) → the paper's claims
//! ([`paper`]).

pub mod attack;
pub mod backend;
pub mod bench;
pub mod config;
pub mod driver;
pub mod experiment;
pub mod experiment_data;
pub mod jobs;
pub mod link;
pub mod model;
pub mod paper;
pub mod report;
pub mod train;
pub mod yielder;

pub use burn;
pub use spotlight_data as data;

pub use config::{Config, ConfigError, Variant};
pub use report::Report;
