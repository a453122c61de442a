#!/usr/bin/env bash
# `bench` figures of the reference (`seed`) configuration of every task on this machine's CPU.
set -euo pipefail
cli="${1:-build/app/attentionscope-cli}"
steps="${STEPS:-3}"
for task in vit imdb translate; do
  printf '%-10s ' "$task"
  "$cli" bench --task "$task" --preset seed --steps "$steps" --device cpu
done
