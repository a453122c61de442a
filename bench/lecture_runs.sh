#!/usr/bin/env bash
# The laptop run of each task, trained by the desktop app offscreen as a lecturer would start it:
# how many snapshots its timeline stores (goal: 100 or more), what share of its time the probes
# took (goal: under 2 %, the trainer times them part by part) and how close the time projected
# from its first steps came to the time it took (goal: within ±30 %), and how far the toolbar's
# ETA ever strayed from the real end over the run, with how often the range it stated
# ("about 6–8 min") held it.
#   bench/lecture_runs.sh [BUILD_DIR] [TASKS…]
# Prints one line per task and keeps nothing (the runs go to a temporary folder).
set -euo pipefail
build=${1:-build}
shift $(($# < 1 ? $# : 1))
tasks=("$@")
[ ${#tasks[@]} -gt 0 ] || tasks=(vit imdb translate)
app="$build/app/attentionscope"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for task in "${tasks[@]}"; do
  QT_QPA_PLATFORM=offscreen "$app" --task "$task" --preset laptop --train-steps all \
    --out "$out/$task" --report "$out/$task.json" --quit > "$out/$task.out" 2>&1
  snapshots=$(find "$out/$task/attention" -name 'step_*.msgpack' | wc -l)
  finished=$(grep -o 'finished: .*' "$out/$task/log.txt" | tail -1)
  projected=$(grep -o 'time projected from the first steps: .*' "$out/$task.out" || echo "no projection")
  echo "$task: $snapshots snapshots; $finished"
  eta=$(grep -o 'ETA over the run: .*' "$out/$task.out" || echo "no ETA followed")
  echo "$task: $projected"
  echo "$task: $eta"
done
