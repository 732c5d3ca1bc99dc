//! Spotlight's core: the paper's method, the same code natively and in wasm32, on whichever burn
//! [`Device`](burn::tensor::Device) it is handed.
//!
//! The method, in order:
//! * [`data`] (spotlight-data): load, flip labels, inject OOD, split members;
//!   [`experiment_data`]: those splits as one experiment's tensors on a device;
//! * [`model`]: LeNet-5 ± BN, the γ/σ read-out and the regularizers (its convolutions and poolings
//!   on burn-flex by `kernels`, the crate spotlight-kernels);
//! * [`train`]: a training loop you can step, with its per-epoch lenses (accuracy, per-sample
//!   gradient norms inside a batch, γ/σ);
//! * [`attack`]: LiRA (online, offline), the loss attack, ROC and AUC;
//! * [`jobs`]: one [`Config`] in, one job per model (sharded, resumable, in parallel workers);
//!   [`experiment`] what they share (the shadows' members, the scores, the attack report);
//!   [`board`] orders them and makes one [`Report`] of them, the jobs run by the page's Web Workers
//!   or here, in turns ([`local`]: the CLI, the page's fallback, the tests);
//! * [`paper`]: the paper's grid and its claims, decided over seeds;
//! * [`theory`]: the paper's analysis model (a linear filter ± BN, host-side f64), its gradients by
//!   hand, and the (γ/σ)² factor measured step by step.
//!
//! Around it: [`config`] (the `Config` and its field table), [`canary`] (a student's drawing planted
//! among the members), [`link`] (share links) and [`course`] (what a teacher's link hides), [`report`] (the
//! `Report` everyone reads), [`backend`] (which burn device), [`bench`] (throughput figures),
//! [`yielder`] (letting the browser breathe between steps).

pub mod attack;
pub mod backend;
pub mod bench;
pub mod board;
pub mod canary;
pub mod config;
pub mod course;
pub mod experiment;
pub mod experiment_data;
pub mod fields;
pub mod jobs;
pub mod link;
pub mod local;
pub mod model;
pub mod paper;
pub mod read;
pub mod report;
pub mod shadows;
pub mod theory;
pub mod threads;
pub mod train;
pub mod yielder;

pub use burn;
pub use spotlight_data as data;
/// Spotlight's CPU kernels on burn-flex (the crate `spotlight-kernels`): the model's convolutions,
/// poolings, BatchNorm and bias + ReLU there.
#[cfg(feature = "flex")]
pub use spotlight_kernels as kernels;

pub use config::{Config, ConfigError, Variant};
pub use report::Report;
