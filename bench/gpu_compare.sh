#!/usr/bin/env bash
# The device check anyone can start: on a GPU server (PyTorch 2.x with CUDA, its LibTorch, nvcc,
# CMake, ninja; no Qt, OpenCV or network), with the tree and what scripts/stage-gpu-deps.sh put in
# .carry/, in one call:
#   build  the engine, the CLI and the engine tests against the wheel's LibTorch
#          (scripts/gpu-build-and-test.sh with BUILD_ONLY=1);
#   tests  the engine suite, *_CUDA tests included, through ctest: one process per test, so a
#          crash (a SIGSEGV in a kernel) names the test it happened in, and the rest still run;
#   steps  the same-shape step table of bench/seed_compare.sh against the seeds' own PyTorch models
#          (seed_models.py --device cuda against `bench --device cuda`): imdb 32 × 100 tokens,
#          vocabulary 50000; vit 192 images, patch 4; mt 8 pairs padded to 350, vocabulary 22000;
#   e2e    EPOCHS of the seed's ViT on the staged CIFAR-10 subset, seed_vit_e2e.py against
#          `train --task vit --preset seed`, in fp32 and bf16;
# and writes bench/results/gpu-<date>.md (device, driver, versions, commit, commands, every figure
# as a ratio to the seed measured in the same run), copied into $OUT where that is set, since only
# what is under $OUT comes back from the GPU server. A ratio is seed time / our time: above 1, we
# are faster. A part that fails is reported and the next one still runs; the exit code is 1 then.
#   bench/gpu_compare.sh [BUILD_DIR]            (default build-gpu)
#   bench/gpu_compare.sh --dry-run [BUILD_DIR]  (default build)
#   bench/gpu_compare.sh --travel-size
# --dry-run checks the whole path on this CPU in under two minutes, at toy sizes, so that a call
# on the rarely lent GPU server is not spent on a typo: no build (BUILD_DIR must hold one), a few
# engine tests, one step of each row at small shapes, one epoch on 50 images in fp32 only (our
# --bf16 is CUDA only), results in a temporary folder (printed, never in the source tree), and the
# size of what would travel (tracked files, untracked ones git does not ignore, .carry/) checked
# against the GPU server's 64 MiB transfer limit. Without a Python that has torch, NumPy and
# Pillow it runs the parts that need none, says SKIPPED and exits 77 (the suite's skip code).
# --travel-size prints that size alone and fails above the limit (scripts/stage-gpu-deps.sh ends
# with it).
# Env: PARTS ("build tests steps e2e"; the GPU parts to run, e.g. to split them over two calls
#   when the build and the suite leave too little of one), EPOCHS (10), STEPS (20: timed steps of
#   vit and mt), IMDB_STEPS (100), PYTHON (the first of python3, /usr/bin/python3 with torch),
#   ANCHORS (the folder of seed_models.py: .carry/anchors, else ../shared/anchors), CIFAR_ZIP
#   (.carry/cifar10_subset.zip; in a dry run the images are taken from it or from
#   ../shared/realdata/cifar10_train_jpg.zip), RESULTS (the results file), DRY_TESTS (the
#   ctest -R regex of the dry run's engine tests).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
limit_mib=64

# The bytes copied to the GPU server: tracked files, untracked ones git does not ignore, .carry/.
# Prints "TOTAL TRACKED UNTRACKED CARRY" in bytes; fails outside a git checkout.
travel_bytes() {
  git -C "$root" rev-parse --git-dir > /dev/null 2>&1 || return 1
  local tracked untracked carry=0
  # A tracked file deleted in the working tree does not travel: stat's complaint is dropped.
  tracked=$(cd "$root" && git ls-files -z | { xargs -0 -r stat -c %s -- 2> /dev/null || true; } |
    awk '{ s += $1 } END { print s + 0 }')
  untracked=$(cd "$root" && git ls-files -z --others --exclude-standard |
    { xargs -0 -r stat -c %s -- 2> /dev/null || true; } | awk '{ s += $1 } END { print s + 0 }')
  [ -d "$root/.carry" ] && carry=$(du -sb "$root/.carry" | cut -f1)
  echo "$((tracked + untracked + carry)) $tracked $untracked $carry"
}
# Prints the travel size in MiB and fails above the limit.
travel_check() {
  local sizes
  if ! sizes=$(travel_bytes); then
    echo "travel size: not a git checkout, not measured"
    return 0
  fi
  read -r total tracked untracked carry <<< "$sizes"
  awk -v t="$total" -v a="$tracked" -v u="$untracked" -v c="$carry" -v l="$limit_mib" 'BEGIN {
    m = 1048576
    printf "travel size: %.1f MiB of %d (tracked %.1f, untracked %.1f, .carry %.1f)\n", t / m, l,
      a / m, u / m, c / m
    exit (t > l * m) }' && return
  echo "travel size: over the GPU server's $limit_mib MiB transfer limit" >&2
  return 1
}

dry_run=0
case ${1:-} in
  --travel-size) travel_check; exit ;;
  --dry-run) dry_run=1; shift ;;
esac
if [ "$dry_run" = 1 ]; then
  build=${1:-$root/build}
  device=cpu parts="tests steps e2e" epochs=1 steps=1 imdb_steps=10 warmup=0 modes=(fp32)
  # mt keeps batch 8: the anchor's target mask broadcasts the batch against its 8 heads.
  vit_batch=4 mt_batch=8 mt_seq=16 cifar_train=50 cifar_val=20
else
  build=${1:-$root/build-gpu}
  device=cuda parts=${PARTS:-build tests steps e2e} epochs=${EPOCHS:-10} steps=${STEPS:-20}
  imdb_steps=${IMDB_STEPS:-100} warmup=3 modes=(fp32 bf16) vit_batch=192 mt_batch=8 mt_seq=350
fi
cli="$build/app/attentionscope-cli"
has_part() { [[ " $parts " == *" $1 "* ]]; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "$dry_run" = 1 ]; then
  results=${RESULTS:-$work/gpu-dryrun.md}
else
  results=${RESULTS:-$root/bench/results/gpu-$(date -u +%Y-%m-%d).md}
fi
mkdir -p "$(dirname "$results")"
# publish [final]: the results file as it stands, after every part, so that a call stopped at the
# GPU server's time limit still brings back what was measured (from $OUT).
publish() {
  {
    cat "$work/results.md"
    if [ -s "$work/failures" ]; then
      printf '\n## Failures\n\n'
      sed 's/^gpu_compare.sh: /- /' "$work/failures"
    fi
    printf '\n## Commands\n\n```\n'
    cat "$work/commands" 2> /dev/null || true
    printf '```\n'
    [ "${1:-}" = final ] || printf '\n(partial: written after %d s, the run went on)\n' "$SECONDS"
  } > "$results"
  if [ -n "${OUT:-}" ]; then cp "$results" "$OUT/"; fi
}
failed=0 skipped=0
fail() { echo "gpu_compare.sh: $*" | tee -a "$work/failures" >&2; failed=1; }
skip() { echo "SKIPPED: $*"; skipped=1; }
md() { printf '%s\n' "$@" >> "$work/results.md"; }
field() { sed -n "s/.*$1=\([0-9.e+-]*\).*/\1/p" | head -1; }  # a key=value of a bench line
ratio() {
  awk -v s="$1" -v o="$2" 'BEGIN { if (s > 0 && o > 0) printf "%.2f", s / o; else print "n/a" }'
}
# run LOG COMMAND…: runs it with its output shown and kept in LOG, and records it for the results.
run() {
  local log=$1
  shift
  echo "+ $*" | tee -a "$work/commands"
  "$@" 2>&1 | tee "$log"
}

python=
for p in ${PYTHON:-} python3 /usr/bin/python3; do
  if command -v "$p" > /dev/null && "$p" -c 'import torch, numpy, PIL' 2> /dev/null; then
    python=$p
    break
  fi
done
# The shared folder beside the checkout; beside the main checkout when this one is a git worktree.
shared=${SHARED:-}
if [ -z "$shared" ]; then
  common=$(git -C "$root" rev-parse --path-format=absolute --git-common-dir 2> /dev/null || true)
  for s in "$root/../shared" "$root/shared" "${common:+$common/../../shared}"; do
    [ -n "$s" ] && [ -d "$s" ] && { shared=$(cd "$s" && pwd); break; }
  done
fi
anchors=${ANCHORS:-}
if [ -z "$anchors" ]; then
  for a in "$root/.carry/anchors" "${shared:+$shared/anchors}"; do
    [ -r "$a/seed_models.py" ] && { anchors=$(cd "$a" && pwd); break; }
  done
fi

if [ "$dry_run" = 1 ]; then
  echo "dry run on the CPU at toy sizes (build $build)"
  travel_check || failed=1
fi
[ -n "$python" ] || skip "no Python with torch, NumPy and Pillow (Debian: apt-get install" \
  "python3-torch python3-numpy python3-pil): no seed row"
[ -n "$anchors" ] || skip "no seed_models.py in .carry/anchors or ../shared/anchors" \
  "(scripts/stage-gpu-deps.sh copies them): no seed row"
if [ "$dry_run" = 0 ] && [ "$skipped" = 1 ]; then
  echo "gpu_compare.sh: the GPU run needs both; run scripts/stage-gpu-deps.sh first" >&2
  exit 2
fi

md "# GPU comparison, $(date -u '+%Y-%m-%d %H:%M UTC')" ""
[ "$dry_run" = 1 ] && md "DRY RUN on the CPU at toy sizes: the figures check the path, no more." ""
commit=$(git -C "$root" rev-parse HEAD 2> /dev/null ||
  tr '\n' ' ' 2> /dev/null < "$root/.carry/commit" || echo unknown)
md "- commit: $commit"
if [ "$device" = cuda ]; then
  query=name,driver_version,memory.total
  md "- device: $(nvidia-smi --query-gpu=$query --format=csv,noheader 2>&1 | head -1) ($query)"
  md "- CUDA compiler: $(nvcc --version 2> /dev/null | tail -1 || echo 'no nvcc')"
else
  md "- device: CPU, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1), $(nproc) cores"
fi
if [ -n "$python" ]; then
  md "- seed side: $("$python" -c 'import sys, torch
print(f"PyTorch {torch.__version__}, CUDA {torch.version.cuda}, cuDNN",
      torch.backends.cudnn.version(), "on Python", sys.version.split()[0])')"
fi
md "- our side: LibTorch of $(sed -n 's/^Torch_DIR:PATH=//p' "$build/CMakeCache.txt" 2> /dev/null ||
  echo '?') (build $build)"
md "- ratio = seed time / our time on the same work in this run: above 1, we are faster"

# --- build ------------------------------------------------------------------------------------
if has_part build; then
  echo "== build"
  start=$SECONDS
  if run "$work/build.log" env BUILD_ONLY=1 "$root/scripts/gpu-build-and-test.sh" "$build"; then
    md "" "## Build" "" "engine, CLI, engine tests: $((SECONDS - start)) s"
  else
    fail "the build failed"
    md "" "## Build" "" \
      "FAILED: $(grep -m1 -i error "$work/build.log" || tail -1 "$work/build.log")"
  fi
fi
[ -x "$cli" ] || { fail "$cli: not built"; parts=; }
publish

# --- tests ------------------------------------------------------------------------------------
if has_part tests; then
  echo "== engine tests"
  filter=()
  [ "$dry_run" = 1 ] && filter=(-R "${DRY_TESTS:-^(Cuda|ModelFlops)\.}")
  start=$SECONDS
  # One process per test (gtest_discover_tests registered each one), so a crash names its test.
  run "$work/tests.log" ctest --test-dir "$build" -L engine "${filter[@]}" --output-on-failure \
    --timeout 900 --parallel "$(nproc)" || fail "engine tests failed"
  summary=$(grep -E '^[0-9]+% tests passed' "$work/tests.log" || echo 'ctest did not end')
  md "" "## Engine tests" "" \
    "$summary, $(grep -c '(Skipped)$' "$work/tests.log" || true) skipped, $((SECONDS - start)) s" ""
  # ctest's closing list names each failed test and how it ended: (Failed), (SEGFAULT), (Timeout)…
  awk '/^The following tests FAILED:/ { f = 1; next } f && /^\t/ { sub(/^\t */, "- FAILED: ");
    print; next } { f = 0 }' "$work/tests.log" >> "$work/results.md"
  md "" "CUDA tests:" ""
  grep -E 'Test +#[0-9]+: [^ ]+_CUDA ' "$work/tests.log" |
    sed 's/.*Test *#[0-9]*: \([^ ]*\) [ .*]*\([A-Za-z].*\)/- \1: \2/; s/  */ /g' \
    >> "$work/results.md" || md "- none ran"
  publish
fi

# --- steps ------------------------------------------------------------------------------------
# row NAME LABEL "SEED_ARGS" "OUR_ARGS": one line of the step table, each side's median ms a step.
row() {
  local name=$1 label=$2 seed_ms ours_ms
  # shellcheck disable=SC2086  # the argument strings are word lists
  run "$work/$name.seed" "$python" "$anchors/seed_models.py" --device "$device" --models "$name" \
    $3 || fail "seed $name failed"
  # shellcheck disable=SC2086
  run "$work/$name.ours" "$cli" bench --device "$device" $4 || fail "our $name failed"
  seed_ms=$(field ms_per_step < "$work/$name.seed")
  ours_ms=$(field ms_per_step < "$work/$name.ours")
  seed_ms=${seed_ms:-failed} ours_ms=${ours_ms:-failed}
  md "| $label | $seed_ms | $ours_ms | $(ratio "$seed_ms" "$ours_ms") |"
  publish
}
if has_part steps && [ -n "$python" ] && [ -n "$anchors" ]; then
  echo "== same-shape steps"
  start=$SECONDS
  md "" "## One training step, same shapes (median ms)" "" \
    "| config | seed ms | ours ms | ratio |" "|---|---:|---:|---:|"
  # seed_models.py times ten times --steps for imdb, whose steps are short.
  row imdb "imdb 32×100, vocab 50000" "--steps $((imdb_steps / 10))" \
    "--task imdb --preset seed --batch-size 32 --vocab 50000 --steps $imdb_steps --warmup $warmup"
  row vit "vit $vit_batch images, patch 4" "--steps $steps --vit-batch $vit_batch" \
    "--task vit --preset seed --batch-size $vit_batch --steps $steps --warmup $warmup"
  row mt "translation ${mt_batch}×$mt_seq, vocab 22000" \
    "--steps $steps --mt-seq $mt_seq --mt-batch $mt_batch" \
    "--task translate --preset seed --batch-size $mt_batch --vocab 22000 --pad-to $mt_seq
     --steps $steps --warmup $warmup"
  md "" "(this part: $((SECONDS - start)) s)"
fi

# --- e2e --------------------------------------------------------------------------------------
# per_image SECONDS IMAGES: ms per training image over all epochs.
per_image() {
  awk -v s="$1" -v n="$2" -v e="$epochs" 'BEGIN {
    if (s > 0 && n > 0) printf "%.3f", 1000 * s / (n * e); else print "n/a" }'
}
cifar_zip=${CIFAR_ZIP:-$root/.carry/cifar10_subset.zip}
if has_part e2e && [ -n "$python" ] && [ -n "$anchors" ]; then
  echo "== end to end: the seed's ViT, $epochs epoch(s)"
  start=$SECONDS
  if [ "$dry_run" = 1 ]; then
    # A few hundred images of what the GPU run would get (or of the real-data zip), and the seed's
    # script on the CPU: its device, synchronisation and autocast device are CUDA's.
    source_zip=$cifar_zip
    [ -r "$source_zip" ] || source_zip=$shared/realdata/cifar10_train_jpg.zip
    if [ -r "$source_zip" ]; then
      "$python" "$root/bench/cifar_subset.py" "$source_zip" "$work/cifar.zip" "$cifar_train" \
        "$cifar_val"
      cifar_zip=$work/cifar.zip
    fi
    sed -e 's/torch.device("cuda")/torch.device("cpu")/' -e 's/torch.cuda.synchronize()/None/g' \
      -e 's/torch.autocast("cuda"/torch.autocast("cpu"/g' "$anchors/seed_vit_e2e.py" \
      > "$work/e2e.py"
    seed_e2e=$work/e2e.py
  else
    seed_e2e=$anchors/seed_vit_e2e.py
  fi
  if [ ! -r "$cifar_zip" ]; then
    skip "no CIFAR-10 zip ($cifar_zip; scripts/stage-gpu-deps.sh makes it): no end-to-end row"
    [ "$dry_run" = 1 ] || fail "no CIFAR-10 zip"
  elif run "$work/convert.log" "$python" "$anchors/cifar_jpg_to_bin.py" "$cifar_zip" "$work/cifar"
  then
    md "" "## End to end: the seed's ViT, $epochs epoch(s), batch 192" "" \
      "CIFAR-10 subset: $(tail -1 "$work/convert.log") (seed: trains on all of train, validates" \
      "on val; ours: carves 10 % of train for validation, tests on val = the seed's validation" \
      "images). Accuracy: on those validation images, the last epoch's weights." ""
    header="| precision | seed s | ours s | ratio | seed ms/image | ours ms/image | ratio |"
    md "$header seed acc | ours acc |" "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    for mode in "${modes[@]}"; do
      bf16=()
      [ "$mode" = bf16 ] && bf16=(--bf16)
      run "$work/seed-$mode.log" "$python" "$seed_e2e" "$anchors" "$work/cifar" "$epochs" "$mode" ||
        fail "seed e2e $mode failed"
      run "$work/ours-$mode.log" "$cli" train --task vit --preset seed --device "$device" \
        --epochs "$epochs" --data "$work/cifar" --out "$work/run-$mode" "${bf16[@]}" ||
        fail "our e2e $mode failed"
      seed_s=$(tail -1 "$work/seed-$mode.log" | field wall_s)
      seed_acc=$(tail -1 "$work/seed-$mode.log" | field val_acc)
      seed_n=$(sed -n 's/^train (\([0-9]*\),.*/\1/p' "$work/convert.log")
      ours_s=$(sed -n 's/^finished: [0-9]* steps in \([0-9.]*\) s.*/\1/p' "$work/ours-$mode.log")
      ours_n=$(sed -n 's/.* \([0-9]*\) training \/ [0-9]* validation \/ .*/\1/p' \
        "$work/ours-$mode.log" | head -1)
      ours_acc=$(sed -n 's/^  test: acc \([0-9.]*\).*/\1/p' "$work/ours-$mode.log")
      seed_pi=$(per_image "${seed_s:-0}" "${seed_n:-0}")
      ours_pi=$(per_image "${ours_s:-0}" "${ours_n:-0}")
      wall="${seed_s:-failed} | ${ours_s:-failed} | $(ratio "${seed_s:-0}" "${ours_s:-0}")"
      image="$seed_pi | $ours_pi | $(ratio "$seed_pi" "$ours_pi")"
      md "| $mode | $wall | $image | ${seed_acc:-?} | ${ours_acc:-?} |"
      publish
    done
    md "" "(this part: $((SECONDS - start)) s)"
  else
    fail "converting $cifar_zip failed"
  fi
fi

publish final
echo
cat "$results"
[ "$dry_run" = 1 ] && [ -z "${RESULTS:-}" ] || echo "results: $results"
[ "$failed" = 0 ] || exit 1
if [ "$skipped" = 1 ]; then
  echo "SKIPPED: parts of the check (above)"
  exit 77
fi
echo "gpu_compare.sh: done in $SECONDS s"
