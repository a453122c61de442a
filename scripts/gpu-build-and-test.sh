#!/usr/bin/env bash
# On a GPU server with PyTorch (its wheel carries LibTorch with CUDA) and no Qt, OpenCV, libcurl,
# spdlog or GoogleTest packages: builds the engine, the CLI and the engine tests against that
# LibTorch with the headers that scripts/stage-gpu-deps.sh put in .carry/deps, then runs the tests,
# the *_CUDA ones included.
#   scripts/gpu-build-and-test.sh [BUILD_DIR]
# Env: BUILD_ONLY=1 configures and builds but runs no test (bench/gpu_compare.sh runs them its own
#   way, one process per test), TORCH_PREFIX (LibTorch's CMake prefix; default: the wheel's).
# It runs on this Debian machine as well (with Debian's LibTorch and its system packages ignored),
# which is how the path is checked when no GPU server is at hand.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build-gpu}"
deps="$root/.carry/deps"
[ -d "$deps/include" ] || { echo "run scripts/stage-gpu-deps.sh first (on the Debian machine)" >&2; exit 2; }
# LibTorch: the PyTorch wheel's where Python has one, else what CMake finds (Debian's on this machine).
torch_prefix="${TORCH_PREFIX:-$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>/dev/null || true)}"
generator=(); command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$torch_prefix" \
  -DATTENTIONSCOPE_BUILD_GUI=OFF -DATTENTIONSCOPE_WITH_OPENCV=OFF \
  -DATTENTIONSCOPE_WITH_DOWNLOAD=OFF -DATTENTIONSCOPE_BUILD_BENCH=OFF \
  -DATTENTIONSCOPE_EXTRA_INCLUDE="$deps/include" -DATTENTIONSCOPE_GTEST_SOURCE="$deps/googletest" \
  -DCMAKE_DISABLE_FIND_PACKAGE_spdlog=ON -DCMAKE_DISABLE_FIND_PACKAGE_nlohmann_json=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_CLI11=ON
cmake --build "$build" --parallel "$(nproc)"
[ "${BUILD_ONLY:-0}" = 1 ] && exit 0
cd "$build"
ctest --output-on-failure --parallel "$(nproc)" --timeout 900
