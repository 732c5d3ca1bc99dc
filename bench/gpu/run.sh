#!/usr/bin/env bash
# Spotlight's GPU check (issue #33): runs a prebuilt `spotlight` (built with `--features wgpu`)
# through Vulkan, offline, in one command of a few minutes:
#   1. what the machine is: the GPU (nvidia-smi), the Vulkan loader and drivers (ICD files,
#      `vulkaninfo --summary`), the Vulkan devices the loader lists (vkprobe.py);
#   2. `spotlight bench --backends wgpu,flex` (train samples/s per batch size, both backends; 4
#      shadow models one by one and stacked as one network);
#   3. `spotlight run --backend wgpu` of the default comparison (the page's GPU default:
#      2,000 samples × 8 epochs, 4 shadows a model), with the adapter it took and its wall time by phase.
# Everything it prints also lands in RESULTS/gpu-check.log, beside the run's report.
#
# Made by bench/gpu/pack.sh (which puts the binary (gzipped), this script, vkprobe.py, the MNIST asset and a
# Vulkan loader in one folder); it also runs from the repository (target/release/spotlight,
# public/data). Usage:
#   ./run.sh            the real check (about 2-5 min on a GPU)
#   ./run.sh --quick    a smoke test: 2 bench steps at batch 64, a tiny run (a CPU Vulkan such
#                       as lavapipe takes minutes even so)
# Environment (each optional):
#   SPOTLIGHT_BENCH_ARGS   bench's sizes [--batches 64,128,256 --steps 50; --quick: --batches 64 --steps 2]
#   SPOTLIGHT_RUN_LINK     the run's settings as an app link's query ['' = the default comparison;
#                          --quick: train_size=300&test_size=300&epochs=1&shadow_models=2]
#   SPOTLIGHT_BIN, SPOTLIGHT_DATA_DIR   the binary and the *.spds.gz folder [found beside this script]
#   SPOTLIGHT_RESULTS      where the log and the report go [./results-UTC_TIME beside this script]
#   SPOTLIGHT_REQUIRE_GPU=1  stop when Vulkan lists only CPU devices (lavapipe) instead of warning
#   SPOTLIGHT_PACK_LOADER=1  use the pack's lib/libvulkan.so.1 even where the system has a loader
#                          (by default only where it has none)
# Exit status: 0 done; 1 no Vulkan device, a failed step or nothing measured on wgpu; 2 bad usage.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
quick=0
for a in "$@"; do
    case $a in
        --quick) quick=1 ;;
        -h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "run.sh: unknown argument '$a' (try --help)" >&2; exit 2 ;;
    esac
done
if [ "$quick" = 1 ]; then
    bench_args=${SPOTLIGHT_BENCH_ARGS-"--batches 64 --steps 2"}
    run_link=${SPOTLIGHT_RUN_LINK-"train_size=300&test_size=300&epochs=1&shadow_models=2"}
else
    bench_args=${SPOTLIGHT_BENCH_ARGS-"--batches 64,128,256 --steps 50"}
    run_link=${SPOTLIGHT_RUN_LINK-""}
fi

die() { echo "run.sh: $*" >&2; exit 1; }
first_of() { for c in "$@"; do [ -e "$c" ] && { echo "$c"; return 0; }; done; return 1; }
# The pack holds the binary gzipped (spotlight.gz): unpacked beside this script, else in a temp folder.
if [ -z "${SPOTLIGHT_BIN:-}" ] && [ ! -e "$here/spotlight" ] && [ -e "$here/spotlight.gz" ]; then
    unpack_to=$here
    [ -w "$here" ] || unpack_to=$(mktemp -d)
    gzip -dc "$here/spotlight.gz" >"$unpack_to/spotlight.part" && chmod +x "$unpack_to/spotlight.part" &&
        mv "$unpack_to/spotlight.part" "$unpack_to/spotlight" || die "cannot unpack $here/spotlight.gz"
    SPOTLIGHT_BIN=$unpack_to/spotlight
fi
bin=${SPOTLIGHT_BIN:-$(first_of "$here/spotlight" "$here/../../target/release/spotlight")} ||
    die "no spotlight binary beside this script or in target/release (set SPOTLIGHT_BIN)"
data=${SPOTLIGHT_DATA_DIR:-$(first_of "$here/data/mnist.spds.gz" "$here/../../public/data/mnist.spds.gz")} ||
    die "no mnist.spds.gz in $here/data or public/data (set SPOTLIGHT_DATA_DIR)"
[ -d "$data" ] || data=$(dirname "$data")
results=${SPOTLIGHT_RESULTS:-$here/results-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$results" || die "cannot create $results"
exec > >(tee "$results/gpu-check.log") 2>&1
tee_pid=$!
sampler=""
# Stops the GPU sampler (nvidia-smi, started below), if running.
stop_sampler() { [ -n "$sampler" ] && kill "$sampler" 2>/dev/null && wait "$sampler" 2>/dev/null; sampler=""; }
# At exit: stop the GPU sampler, then let tee write the last lines before the shell returns.
finish() {
    stop_sampler
    exec >&- 2>&-
    wait "$tee_pid" 2>/dev/null
}
trap finish EXIT

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
section() { printf '\n=== %s\n' "$*"; }

section "Spotlight GPU check$([ "$quick" = 1 ] && echo ' (--quick: a smoke test, not the real check)')"
echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); host: $(hostname 2>/dev/null || echo ?); $(uname -srm)"
echo "binary: $bin"
[ -f "$here/MANIFEST" ] && sed 's/^/  /' "$here/MANIFEST"
echo "data: $data; results: $results"
echo "glibc: $(ldd --version 2>/dev/null | head -1)"

section "GPU (nvidia-smi)"
gpu_name=""
if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=index,name,driver_version,memory.total,pstate,clocks.max.sm --format=csv ||
        nvidia-smi -L
    nvidia-smi 2>/dev/null | grep -m1 -o 'CUDA Version: *[0-9.]*'
    gpu_name=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
else
    echo "nvidia-smi: not found (no NVIDIA driver tools on PATH)"
fi

section "Vulkan loader and drivers"
# The pack's loader only where the system has none: a system loader is the one its driver expects.
has_system_loader() {
    { ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null; } | grep -q 'libvulkan\.so\.1 ' && return 0
    first_of /usr/lib/x86_64-linux-gnu/libvulkan.so.1 /usr/lib64/libvulkan.so.1 /usr/lib/libvulkan.so.1 \
        /lib/x86_64-linux-gnu/libvulkan.so.1 >/dev/null
}
if [ "${SPOTLIGHT_PACK_LOADER:-0}" != 1 ] && has_system_loader; then
    echo "loader: the system's libvulkan.so.1"
elif [ -e "$here/lib/libvulkan.so.1" ]; then
    export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    echo "loader: $([ "${SPOTLIGHT_PACK_LOADER:-0}" = 1 ] && echo 'SPOTLIGHT_PACK_LOADER=1' || echo 'none on the system');" \
        "using the pack's $here/lib/libvulkan.so.1 ($(cat "$here/lib/VERSION" 2>/dev/null || echo '?'))"
else
    echo "loader: no libvulkan.so.1 on the system nor in $here/lib (wgpu will find no Vulkan)"
fi
for v in VK_ICD_FILENAMES VK_DRIVER_FILES VK_ADD_DRIVER_FILES; do
    [ -n "${!v:-}" ] && echo "$v=${!v}"
done
icds=$(ls -1 /etc/vulkan/icd.d/*.json /usr/share/vulkan/icd.d/*.json /usr/local/share/vulkan/icd.d/*.json \
    "${XDG_DATA_HOME:-$HOME/.local/share}"/vulkan/icd.d/*.json 2>/dev/null)
echo "ICD files (the drivers the loader may load): ${icds:-none in /etc/vulkan, /usr/share/vulkan, /usr/local/share/vulkan}" | tr '\n' ' '
echo
if command -v nvidia-smi >/dev/null 2>&1 && ! grep -q nvidia <<<"$icds" && [ -z "${VK_ICD_FILENAMES:-}${VK_DRIVER_FILES:-}" ]; then
    echo "WARNING: an NVIDIA driver but no nvidia_icd.json: Vulkan will not see the GPU. The driver's"
    echo "  package installs it (/usr/share/vulkan/icd.d or /etc/vulkan/icd.d); in a container, the NVIDIA"
    echo "  runtime mounts it only with NVIDIA_DRIVER_CAPABILITIES=all (or one naming 'graphics')."
fi
# Mesa prints "XDG_RUNTIME_DIR is invalid" on every Vulkan call without it.
if [ -z "${XDG_RUNTIME_DIR:-}" ] || [ ! -d "${XDG_RUNTIME_DIR:-}" ]; then
    XDG_RUNTIME_DIR=$(mktemp -d) && export XDG_RUNTIME_DIR
fi
if command -v vulkaninfo >/dev/null 2>&1; then
    echo "--- vulkaninfo --summary (its Devices part)"
    vi=$(vulkaninfo --summary 2>/dev/null)
    vi_rc=$?
    if grep -q '^Devices:' <<<"$vi"; then sed -n '/^Devices:/,$p' <<<"$vi"
    else echo "(vulkaninfo listed no device: exit $vi_rc)"; fi
else
    echo "vulkaninfo: not found (package vulkan-tools); the device list below is vkprobe.py's"
fi

section "Vulkan devices (vkprobe.py: the loader and drivers spotlight uses)"
probe=none
vk_device=""
if command -v python3 >/dev/null 2>&1 && [ -f "$here/vkprobe.py" ]; then
    probe_out=$(python3 "$here/vkprobe.py")
    probe_rc=$?
    echo "$probe_out"
    vk_device=$(grep -m1 '^Vulkan device 0: ' <<<"$probe_out" | sed 's/^Vulkan device 0: //')
    case $probe_rc in
        0) probe=gpu ;;
        3) probe=cpu ;;
        *) probe=nodevice ;;
    esac
elif command -v vulkaninfo >/dev/null 2>&1; then
    types=$(vulkaninfo --summary 2>/dev/null | grep -o 'PHYSICAL_DEVICE_TYPE_[A-Z_]*')
    if [ -z "$types" ]; then probe=nodevice
    elif grep -qv 'TYPE_CPU' <<<"$types"; then probe=gpu
    else probe=cpu; fi
    echo "no python3: read vulkaninfo's device types: $(echo $types)"
else
    echo "no python3 and no vulkaninfo: cannot list the Vulkan devices; spotlight says if it finds no adapter"
fi
case $probe in
    nodevice)
        die "no Vulkan device. Vulkan needs a loader (libvulkan.so.1) and a driver's ICD file (NVIDIA: nvidia_icd.json, installed with the NVIDIA driver; Mesa: mesa-vulkan-drivers); see above what is missing. Nothing was run." ;;
    cpu)
        echo "WARNING: Vulkan lists only CPU devices (lavapipe/SwiftShader): every wgpu figure below is a CPU's, NOT a GPU's."
        [ "${SPOTLIGHT_REQUIRE_GPU:-0}" = 1 ] && die "SPOTLIGHT_REQUIRE_GPU=1 and no GPU on Vulkan" ;;
esac

# GPU load while spotlight runs (0.5 s samples), to show the work went to the GPU.
if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader,nounits -lms 500 \
        >"$results/nvidia-smi-samples.csv" 2>/dev/null &
    sampler=$!
fi
status=0
section "spotlight bench --backends wgpu,flex $bench_args --no-torch"
t0=$(now)
# shellcheck disable=SC2086 # bench_args are words on purpose
"$bin" bench --backends wgpu,flex $bench_args --no-torch --data-dir "$data" | tee "$results/bench.txt"
bench_rc=${PIPESTATUS[0]}
bench_s=$(secs "$t0" "$(now)")
echo "(bench: exit $bench_rc, $bench_s s)"
wgpu_rows=$(awk 'NF > 7 && $1 == "wgpu" && ($2 == "BN" || $2 == "no-BN") && $4 ~ /^[0-9]+$/ { n++ } END { print n + 0 }' "$results/bench.txt")
if [ "$bench_rc" != 0 ] || [ "$wgpu_rows" = 0 ]; then
    echo "run.sh: bench measured no wgpu row (exit $bench_rc): $(grep -m1 '^wgpu ' "$results/bench.txt" || echo 'see above')"
    status=1
fi

if [ "$status" = 0 ]; then
    section "spotlight run --backend wgpu --link '$run_link' --quiet$([ -z "$run_link" ] && echo '   (the default comparison)')"
    t0=$(now)
    "$bin" run --backend wgpu --link "$run_link" --quiet --data-dir "$data" \
        --out "$results/spotlight-report.json" | tee "$results/run.txt"
    run_rc=${PIPESTATUS[0]}
    run_s=$(secs "$t0" "$(now)")
    echo "(run: exit $run_rc, $run_s s with the process's start and exit)"
    [ "$run_rc" = 0 ] || status=1
fi
stop_sampler

section "Summary$([ "$quick" = 1 ] && echo ' (--quick)')"
echo "GPU (nvidia-smi): ${gpu_name:-none found}"
echo "Vulkan device 0 (vkprobe): ${vk_device:-not listed}"
[ "$probe" = cpu ] && echo "  => a CPU Vulkan device: NOT a GPU figure"
echo "the adapter wgpu took: $(grep -o -m1 'backend wgpu: .*' "$results/run.txt" 2>/dev/null || echo 'not known (no run)')"
# The throughput rows have 10 columns, the shadow models' rows (one by one vs stacked) 7.
echo "bench, train samples/s (batch: wgpu / flex):"
for model in BN no-BN; do
    for b in $(awk -v m="$model" 'NF > 7 && $1 == "wgpu" && $2 == m && $4 ~ /^[0-9]+$/ { print $3 }' "$results/bench.txt"); do
        w=$(awk -v m="$model" -v b="$b" 'NF > 7 && $1 == "wgpu" && $2 == m && $3 == b { print $4 }' "$results/bench.txt")
        f=$(awk -v m="$model" -v b="$b" 'NF > 7 && $1 == "flex" && $2 == m && $3 == b { print $4 }' "$results/bench.txt")
        echo "  $model batch $b: wgpu $w / flex ${f:-—}"
    done
done
echo "bench, shadow models one by one -> stacked, samples/s:"
awk 'NF == 7 && ($1 == "wgpu" || $1 == "flex") { printf "  %s %s batch %s, %s models: %s -> %s (%s)\n", $1, $2, $3, $4, $5, $6, $7 }' "$results/bench.txt"
echo "bench: $bench_s s in all"
if [ -n "${run_s:-}" ]; then
    echo "run on wgpu: $(grep -m1 '^wall time' "$results/run.txt" | sed 's/; report.*//')"
    echo "  ($run_s s with the process's start; exit $run_rc)"
fi
if [ -s "$results/nvidia-smi-samples.csv" ]; then
    awk -F', *' '{ if ($1 > u) u = $1; if ($2 > m) m = $2; n++ }
        END { printf "GPU while spotlight ran: peak utilization %d %%, peak memory used %d MiB (%d samples at 0.5 s)\n", u, m, n }' \
        "$results/nvidia-smi-samples.csv"
fi
echo "log and report: $results"
[ "$status" = 0 ] && echo "GPU check: done" || echo "GPU check: FAILED (see above)"
exit "$status"
