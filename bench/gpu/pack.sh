#!/usr/bin/env bash
# Builds `spotlight` with the native wgpu backend and packs Spotlight's GPU check (bench/gpu/run.sh)
# into one self-contained folder and tarball for a Linux machine with an NVIDIA GPU and no network:
#   target/gpu-check/            spotlight.gz (the binary, stripped and gzipped: 72 MiB unpacked; run.sh
#                                unpacks it), run.sh, vkprobe.py, data/mnist.spds.gz, lib/libvulkan.so.1
#                                (this machine's Vulkan loader), MANIFEST, SHA256SUMS, README.txt
#   target/gpu-check.tar.gz      the same folder
# On the GPU machine: tar xzf gpu-check.tar.gz && gpu-check/run.sh
# The NVIDIA Vulkan driver (its ICD file nvidia_icd.json and libGLX_nvidia.so.0) comes with the NVIDIA
# driver there and is not packed; the loader is used only where the system has none.
# Environment: PACK_DIR (the folder, default target/gpu-check), PACK_FASHION=1 (also pack
# fashion.spds.gz, 29 MiB: only runs naming dataset=fashion or ood_source=other need it),
# FEATURES (the CLI's cargo features, default wgpu; wgpu,autotune turns on cubecl's autotune, to
# compare: build it with another CARGO_TARGET_DIR and PACK_DIR), CARGO_TARGET_DIR (as cargo reads it). The pack must stay within 64 MiB (checked).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
dest=${PACK_DIR:-target/gpu-check}
limit=$((64 * 1024 * 1024))

features=${FEATURES:-wgpu}
echo "pack.sh: cargo build --release --locked -p spotlight-cli --features $features (nice -n 10; ~20-30 min cold)"
nice -n 10 cargo build --release --locked -p spotlight-cli --features "$features"
bin=${CARGO_TARGET_DIR:-target}/release/spotlight
# The wgpu backend's crates leave their source paths in the binary; a build without them does not.
grep -q 'wgpu-hal-' "$bin" || { echo "pack.sh: $bin has no wgpu backend in it" >&2; exit 1; }

# This machine's Vulkan loader, installed if missing (Debian: libvulkan1).
find_loader() {
    { ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null; } |
        awk '$1 == "libvulkan.so.1" && /x86-64/ { print $NF; exit }'
}
loader=$(find_loader)
if [ -z "$loader" ]; then
    echo "pack.sh: no libvulkan.so.1 here; apt-get install -y libvulkan1"
    apt-get install -y --no-install-recommends libvulkan1 ||
        { apt-get update && apt-get install -y --no-install-recommends libvulkan1; }
    loader=$(find_loader)
fi
[ -n "$loader" ] || { echo "pack.sh: no Vulkan loader (libvulkan.so.1) to pack" >&2; exit 1; }

[ -f public/data/mnist.spds.gz ] ||
    { echo "pack.sh: public/data/mnist.spds.gz missing: ./x.sh datasets makes it" >&2; exit 1; }

rm -rf "$dest"
mkdir -p "$dest/lib" "$dest/data"
cp "$bin" "$dest/spotlight"
strip "$dest/spotlight"
# The newest glibc symbol version a binary or library needs (GLIBC_2.x).
glibc_need() { objdump -T "$1" 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1; }
bin_sha=$(sha256sum "$dest/spotlight" | cut -d' ' -f1)
bin_glibc=$(glibc_need "$dest/spotlight")
bin_mib=$(stat -c %s "$dest/spotlight" | awk '{ printf "%.1f", $1 / 1048576 }')
gzip -9 -n "$dest/spotlight"
cp bench/gpu/run.sh bench/gpu/vkprobe.py "$dest/"
cp public/data/mnist.spds.gz "$dest/data/"
[ "${PACK_FASHION:-0}" = 1 ] && cp public/data/fashion.spds.gz "$dest/data/"
cp -L "$loader" "$dest/lib/libvulkan.so.1"
loader_real=$(readlink -f "$loader")
loader_pkg=$(dpkg -S "$loader_real" 2>/dev/null | cut -d: -f1 | head -1)
loader_ver=$([ -n "$loader_pkg" ] && dpkg-query -W -f='${Version}' "$loader_pkg" 2>/dev/null || true)
echo "$(basename "$loader_real")${loader_pkg:+ from $loader_pkg $loader_ver}" >"$dest/lib/VERSION"

dirty=$(git status --porcelain --untracked-files=no 2>/dev/null | wc -l)
{
    echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo ?)$([ "$dirty" != 0 ] && echo " + $dirty changed tracked files")"
    echo "built: $(date -u '+%Y-%m-%d %H:%M UTC') on $(. /etc/os-release && echo "$PRETTY_NAME"), $(rustc -V)"
    echo "build: cargo build --release --locked -p spotlight-cli --features $features (then stripped)"
    echo "spotlight: $bin_mib MiB stripped, sha256 $bin_sha (spotlight.gz unpacked)"
    echo "needs: glibc >= ${bin_glibc#GLIBC_} (spotlight), $(glibc_need "$dest/lib/libvulkan.so.1" | sed 's/GLIBC_//') (the packed loader)"
    echo "loader: lib/libvulkan.so.1 = $(cat "$dest/lib/VERSION")"
} >"$dest/MANIFEST"
(cd "$dest" && find . -type f ! -name MANIFEST ! -name SHA256SUMS | sort | xargs sha256sum) >"$dest/SHA256SUMS"

cat >"$dest/README.txt" <<'EOF'
Spotlight's GPU check, packed by bench/gpu/pack.sh. On a Linux x86-64 machine with an NVIDIA GPU
(no network needed):

    ./run.sh            # the check: bench wgpu vs flex, then the default comparison on wgpu (minutes)
    ./run.sh --quick    # a smoke test
    ./run.sh --help     # its options (environment variables)

It prints the GPU (nvidia-smi), the Vulkan loader, drivers and devices, bench's samples/s and the
run's wall time, and keeps all of it in results-UTC_TIME/ (gpu-check.log, bench.txt, run.txt,
spotlight-report.json, nvidia-smi-samples.csv): bring that folder back.
Vulkan on NVIDIA needs the driver's ICD file (nvidia_icd.json, installed with the NVIDIA driver; in a
container, NVIDIA_DRIVER_CAPABILITIES=all or one naming 'graphics'). lib/libvulkan.so.1 is a Vulkan
loader (Debian 12's) used only when the system has none. MANIFEST says what was built from what.
EOF

tarball=$dest.tar.gz
tar -C "$(dirname "$dest")" -czf "$tarball" "$(basename "$dest")"
size=$(du -sb "$dest" | cut -f1)
tsize=$(stat -c %s "$tarball")
echo "pack.sh: $dest: $(awk -v s="$size" 'BEGIN { printf "%.1f MiB", s / 1048576 }'); $tarball: $(awk -v s="$tsize" 'BEGIN { printf "%.1f MiB", s / 1048576 }')"
find "$dest" -type f -printf '%s %p\n' | sort -k2 | awk '{ printf "  %8.1f MiB  %s\n", $1 / 1048576, $2 }'
cat "$dest/MANIFEST"
if [ "$size" -gt "$limit" ] || [ "$tsize" -gt "$limit" ]; then
    echo "pack.sh: the pack is over 64 MiB" >&2
    exit 1
fi
echo "pack.sh: done. Test here: $dest/run.sh --quick (a CPU Vulkan: apt-get install mesa-vulkan-drivers)"
