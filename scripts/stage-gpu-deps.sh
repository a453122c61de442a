#!/usr/bin/env bash
# Copies the header-only libraries (spdlog, fmt, nlohmann-json, CLI11) and GoogleTest's sources
# from this Debian machine into .carry/deps (git-ignored), so that they travel with the working
# tree to a GPU server that has LibTorch but none of them (see scripts/gpu-build-and-test.sh).
# For bench/gpu_compare.sh it also stages what the server cannot reach, since ../shared does not
# travel: the seeds' PyTorch anchors (../shared/anchors/*.py) in .carry/anchors, a CIFAR-10 subset
# of ../shared/realdata/cifar10_train_jpg.zip in .carry/cifar10_subset.zip (JPEGs, a third the
# size of the binary layout, which the server makes with cifar_jpg_to_bin.py), and the commit in
# .carry/commit (the server's copy has no git history). Each is skipped, with a message, where
# ../shared lacks it. All that travels must stay under the GPU server's 64 MiB transfer limit:
# the 40,000 training and 5,000 validation images measured before (44.5 MiB) with the tracked
# tree and the headers come within 2 MiB of it, so the default subset is 30,000 and 5,000
# (34.6 MiB). The total is checked at the end (bench/gpu_compare.sh --travel-size).
#   scripts/stage-gpu-deps.sh
# Env: CIFAR_TRAIN (30000), CIFAR_VAL (5000): images in the subset, multiples of 10 (per class);
#   SHARED (../shared, or the one beside the main checkout when this is a git worktree).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
common=$(git -C "$root" rev-parse --path-format=absolute --git-common-dir)
shared=${SHARED:-$root/../shared}
[ -d "$shared" ] || shared=$common/../../shared
"$root/scripts/install-deps.sh"
deps="$root/.carry/deps"
rm -rf "$deps"
mkdir -p "$deps/include"
cp -r /usr/include/spdlog /usr/include/fmt /usr/include/nlohmann /usr/include/CLI "$deps/include/"
cp -r /usr/src/googletest "$deps/googletest"
du -sh "$deps"

rm -rf "$root/.carry/anchors" "$root/.carry/cifar10_subset.zip"
if compgen -G "$shared/anchors/*.py" > /dev/null; then
  mkdir -p "$root/.carry/anchors"
  cp "$shared"/anchors/*.py "$root/.carry/anchors/"
else
  echo "stage-gpu-deps.sh: no $shared/anchors/*.py: gpu_compare.sh will skip the seed rows" >&2
fi
zip="$shared/realdata/cifar10_train_jpg.zip"
if [ -r "$zip" ]; then
  python3 "$root/bench/cifar_subset.py" "$zip" "$root/.carry/cifar10_subset.zip" \
    "${CIFAR_TRAIN:-30000}" "${CIFAR_VAL:-5000}"
else
  echo "stage-gpu-deps.sh: no $zip: gpu_compare.sh will skip the end-to-end rows" >&2
fi
git -C "$root" rev-parse HEAD > "$root/.carry/commit"
# A working tree with changes is not the commit: say so, the results name what ran.
[ -z "$(git -C "$root" status --porcelain)" ] ||
  echo "(uncommitted changes)" >> "$root/.carry/commit"
"$root/bench/gpu_compare.sh" --travel-size
