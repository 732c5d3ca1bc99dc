//! Shared helpers of the core's integration tests: the real datasets, prepared by
//! `prepare-data` under `public/data/`.

#![allow(dead_code)]

use std::path::PathBuf;

use spotlight_core::config::DatasetName;
use spotlight_core::data::Dataset;

pub fn asset_path(name: DatasetName) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../public/data").join(name.asset_file())
}

/// Loads a prepared dataset, or fails with how to prepare it.
pub fn load(name: DatasetName) -> Dataset {
    let path = asset_path(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run `./x.sh datasets` (npm ci in datasets/, then prepare-data) first",
            path.display()
        )
    });
    Dataset::decode(&path.display().to_string(), &bytes).expect("a valid asset")
}
