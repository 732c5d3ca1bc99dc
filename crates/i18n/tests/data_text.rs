//! The page's dataset and experiment-data errors in every language (`app/src/data_text.rs`, which
//! uses only the core, this crate and `app/src/notice_text.rs`), tested natively: each language
//! writes every error, and English is the data crate's and the core's text (a model's run errors,
//! `app/src/run_text.rs`, too). `notice_text.rs`'s own
//! tests (every link notice, why a `run=1` link waits, the controls' notices) run here too.

#[path = "../../../app/src/notice_text.rs"]
mod notice_text;

#[path = "../../../app/src/data_text.rs"]
mod data_text;

#[path = "../../../app/src/run_text.rs"]
mod run_text;
