#!/usr/bin/env bash
# Configures and builds a Release tree in ./build (or $ATTENTIONSCOPE_BUILD_DIR): the TARGETs given,
# else everything (the programs, every test suite, the benchmarks).
#   scripts/build.sh [TARGET…]        e.g. attentionscope attentionscope-cli
# Extra configure options come from $ATTENTIONSCOPE_CMAKE_ARGS (shell words).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ATTENTIONSCOPE_BUILD_DIR:-$root/build}"
read -r -a cmake_args <<<"${ATTENTIONSCOPE_CMAKE_ARGS:-}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${cmake_args[@]+"${cmake_args[@]}"}
targets=()
for target in "$@"; do targets+=(--target "$target"); done
cmake --build "$build" --parallel "$(nproc)" ${targets[@]+"${targets[@]}"}
