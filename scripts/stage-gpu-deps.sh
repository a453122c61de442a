#!/usr/bin/env bash
# Copies the header-only libraries (spdlog, fmt, nlohmann-json, CLI11) and GoogleTest's sources from this
# Debian machine into .carry/deps (git-ignored), so that they travel with the working tree to a
# GPU server that has LibTorch but none of them (see scripts/gpu-build-and-test.sh).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
deps="$root/.carry/deps"
rm -rf "$deps"
mkdir -p "$deps/include"
cp -r /usr/include/spdlog /usr/include/fmt /usr/include/nlohmann /usr/include/CLI "$deps/include/"
cp -r /usr/src/googletest "$deps/googletest"
du -sh "$deps"
