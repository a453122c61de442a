#!/usr/bin/env bash
# Same work, both sides: the seeds' own PyTorch models (shared/anchors/seed_models.py) against our
# `bench` on identical shapes, in one run, each side in its best environment. Rows:
#   imdb   32 reviews × 100 tokens, vocabulary 50000      (bench --vocab 50000)
#   vit    192 images, patch 4                            (the seed preset, batch 192)
#   mt     8 pairs padded to 350 tokens, vocabulary 22000 (bench --vocab 22000 --pad-to 350)
# and ours alone on the real Europarl pairs, our seed preset at batch 8: length-bucketed against
# padded to 350 as the seed pads (and against unbucketed batches, padded to each one's longest
# pair), in samples/s. REAL_STEPS = 50 times one length pool (400 pairs, epoch_batches.h), the
# same pairs bucketed or not.
# The two sides alternate REPEATS times and medians are compared (a shared 2-core machine drifts by
# ±10 %). In the first round each side runs with each of THREADS; later rounds use each side's
# faster count. Python gets the allocator settings PyTorch's CPU training likes (nothing mapped
# per buffer, one heap, no trimming, a large top pad, so that the big activations of every step
# are reused from the heap instead of being mapped and faulted in afresh; measured on imdb: 33 →
# 24 ms a step with a 32 MiB mmap threshold, and on mt 12.2 → 10.2 s with no mapping) and OPENBLAS_CORETYPE=Haswell on an AVX2+FMA CPU, as our programs choose for themselves
# (engine/core/openblas_kernels.h). Ours gets nothing but --threads: it picks its own settings.
# GFLOP/s use our analytic count of the step (engine/models/model_flops.h) for both sides, held
# against the sgemm peak bench/sgemm_peak_bench measures with OpenBLAS's thread count.
#   bench/seed_compare.sh [BUILD_DIR]
# Env: REPEATS (3), STEPS (3: timed steps of vit, mt and the padded real row), IMDB_STEPS (30),
#   REAL_STEPS (50), REAL_REPEATS (1: rounds of the real rows), THREADS ("1 2"),
#   QUICK=1 (one round, THREADS = the idle cores, STEPS=1, IMDB_STEPS=10, no unbucketed row: a
#   few minutes), SEED_MODELS (seed_models.py), PYTHON (/usr/bin/python3: the one with
#   torch), EUROPARL (a .tsv or .tsv.xz of en<TAB>it pairs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
cli="$build/app/attentionscope-cli"
sgemm="$build/bench/sgemm_peak_bench"
python=${PYTHON:-/usr/bin/python3}
seed_models=${SEED_MODELS:-$root/../shared/anchors/seed_models.py}
europarl=${EUROPARL:-$root/../shared/realdata/europarl_en_it_train_40k.tsv.xz}
real_steps=${REAL_STEPS:-50}
real_repeats=${REAL_REPEATS:-1}
# Cores the 1-minute load average leaves idle, at least 1: on a busy machine a second thread only
# waits for a core (measured here: imdb 18 → 90 ms a step with 2 threads under a load of 3).
idle_cores() { awk -v n="$(nproc)" '{ c = int(n - $1 + 0.5); print (c < 1) ? 1 : c }' /proc/loadavg; }
if [ "${QUICK:-0}" = 1 ]; then
  repeats=1 steps=${STEPS:-1} imdb_steps=${IMDB_STEPS:-10}
  read -r -a thread_counts <<< "${THREADS:-$(idle_cores)}"
  real_variants=(bucketed padded)
else
  repeats=${REPEATS:-3} steps=${STEPS:-3} imdb_steps=${IMDB_STEPS:-30}
  read -r -a thread_counts <<< "${THREADS:-1 2}"
  real_variants=(bucketed unbucketed padded)
fi
for needed in "$cli" "$sgemm" "$seed_models"; do
  [ -e "$needed" ] || { echo "seed_compare.sh: $needed: not found" >&2; exit 2; }
done
"$python" -c 'import torch' 2> /dev/null ||
  { echo "seed_compare.sh: $python has no torch (Debian: apt-get install python3-torch)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
case "$europarl" in
  *.xz) xz -dc "$europarl" > "$out/europarl.tsv"; europarl="$out/europarl.tsv" ;;
esac
[ -r "$europarl" ] || { echo "seed_compare.sh: $europarl: cannot read" >&2; exit 2; }

seed_env=(MALLOC_MMAP_MAX_=0 MALLOC_ARENA_MAX=1 MALLOC_TRIM_THRESHOLD_=17179869184
          MALLOC_TOP_PAD_=268435456)
if [ -z "${OPENBLAS_CORETYPE:-}" ] && grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo; then
  seed_env+=(OPENBLAS_CORETYPE=Haswell)
fi

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
field() { sed -n "s/.*$1=\([0-9.e+-]*\).*/\1/p" | head -1; }  # a key=value of a bench line

# seed MODEL SETTING ARGS…: the seed's ms per step (seed_models.py times --steps × 10 for imdb).
# SETTING is T (T LibTorch threads, OpenBLAS its own pool of all cores) or T/1 (OpenBLAS held to
# one thread, which small products like better: imdb 19.5 → 15.4 ms here).
seed() {
  local model=$1 threads=${2%/*} blas=()
  [ "$2" != "$threads" ] && blas=(OPENBLAS_NUM_THREADS="${2#*/}")
  shift 2
  env "${seed_env[@]}" "${blas[@]}" "$python" "$seed_models" --models "$model" \
    --threads "$threads" "$@" | field ms_per_step
}
# ours THREADS ARGS…: our bench line.
ours() {
  local threads=$1
  shift
  "$cli" bench --device cpu --threads "$threads" "$@"
}
# The faster thread count of a side: lowest ms in FILE (lines "threads ms").
fastest() { sort -k2 -g "$1" | head -1 | cut -d' ' -f1; }

# The machine's peak: OpenBLAS's sgemm on all cores. (The seed side multiplies on OpenBLAS's own
# pool or on one thread, T/1; ours holds OpenBLAS to one thread and splits products over its
# LibTorch threads, engine/nn/split_matmul.h.)
blas_threads=${OPENBLAS_NUM_THREADS:-$(nproc)}
echo "sgemm peak (float32 at::mm, n=2048, best of 5):"
# shellcheck disable=SC2046  # one argument per thread count
"$sgemm" 2048 $(printf '%s\n' 1 "$blas_threads" | sort -un) | tee "$out/sgemm.txt"
peak=$(grep " threads=$blas_threads " "$out/sgemm.txt" | field gflop_per_s)

# compare NAME SEED_MODEL "SEED_ARGS" "OUR_ARGS": one table row, the sides alternating.
compare() {
  local name=$1 model=$2 seed_args=$3 our_args=$4 r t ms line seed_threads ours_threads
  : > "$out/$name.seed"
  : > "$out/$name.ours"
  for t in "${thread_counts[@]}"; do
    for setting in "$t" "$t/1"; do
      # shellcheck disable=SC2086  # the argument strings are word lists
      ms=$(seed "$model" "$setting" $seed_args)
      echo "$setting $ms" >> "$out/$name.seed.threads"
      echo "  $name round 1: seed $ms ms ($setting)"
    done
    # shellcheck disable=SC2086
    line=$(ours "$t" $our_args)
    echo "$t $(echo "$line" | field ms_per_step)" >> "$out/$name.ours.threads"
    echo "$line" > "$out/$name.line"
    echo "  $name round 1: ours $(echo "$line" | field ms_per_step) ms ($t)"
  done
  seed_threads=$(fastest "$out/$name.seed.threads")
  ours_threads=$(fastest "$out/$name.ours.threads")
  awk -v t="$seed_threads" '$1 == t { print $2 }' "$out/$name.seed.threads" >> "$out/$name.seed"
  awk -v t="$ours_threads" '$1 == t { print $2 }' "$out/$name.ours.threads" >> "$out/$name.ours"
  for r in $(seq 2 "$repeats"); do
    # shellcheck disable=SC2086
    ms=$(seed "$model" "$seed_threads" $seed_args)
    echo "$ms" >> "$out/$name.seed"
    # shellcheck disable=SC2086
    line=$(ours "$ours_threads" $our_args)
    echo "$line" | field ms_per_step >> "$out/$name.ours"
    echo "  $name round $r: seed $ms ms ($seed_threads thread(s)), ours" \
      "$(echo "$line" | field ms_per_step) ms ($ours_threads thread(s))"
  done
  printf '%s %s %s %s %s %s\n' "$name" "$(median < "$out/$name.seed")" "$seed_threads" \
    "$(median < "$out/$name.ours")" "$ours_threads" \
    "$(field gflop_per_step < "$out/$name.line")" >> "$out/table"
}

: > "$out/table"
echo "imdb: 32 × 100 tokens, vocabulary 50000"
compare imdb imdb "--steps $((imdb_steps / 10))" \
  "--task imdb --preset seed --batch-size 32 --vocab 50000 --steps $imdb_steps"
echo "vit: 192 images, patch 4"
compare vit vit "--steps $steps --vit-batch 192" \
  "--task vit --preset seed --batch-size 192 --steps $steps --warmup 1"
echo "mt: 8 pairs × 350 tokens, vocabulary 22000"
compare mt mt "--steps $steps --mt-seq 350 --mt-batch 8" \
  "--task translate --preset seed --batch-size 8 --vocab 22000 --pad-to 350 --steps $steps --warmup 1"

# Ours alone on the real pairs, with the thread count that won the mt row (the same model).
real_threads=$(fastest "$out/mt.ours.threads")
echo "real Europarl en→it pairs, seed preset, batch 8, $real_threads thread(s)"
for r in $(seq 1 "$real_repeats"); do
  for variant in "${real_variants[@]}"; do
    case $variant in
      bucketed) extra=(--steps "$real_steps") ;;
      unbucketed) extra=(--steps "$real_steps" --no-bucketing) ;;
      padded) extra=(--steps "$steps" --pad-to 350) ;;
    esac
    line=$(ours "$real_threads" --task translate --preset seed --batch-size 8 --data "$europarl" \
      --warmup 1 "${extra[@]}")
    echo "$line" | field samples_per_s >> "$out/real.$variant"
    echo "  round $r, $variant: $line"
  done
done
real_median() { if [ -s "$out/real.$1" ]; then median < "$out/real.$1"; else echo 0; fi; }

awk -v peak="$peak" -v blas_threads="$blas_threads" -v repeats="$repeats" \
  -v bucketed="$(real_median bucketed)" -v unbucketed="$(real_median unbucketed)" \
  -v padded="$(real_median padded)" 'BEGIN {
  label["imdb"] = "imdb 32x100, vocab 50000"
  label["vit"] = "vit 192 images, patch 4"
  label["mt"] = "translation 8x350, vocab 22000"
  printf "\nmedians of %d round(s); ratio = seed ms / ours ms (> 1: we are faster); GFLOP/s: our analytic count of the step\n", repeats
  printf "%-31s %14s %14s %6s %17s %17s\n", "config", "seed ms/step", "ours ms/step", "ratio", "seed GFLOP/s", "ours GFLOP/s"
}
{
  seed_g = $6 / ($2 / 1000)
  ours_g = $6 / ($4 / 1000)
  printf "%-31s %8.1f (%4s) %9.1f (%dt) %6.2f %9.1f (%3.0f%%) %9.1f (%3.0f%%)\n", label[$1], $2, $3, $4, $5,
    $2 / $4, seed_g, 100 * seed_g / peak, ours_g, 100 * ours_g / peak
}
END {
  printf "(Nt: LibTorch threads, --threads; T/1: OpenBLAS held to 1 thread; %%: share of the sgemm peak, %.1f GFLOP/s, OpenBLAS on %d threads)\n", peak, blas_threads
  printf "\nreal Europarl pairs, our seed preset, batch 8, samples/s: bucketed %.2f, padded to 350 %.2f", bucketed, padded
  if (unbucketed > 0) printf ", unbucketed %.2f", unbucketed
  printf "\nspeed-up of length bucketing: %.1fx over padding to 350", bucketed / padded
  if (unbucketed > 0) printf ", %.2fx over unbucketed batches", bucketed / unbucketed
  printf "\n"
}' "$out/table"
