#!/usr/bin/env bash
# Trains each task's `laptop` preset on the built-in data and prints wall time and the final
# validation figures; the targets are ≥ 80 % images, ≥ 90 % sentiment, BLEU ≥ 60 or
# ≥ 80 % exact match for translation, each within 2 minutes on a 2-core CPU.
set -euo pipefail
cli="${1:-build/app/attentionscope-cli}"
out="$(mktemp -d)"
for task in vit imdb translate; do
  start=$(date +%s%N)
  "$cli" train --task "$task" --data builtin --preset laptop --out "$out/$task" > "$out/$task.log" 2>&1
  end=$(date +%s%N)
  # The file's own header names the columns: the task's figures follow the common ones.
  header=$(head -1 "$out/$task/metrics.csv")
  last_val=$(grep ',val,' "$out/$task/metrics.csv" | tail -1)
  printf '%-10s wall=%6.1fs\n  %s\n  %s\n' "$task" "$(awk -v a="$start" -v b="$end" 'BEGIN{print (b-a)/1e9}')" "$header" "$last_val"
done
