#!/usr/bin/env bash
# Streaming cost of the GUI: training throughput with the window open vs the headless CLI, and the

# mean per-step samples/s of metrics.csv (the trainer's own rate, same formula for both). The two
# alternate REPEATS times and the medians are compared: on a shared 2-core machine a single run
# varies by ±10 %.
#   bench/streaming_benchmark.sh [BUILD_DIR] [TASK] [STEPS] [PRESET] [REPEATS]
# Prints each run, the median GUI/CLI ratio (goal ≥ 0.95) and the longest stall (goal < 30 ms).
set -euo pipefail
build=${1:-build}
task=${2:-vit}
steps=${3:-300}
preset=${4:-laptop}
repeats=${5:-3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

mean_rate() {  # mean samples_per_s of the train rows of a metrics.csv
  awk -F, 'NR > 1 && $3 == "train" { s += $7; n++ } END { if (n) printf "%.1f", s / n; else print 0 }' "$1"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for i in $(seq "$repeats"); do
  "$build/app/attentionscope-cli" train --task "$task" --preset "$preset" --steps "$steps" \
    --device cpu --out "$out/cli$i" > "$out/cli$i.log" 2>&1
  cli=$(mean_rate "$out/cli$i/metrics.csv")
  QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen} ${GUI_ENV:-} "$build/app/attentionscope" --task "$task" \
    --preset "$preset" --train-steps "$steps" --device cpu --out "$out/gui$i" --size 1600x1000 \
    --quit > "$out/gui$i.log" 2>&1
  gui=$(mean_rate "$out/gui$i/metrics.csv")
  stall=$(sed -n 's/.*longest stall \([0-9.]*\) ms.*/\1/p' "$out/gui$i.log")
  echo "run $i: cli $cli samples/s, gui $gui samples/s, longest GUI stall $stall ms"
  echo "$cli" >> "$out/cli.txt"
  echo "$gui" >> "$out/gui.txt"
  echo "$stall" >> "$out/stall.txt"
done
grep -E "throughput|event loop|drains" "$out/gui$repeats.log" | sed 's/^/  last GUI run: /'
cli=$(median < "$out/cli.txt")
gui=$(median < "$out/gui.txt")
worst=$(sort -g "$out/stall.txt" | tail -1)
awk -v g="$gui" -v c="$cli" -v w="$worst" -v t="$task" -v p="$preset" -v s="$steps" 'BEGIN {
  printf "%s %s, %d steps: median cli %.1f, median gui %.1f samples/s, ratio gui/cli %.3f (goal >= 0.95); longest stall %s ms (goal < 30)\n", t, p, s, c, g, g / c, w }'
