#!/usr/bin/env bash
# Quick start: install what is missing, check formatting (fails fast, before the long build), build,
# run the whole test suite through CTest.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/check-format.sh"
"$root/scripts/build.sh"
cd "${ATTENTIONSCOPE_BUILD_DIR:-$root/build}"
# One test per core, each on one tensor thread: with every test using every core, the thread
# pools of the parallel tests would spin against each other. (Tests that need two threads ask.)
OMP_NUM_THREADS=1 QT_QPA_PLATFORM=offscreen ctest --output-on-failure --parallel "$(nproc)" \
  --timeout 900
