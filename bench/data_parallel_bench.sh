#!/usr/bin/env bash
# Data-parallel training on this machine: one process with one thread against two ranks of one
# thread each (`train --nproc 2`, Gloo over 127.0.0.1), the same run (same global batch, seed and
# steps). Prints the time of the training steps of each (the probes and evaluations rank 0 makes
# are left out: no probe during the timed steps, and fewer steps than an epoch), the speed-up, the
# scaling efficiency (speed-up / 2) and, from rank 0's log, the all-reduce's share of a step and
# the gradient volume each rank sends per step. Rounds alternate the two sides, medians are
# compared: a shared 2-core machine drifts.
#   bench/data_parallel_bench.sh [BUILD_DIR]
# Env: TASK (imdb), PRESET (laptop: batch 64), STEPS (100), REPEATS (3), THREADS (1 per rank).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
cli="$build/app/attentionscope-cli"
task=${TASK:-imdb}
preset=${PRESET:-laptop}
steps=${STEPS:-100}
repeats=${REPEATS:-3}
threads=${THREADS:-1}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Seconds of training steps in a run folder's log: the "finished" line less its probes.
step_seconds() {
  sed -n 's/.*finished: [0-9]* steps in \([0-9.]*\) s ([0-9]* probes took \([0-9.]*\) s[,)].*/\1 \2/p' \
    "$1/log.txt" | awk '{ printf "%.3f", $1 - $2 }'
}

run() {  # name, then extra arguments
  local name=$1
  shift
  rm -rf "${out:?}/$name"
  "$cli" train --task "$task" --preset "$preset" --steps "$steps" --threads "$threads" --seed 1 \
    --probe-every-steps 1000000 --probe-every-seconds 1000000 --no-head-stats \
    --out "$out/$name" "$@" >"$out/$name.out" 2>&1 || {
    cat "$out/$name.out" >&2
    exit 1
  }
  step_seconds "$out/$name"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "task $task, preset $preset, $steps steps, $threads thread(s) per process; $(getconf _NPROCESSORS_ONLN) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"
ones=() twos=()
for ((r = 1; r <= repeats; r++)); do
  ones+=("$(run one)")
  twos+=("$(run two --nproc 2)")
  echo "  round $r: 1 rank ${ones[-1]} s, 2 ranks ${twos[-1]} s"
done
one=$(printf '%s\n' "${ones[@]}" | median)
two=$(printf '%s\n' "${twos[@]}" | median)
parallel_line=$(grep -o 'data parallel: .*' "$out/two/log.txt" | tail -1)
awk -v one="$one" -v two="$two" -v steps="$steps" 'BEGIN {
  printf "1 rank  x %s thread: %.2f s of steps (%.1f ms a step)\n", "'"$threads"'", one, 1000 * one / steps
  printf "2 ranks x %s thread: %.2f s of steps (%.1f ms a step)\n", "'"$threads"'", two, 1000 * two / steps
  printf "speed-up %.2fx, scaling efficiency %.0f %%\n", one / two, 50 * one / two
}'
echo "rank 0: $parallel_line"
