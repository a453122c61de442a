#!/usr/bin/env bash
# What watching costs: training throughput with the default probing (a probe set of 4 validation
# samples on every step of the stored timeline — 100 or more per run — and every 50 steps or 5 s,
# per-head statistics, snapshots stored) against probing off (one probe sample, at the start and
# the end only, no statistics), same task, preset and steps. The probed run's log also says what
# its probes cost part by part (attention, predictions, encoding, statistics, recording). Runs
# alternate REPEATS times and the medians are compared (a shared 2-core machine varies by ±10 %).
# Throughput is steps over the wall time of the loop ("finished: N steps in T s" in the log) less
# the validation passes (the "(x s)" of each epoch line), which both runs do alike.
#   bench/probe_overhead.sh [BUILD_DIR] [STEPS] [PRESET] [REPEATS] [TASKS…]
# Prints each run and, per task, the median ratio on/off (goal ≥ 0.97), the median ratio of the
# processes' CPU seconds (unprobed/probed: the same work measured without other load), the share of the probed
# run's loop its probes took (the trainer times them: a figure the machine's noise does not blur),
# and the size of the run's attention/ folder and head_stats.csv.
set -euo pipefail
build=${1:-build}
steps=${2:-300}
preset=${3:-laptop}
repeats=${4:-3}
shift $(($# < 4 ? $# : 4))
tasks=("$@")
[ ${#tasks[@]} -gt 0 ] || tasks=(vit imdb translate)
cli="$build/app/attentionscope-cli"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

rate() {  # steps per second of training in the log of a finished run
  awk '/finished: [0-9]+ steps in/ { for (i = 1; i <= NF; i++) if ($i == "finished:") { n = $(i + 1); t = $(i + 4) } }
       /\| val loss/ { if (match($0, /\(([0-9.]+) s\)$/)) e += substr($0, RSTART + 1, RLENGTH - 4) }
       END { if (t - e > 0) printf "%.3f", n / (t - e); else print 0 }' "$1"
}
share() {  # percentage of the loop's wall time the probes took ("(N probes took P s)")
  awk '/finished: [0-9]+ steps in/ { for (i = 1; i <= NF; i++) if ($i == "finished:") t = $(i + 4);
         if (match($0, /took [0-9.]+ s/)) p = substr($0, RSTART + 5, RLENGTH - 7) }
       END { if (t > 0) printf "%.2f", 100 * p / t; else print 0 }' "$1"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for task in "${tasks[@]}"; do
  for i in $(seq "$repeats"); do
    /usr/bin/time -f "%U %S" -o "$out/$task-off$i.cpu" \
      "$cli" train --task "$task" --preset "$preset" --steps "$steps" --device cpu \
      --probe 0 --no-head-stats --probe-every-steps 1000000000 --probe-every-seconds 1000000000 \
      --snapshot-every-steps 1000000000 \
      --out "$out/$task-off$i" > "$out/$task-off$i.log" 2>&1
    /usr/bin/time -f "%U %S" -o "$out/$task-on$i.cpu" \
      "$cli" train --task "$task" --preset "$preset" --steps "$steps" --device cpu \
      --out "$out/$task-on$i" > "$out/$task-on$i.log" 2>&1
    off=$(rate "$out/$task-off$i/log.txt")
    on=$(rate "$out/$task-on$i/log.txt")
    probed=$(share "$out/$task-on$i/log.txt")
    # CPU seconds of the whole process (data, evaluation and all): the work done, which other
    # load on a shared machine does not stretch the way it stretches wall time.
    off_cpu=$(awk '{ print $1 + $2 }' "$out/$task-off$i.cpu")
    on_cpu=$(awk '{ print $1 + $2 }' "$out/$task-on$i.cpu")
    echo "$on_cpu $off_cpu" | awk '{ printf "%.4f\n", $2 / $1 }' >> "$out/$task-cpu.txt"
    echo "$task run $i: probes off $off steps/s ($off_cpu CPU s), probe set + statistics $on steps/s ($on_cpu CPU s; probes took $probed % of its loop)"
    echo "$probed" >> "$out/$task-share.txt"
    echo "$off" >> "$out/$task-off.txt"
    echo "$on" >> "$out/$task-on.txt"
  done
  off=$(median < "$out/$task-off.txt")
  on=$(median < "$out/$task-on.txt")
  probe_share=$(median < "$out/$task-share.txt")
  cpu_ratio=$(median < "$out/$task-cpu.txt")
  probes=$(grep -c '' "$out/$task-on$repeats/head_stats.csv" || true)
  attention=$(du -sk "$out/$task-on$repeats/attention" | cut -f1)
  stats=$(du -k "$out/$task-on$repeats/head_stats.csv" | cut -f1)
  awk -v t="$task" -v p="$preset" -v s="$steps" -v on="$on" -v off="$off" -v a="$attention" \
    -v h="$stats" -v r="$probes" -v q="$probe_share" -v c="$cpu_ratio" 'BEGIN {
    printf "%s %s, %d steps: median %.3f steps/s probed, %.3f unprobed: ratio %.3f (goal >= 0.97); CPU-time ratio %.3f; probes took %.2f %% of the probed loop (median); attention/ %d KiB, head_stats.csv %d KiB (%d rows)\n", t, p, s, on, off, on / off, c, q, a, h, r - 1 }'
done
