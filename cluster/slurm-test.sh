#!/usr/bin/env bash
# ./x.sh slurm: the paper grid on a real one-node Slurm cluster, faults included (issue #34).
#
# Installs Debian's slurm-wlm and munge if missing, starts munged, slurmctld and slurmd on a config in
# a temporary directory (this machine is the one node; its own ports, socket, state and logs), runs
# `spotlight paper` as `sbatch --array=0-(N-1) cluster/paper.sbatch` with the merge as a job that
# depends on the array, and checks that the merged table is byte for byte the one
# `spotlight paper --jobs 2` writes. In that same run it:
#   1. cancels a shard while it trains (scancel), then requeues it (scontrol requeue);
#   2. kills slurmd (SIGKILL) while shards train and starts it again;
#   3. marks the node down (its running shards are requeued), then resumes it;
# and after it, 4. truncates a finished job file and resubmits the array.
# After each fault every job file that was finished before it must be untouched (same inode and
# mtime: not trained again), and the grid must complete with the same table. Everything it started
# is stopped on exit (trap), and the test fails if a process of it is left.
#
# Settings (environment): SLURM_TEST_SIZE [quick], SLURM_TEST_SEEDS [2], SLURM_TEST_SHARDS [4],
# SPOTLIGHT_BIN [target/debug/spotlight, built by cargo if needed], SLURM_TEST_KEEP=1 keeps the
# temporary directory (logs, jobs) — it is printed.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C
root=$PWD
size=${SLURM_TEST_SIZE:-quick}
seeds=${SLURM_TEST_SEEDS:-2}
shards=${SLURM_TEST_SHARDS:-4}
t0=$(date +%s)
say() { printf '[slurm %3ss] %s\n' "$(($(date +%s) - t0))" "$*"; }
fail() {
  say "FAILED: $*"
  exit 1
}

# ---------------------------------------------------------------- packages, binary, data
# Root: apt-get, and slurmd starts each job as its user (here SlurmUser=root, as in CI's container).
[ "$(id -u)" = 0 ] || fail "needs root (apt-get, slurmd); run it in a container or VM"
need=()
[ -x /usr/sbin/slurmctld ] && [ -x /usr/sbin/slurmd ] && command -v sbatch >/dev/null || need+=(slurm-wlm)
[ -x /usr/sbin/munged ] || need+=(munge)
python3 -c 'import yaml' 2>/dev/null || need+=(python3-yaml)
if [ ${#need[@]} -gt 0 ]; then
  say "installing Debian's ${need[*]} (apt-get)"
  # Packages' scripts must not start the daemons (as in a container): ours run on our own config.
  rc_policy=
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d
    rc_policy=/usr/sbin/policy-rc.d
  fi
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  [ -z "$rc_policy" ] || rm -f "$rc_policy"
fi
say "$(/usr/sbin/slurmctld -V), $(/usr/sbin/munged -V | awk '{print $1}')"

# cluster/paper-job.yaml: no Kubernetes cluster here, so it is only parsed and its fields checked.
python3 - cluster/paper-job.yaml <<'PY'
import re, sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
assert doc["apiVersion"] == "batch/v1" and doc["kind"] == "Job", doc.get("kind")
spec = doc["spec"]
assert spec["completionMode"] == "Indexed"
n = spec["completions"]
assert spec["parallelism"] == n and spec["backoffLimitPerIndex"] >= 1
pod = spec["template"]["spec"]
assert pod["restartPolicy"] == "Never"  # backoffLimitPerIndex needs it
(c,) = pod["containers"]
cmd = " ".join(c["command"] + c["args"])
m = re.search(r'--shard "\$JOB_COMPLETION_INDEX/(\d+)"', cmd)
assert m and int(m.group(1)) == n, f"--shard I/{n} with I = JOB_COMPLETION_INDEX: {cmd}"
out = re.search(r"--out-dir (\S+)", cmd).group(1)
mounts = {v["mountPath"]: v["name"] for v in c["volumeMounts"]}
assert out in mounts, f"--out-dir {out} is not a mounted volume"
vols = {v["name"]: v for v in pod["volumes"]}
assert "persistentVolumeClaim" in vols[mounts[out]], "the job store must be a shared volume"
env = {e["name"]: e["value"] for e in c.get("env", [])}
assert env.get("RAYON_NUM_THREADS") == str(c["resources"]["requests"]["cpu"]), "threads = CPUs requested"
print(f"cluster/paper-job.yaml parses: an Indexed Job of {n} pods, --shard INDEX/{n}, the job store on a PVC at {out}")
PY

bin=${SPOTLIGHT_BIN:-}
if [ -z "$bin" ]; then
  cargo build --locked -q -p spotlight-cli
  bin=$root/target/debug/spotlight
fi
[ -f public/data/mnist.spds.gz ] && [ -f public/data/fashion.spds.gz ] || ./x.sh datasets

# ---------------------------------------------------------------- the cluster
T=$(mktemp -d /tmp/spotlight-slurm.XXXXXX)
mkdir -p "$T"/{munge,state,spool,log,jobs-logs}
chmod 700 "$T/munge"
export SLURM_CONF=$T/slurm.conf
node=$(hostname -s)
munged_pid= ctld_pid= slurmd_pid=
t_cluster=

# The processes this test started and that are still alive: the daemons, and any process whose
# command line names the temporary directory or whose environment holds its slurm.conf (the
# slurmstepd of each job and what they run).
ours() {
  local p cmd
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    [ "$p" != $$ ] || continue
    cmd=$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null) || continue
    [ -n "$cmd" ] || continue
    if [[ $cmd == *"$T"* ]] || { [[ $cmd == slurmstepd* ]] && tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -x "SLURM_CONF=$T/slurm.conf" >/dev/null; }; then
      echo "$p $cmd"
    fi
  done
}

stop_pid() { # PID NAME: SIGTERM, then SIGKILL after 15 s
  local pid=$1 i
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill "$pid" 2>/dev/null || true
  for i in $(seq 30); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.5
  done
  say "$2 ($pid) did not stop on SIGTERM: SIGKILL"
  kill -9 "$pid" 2>/dev/null || true
}

cleanup() {
  local rc=$? left i
  set +e
  trap - EXIT INT TERM
  if [ -n "$ctld_pid" ] && kill -0 "$ctld_pid" 2>/dev/null && timeout 5 scontrol ping 2>/dev/null | grep "is UP" >/dev/null; then
    timeout 10 scancel --user="$(id -un)" 2>/dev/null
    for i in $(seq 20); do
      [ -z "$(timeout 5 squeue -h 2>/dev/null)" ] && break
      sleep 0.5
    done
  fi
  stop_pid "$slurmd_pid" slurmd
  stop_pid "$ctld_pid" slurmctld
  stop_pid "$munged_pid" munged
  sleep 0.5
  left=$(ours)
  if [ -n "$left" ]; then
    say "processes of the test still running after the daemons stopped (killed now):"
    echo "$left"
    awk '{print $1}' <<<"$left" | xargs -r kill -9 2>/dev/null
    rc=1
  fi
  if [ "$rc" != 0 ]; then
    say "the logs' last lines (all in $T):"
    for f in "$T"/log/*.log "$T"/jobs-logs/*.log "$T"/munge/munged.log; do
      [ -f "$f" ] && { echo "--- $f"; tail -n 25 "$f"; }
    done
  fi
  if [ "$rc" = 0 ] && [ -z "${SLURM_TEST_KEEP:-}" ]; then rm -rf "$T"; else say "kept $T"; fi
  [ -z "$t_cluster" ] || say "the cluster ran $(($(date +%s) - t_cluster)) s"
  [ "$rc" = 0 ] && say "passed in $(($(date +%s) - t0)) s; nothing of it left running" || say "FAILED (exit $rc)"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for _ in $(seq 50); do
  p=$((20000 + RANDOM % 20000))
  port_free "$p" && port_free $((p + 1)) && break
done
cpus=$(nproc)
mem=$(awk '/^MemTotal/ {print int($2 / 1024 * 0.8)}' /proc/meminfo)

dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$T/munge/munge.key"
cat >"$T/slurm.conf" <<EOF
# One node, this machine; everything under $T. Written by cluster/slurm-test.sh.
ClusterName=spotlight-test
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$p
SlurmdPort=$((p + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# cred_expire also delays the start of a requeued job (default 120 s).
AuthInfo=socket=$T/munge/munge.socket,cred_expire=10
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups, no systemd: processes tracked by parent id, tasks not bound.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=2,bf_interval=2
SlurmdParameters=config_overrides
# 1, not 2: with 2 a node an admin marked DOWN returns to service as soon as its slurmd answers.
ReturnToService=1
JobRequeue=1
SlurmctldTimeout=30
SlurmdTimeout=60
MessageTimeout=10
InactiveLimit=0
KillWait=5
MinJobAge=600
NodeName=$node NodeHostname=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF

/usr/sbin/munged -F --force --key-file="$T/munge/munge.key" --socket="$T/munge/munge.socket" \
  --pid-file="$T/munge/munged.pid" --seed-file="$T/munge/munged.seed" \
  --log-file="$T/munge/munged.log" >>"$T/munge/munged.out" 2>&1 &
munged_pid=$!
start_slurmd() {
  /usr/sbin/slurmd -D -f "$SLURM_CONF" -N "$node" >>"$T/log/slurmd.out" 2>&1 &
  slurmd_pid=$!
}
wait_until() { # SECONDS WHAT COMMAND...: polls every 0.5 s
  local limit=$1 what=$2 i
  shift 2
  for i in $(seq $((limit * 2))); do
    "$@" && return 0
    sleep 0.5
  done
  fail "waited $limit s for $what"
}
node_state() { scontrol -o show node "$node" 2>/dev/null | grep -o 'State=[^ ]*' | cut -d= -f2; }
node_is() { [[ "$(node_state)" =~ ^($1)$ ]]; }
wait_until 10 "munged" test -S "$T/munge/munge.socket"
munge -S "$T/munge/munge.socket" -n | unmunge -S "$T/munge/munge.socket" >/dev/null || fail "munge does not work"
t_cluster=$(date +%s)
/usr/sbin/slurmctld -D -c -f "$SLURM_CONF" >>"$T/log/slurmctld.out" 2>&1 &
ctld_pid=$!
ctld_up() { scontrol ping 2>/dev/null | grep "is UP" >/dev/null; }
wait_until 30 "slurmctld" ctld_up
start_slurmd
wait_until 60 "node $node to be idle" node_is IDLE
say "cluster up: slurmctld on port $p, node $node ($cpus CPUs, $mem MB) idle; config $SLURM_CONF"

# ---------------------------------------------------------------- the reference
# The models' sums are split by thread (spotlight-kernels): the reference and the shards run
# one thread each, so that their numbers, and the tables, are the same.
export RAYON_NUM_THREADS=1
ref=$T/ref out=$T/out
say "reference: spotlight paper --size $size --seeds $seeds --jobs 2 (RAYON_NUM_THREADS=1)"
t=$(date +%s)
"$bin" paper --size "$size" --seeds "$seeds" --jobs 2 --out-dir "$ref" >"$T/ref.log" 2>&1 || {
  cat "$T/ref.log"
  fail "the reference run failed"
}
total=$(find "$ref/jobs" -name '*.json' | wc -l)
say "reference: $total models in $(($(date +%s) - t)) s"

# ---------------------------------------------------------------- the grid as a job array
export SPOTLIGHT_BIN=$bin SPOTLIGHT_SIZE=$size SPOTLIGHT_SEEDS=$seeds SPOTLIGHT_DATA=$root/public/data
export SPOTLIGHT_OUT=$out SPOTLIGHT_SHARDS=$shards
sb=(sbatch --parsable --cpus-per-task=1 --mem=512M --time=30:00 --open-mode=append)
submit_array() { # INDICES
  "${sb[@]}" --array="$1" --output="$T/jobs-logs/%A_%a.log" cluster/paper.sbatch
}
submit_merge() { # ARRAY_JOB
  "${sb[@]}" --dependency="afterok:$1" --kill-on-invalid-dep=no --output="$T/jobs-logs/merge-%j.log" cluster/paper.sbatch
}
finished() { find "$out/jobs" -name '*.json' 2>/dev/null | wc -l; }
# (No `head` or `grep -q` after a pipe here: with pipefail, the writer's SIGPIPE would fail the line.)
job_state() { scontrol -o show job "$1" 2>/dev/null | grep -o 'JobState=[^ ]*' | sed -n '1s/^[^=]*=//p'; }
job_field() { scontrol -o show job "$1" 2>/dev/null | grep -o " $2=[^ ]*" | sed -n '1s/^[^=]*=//p'; }
merge_dep() { echo "$(job_state "$merge"), $(job_field "$merge" Reason), $(job_field "$merge" Dependency)"; }
# Waits for the merge job MERGE of array ARRAY. Slurm 22.05 marks an afterok dependency on a whole
# array failed (DependencyNeverSatisfied) once a task of it has been cancelled or killed with its
# node, and keeps it failed after that task is requeued and completes (setting afterok:ARRAY again
# does not help): when every task has completed, the dependency is set to the tasks one by one
# (afterok:ARRAY_0:ARRAY_1:…), and this is said.
wait_merge() { # MERGE ARRAY SECONDS
  local m=$1 a=$2 i s states tasks idle=0
  for i in $(seq $(($3 * 2))); do
    s=$(job_state "$m")
    case $s in
      COMPLETED) return 0 ;;
      PENDING | RUNNING | CONFIGURING | COMPLETING) ;;
      *) fail "merge job $m: $s" ;;
    esac
    if [[ $(job_field "$m" Reason) == Dependency* ]] && [ -z "$(squeue -h -r -j "$a")" ]; then
      idle=$((idle + 1))
    fi
    if [ "$idle" -ge 10 ]; then # the array has been done for 5 s, and the merge still waits on it
      idle=-1000
      states=$(scontrol -o show job "$a" | grep -o 'JobState=[^ ]*' | sort -u | tr '\n' ' ')
      [ "$states" = "JobState=COMPLETED " ] || fail "array $a ended with $states"
      tasks=$(squeue -h -r -t COMPLETED -j "$a" -o %i | sort | tr '\n' ':')
      tasks=afterok:${tasks%:}
      say "every task of $a has completed, yet the merge's dependency is $(job_field "$m" Dependency): scontrol update jobid=$m dependency=$tasks"
      scontrol update jobid="$m" dependency="$tasks"
      sleep 2
      [ "$(job_field "$m" Reason)" != DependencyNeverSatisfied ] || fail "merge job $m: $(job_field "$m" Dependency)"
    fi
    [ $((i % 40)) != 0 ] || say "  $(finished)/$total models done; running: $(squeue -h -r -t RUNNING -o %i | paste -sd ' ')"
    sleep 0.5
  done
  fail "waited $3 s for merge job $m"
}
running_tasks() { squeue -h -r -j "$array" -t RUNNING -o %i 2>/dev/null; }
# The finished job files: name, inode, mtime (write_atomic renames a new file into place).
snapshot() { find "$out/jobs" -name '*.json' -printf '%f %i %T@\n' 2>/dev/null | sort; }
kept() { # SNAPSHOT_FILE WHAT: every file of the snapshot is still the same file
  local changed n
  n=$(wc -l <"$1")
  changed=$(snapshot | join -a1 -o 1.1,1.2,1.3,2.2,2.3 "$1" - | awk '$2 != $4 || $3 != $5 {print $1}')
  [ -z "$changed" ] || fail "$2: finished job files were written again: $changed"
  say "$2: all $n job files finished before it are untouched (same inode and mtime)"
}

say "sbatch --array=0-$((shards - 1)) cluster/paper.sbatch ($shards shards, 1 CPU each), then the merge with --dependency=afterok"
array=$(submit_array "0-$((shards - 1))")
array=${array%%;*}
merge=$(submit_merge "$array")
merge=${merge%%;*}
say "array job $array, merge job $merge"

# Fault 1: scancel a shard while it trains (after its third model), then requeue it.
wait_until 120 "a shard with 3 finished models" bash -c '
  for t in $(squeue -h -r -j '"$array"' -t RUNNING -o %i); do
    grep -q "^  \[3/" "'"$T"'/jobs-logs/$t.log" 2>/dev/null && exit 0
  done; exit 1'
victim=
for t in $(running_tasks); do grep -q '^  \[3/' "$T/jobs-logs/$t.log" 2>/dev/null && victim=$t && break; done
[ -n "$victim" ] || fail "no running shard with 3 finished models"
snapshot >"$T/before-1"
say "fault 1: scancel $victim while it trains ($(grep -c '^  \[' "$T/jobs-logs/$victim.log") of its models done; $(finished)/$total in all)"
scancel "$victim"
wait_until 30 "$victim to be cancelled" bash -c '[[ $(scontrol -o show job '"$victim"' | grep -o "JobState=[^ ]*") == JobState=CANCELLED ]]'
say "fault 1: $victim is $(job_state "$victim"); merge job: $(job_state "$merge") ($(job_field "$merge" Reason))"
scontrol requeue "$victim" || fail "scontrol requeue $victim"
sleep 1
say "fault 1: scontrol requeue $victim: $(job_state "$victim") (restarts: $(job_field "$victim" Restarts)); merge: $(merge_dep)"

# Fault 2: SIGKILL slurmd while shards train; start it again.
wait_until 180 "a third of the grid" bash -c '[ $(find '"$out"'/jobs -name "*.json" | wc -l) -ge '$((total / 3))' ] && [ -n "$(squeue -h -r -j '"$array"' -t RUNNING)" ]'
snapshot >"$T/before-2"
trainers=$(pgrep -f -- "--out-dir $out --data-dir" | sort | paste -sd ' ')
killed_under=$(running_tasks | paste -sd ' ')
say "fault 2: kill -9 slurmd ($slurmd_pid) while $killed_under train (spotlight pids $trainers; $(finished)/$total done)"
kill -9 "$slurmd_pid"
wait "$slurmd_pid" 2>/dev/null || true
sleep 3
alive=$(for q in $trainers; do kill -0 "$q" 2>/dev/null && echo "$q"; done | paste -sd ' ')
say "fault 2: slurmd dead 3 s; shards still training: ${alive:-none} ($(finished)/$total done); node: $(node_state)"
start_slurmd
wait_until 60 "node $node to answer again" node_is 'IDLE|MIXED|ALLOCATED'
sleep 2
alive=$(for q in $trainers; do kill -0 "$q" 2>/dev/null && echo "$q"; done | paste -sd ' ')
say "fault 2: slurmd started again ($slurmd_pid); node $(node_state); of the shards' processes, still running: ${alive:-none (their shards ended)}; $(finished)/$total done"
say "fault 2: merge: $(merge_dep)"

# Fault 3: mark the node down while shards train (they are requeued), then resume it.
wait_until 180 "two thirds of the grid" bash -c '[ $(find '"$out"'/jobs -name "*.json" | wc -l) -ge '$((2 * total / 3))' ] && [ -n "$(squeue -h -r -j '"$array"' -t RUNNING)" ]'
snapshot >"$T/before-3"
downed=$(running_tasks | paste -sd ' ')
say "fault 3: scontrol update nodename=$node state=down reason=test, while $downed train ($(finished)/$total done)"
scontrol update nodename="$node" state=down reason=test
sleep 2
for t in $downed; do
  say "fault 3: $t is $(job_state "$t") (restarts: $(job_field "$t" Restarts), reason: $(job_field "$t" Reason))"
done
say "fault 3: node $(node_state); resume"
scontrol update nodename="$node" state=resume
wait_until 60 "node $node back" node_is 'IDLE|MIXED|ALLOCATED'

say "fault 3: node $(node_state); merge: $(merge_dep)"
wait_merge "$merge" "$array" 600
say "array and merge done: $(finished)/$total job files; shards' starts:"
grep -h '^shard ' "$T"/jobs-logs/"${array}"_*.log | sed 's/^/    /'
starts() { grep -c '^spotlight-paper: job' "$T/jobs-logs/$1.log"; }
for t in $(printf '%s\n' $victim $killed_under $downed | sort -u); do
  say "  $t: $(starts "$t") start(s) in its log, Restarts=$(job_field "$t" Restarts)"
done
for t in $killed_under; do # a shard that trained through slurmd's restart started once (unless faults 1 or 3 hit it)
  [[ " $victim $downed " == *" $t "* ]] || [ "$(starts "$t")" = 1 ] || fail "$t started again after slurmd's restart"
done
kept "$T/before-1" "fault 1 (scancel + requeue)"
kept "$T/before-2" "fault 2 (slurmd killed)"
kept "$T/before-3" "fault 3 (node down, resumed)"
[ "$(finished)" = "$total" ] || fail "$(finished) job files, $total models"
for f in paper-report.json paper-table.md; do
  cmp "$ref/$f" "$out/$f" || fail "$f differs from the reference's"
done
say "the merged table is byte for byte the reference's (paper-report.json, paper-table.md)"

# Fault 4: a truncated job file is rejected, its job (only it) trained again.
bad=$(find "$out/jobs" -name '*.json' | sort | sed -n 1p)
snapshot | grep -v "^$(basename "$bad") " >"$T/before-4"
truncate -s $(($(stat -c %s "$bad") / 2)) "$bad"
say "fault 4: truncated $(basename "$bad") to half; resubmitting the whole array and the merge"
array=$(submit_array "0-$((shards - 1))")
array=${array%%;*}
merge=$(submit_merge "$array")
merge=${merge%%;*}
wait_merge "$merge" "$array" 300
grep -h '^rejected job file\|^shard ' "$T"/jobs-logs/"${array}"_*.log | sed 's/^/    /'
grep -q "^rejected job file .*$(basename "$bad")" "$T"/jobs-logs/"${array}"_*.log || fail "no shard said it rejected $(basename "$bad")"
ran=$(grep -h '^shard ' "$T"/jobs-logs/"${array}"_*.log | awk '{s += $(NF-2)} END {print s}')
[ "$ran" = 1 ] || fail "$ran jobs trained again, not 1"
kept "$T/before-4" "fault 4 (truncated job file)"
serde_ok=$(python3 -c 'import json,sys; json.load(open(sys.argv[1])); print("whole")' "$bad")
say "fault 4: $(basename "$bad") trained again and is $serde_ok; the other $(wc -l <"$T/before-4") untouched"
for f in paper-report.json paper-table.md; do
  cmp "$ref/$f" "$out/$f" || fail "$f differs from the reference's after fault 4"
done
say "the merged table is still byte for byte the reference's"
secs=$(python3 - "$out/jobs" <<'PY'
import json, os, sys
d = sys.argv[1]
s = [json.load(open(os.path.join(d, f)))["seconds"] for f in os.listdir(d) if f.endswith(".json")]
print(f"{len(s)} models, {sum(s):.0f} s of training in all (JobResult.seconds), {max(s):.1f} s the longest")
PY
)
say "job files: $secs"
