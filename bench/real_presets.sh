#!/usr/bin/env bash
# Trains the `real` preset of each task on the real training files (../shared/realdata, or
# REALDATA=folder) with the CPU threads given (THREADS, default 2) and prints each run's test
# figures with its wall time. The test split is the one every run carves from its training file
# (10 %, one per distinct input, never trained on, never used to choose a setting); the recipes'
# targets on it (issue 56): translation BLEU >= 17 with a beam of 4 and ViT accuracy >= 0.72, each
# within 15 minutes of training on 2 cores; IMDB accuracy >= 0.905 within 20, above the tf-idf
# baseline printed beside it:
# bench/imdb_tfidf_baseline.py on the run's own three splits, which `attentionscope-cli split
# --run` writes (skipped, saying so, where no Python has scikit-learn: apt-get install
# python3-sklearn). Translation is also scored with a beam of 4 (evaluate --beam 4), greedy's
# BLEU beside it. The classifiers (vit, imdb) also print their calibration: the temperature fitted
# on the validation split and the expected calibration error before → after on both splits.
# Long (about 40 minutes): not part of the suite.
#   bench/real_presets.sh [BUILD_DIR] [TASK…]      TASKs: translate vit imdb (default: all three),
#                                                  imdb-baseline: the baseline alone (~30 s CPU),
#                                                  on the splits the imdb run would carve
# PYTHON picks the Python for the baseline (default: the first of python3, /usr/bin/python3 with
# scikit-learn).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
[ $# -gt 0 ] && shift
tasks=("$@")
[ ${#tasks[@]} -gt 0 ] || tasks=(translate vit imdb)
cli="$build/app/attentionscope-cli"
[ -x "$cli" ] || { echo "real_presets.sh: $cli: not built" >&2; exit 2; }
data="${REALDATA:-$root/../shared/realdata}"
threads="${THREADS:-2}"
out="${OUT:-$(mktemp -d)}"
mkdir -p "$out"

# The data as the CLI reads it: the CSV and TSV unpacked, the JPEGs as class folders.
prepare() {
  case "$1" in
    translate)
      [ -s "$out/europarl.tsv" ] || xz -dc "$data/europarl_en_it_train_40k.tsv.xz" > "$out/europarl.tsv"
      echo "$out/europarl.tsv" ;;
    imdb | imdb-baseline)
      [ -s "$out/imdb.csv" ] || xz -dc "$data/imdb_train_25k.csv.xz" > "$out/imdb.csv"
      echo "$out/imdb.csv" ;;
    vit)
      [ -d "$out/cifar/train" ] || unzip -q -o "$data/cifar10_train_jpg.zip" -d "$out/cifar"
      echo "$out/cifar/train" ;;
    *) echo "real_presets.sh: unknown task $1 (translate, vit, imdb or imdb-baseline)" >&2; exit 2 ;;
  esac
}

# The IMDB yardstick: tf-idf words and word pairs with a logistic regression, fitted on the
# training split, its C chosen on the validation split, scored once on the test split — the three
# splits `split` writes with the arguments given (a run's own: --run RUN --data CSV).
imdb_baseline() {
  local split="$out/imdb_split" python="" p
  rm -rf "$split"
  "$cli" split "$@" --out "$split" > "$out/imdb_split.log" 2>&1 ||
    { echo "imdb: split failed, see $out/imdb_split.log" >&2; tail -3 "$out/imdb_split.log" >&2; return 1; }
  for p in ${PYTHON:-} python3 /usr/bin/python3; do
    if "$p" -c 'import sklearn' 2>/dev/null; then python=$p; break; fi
  done
  if [ -z "$python" ]; then
    echo "  tf-idf baseline: skipped (no Python with scikit-learn: apt-get install python3-sklearn)"
    return 0
  fi
  "$python" "$root/bench/imdb_tfidf_baseline.py" "$split" > "$out/imdb_baseline.log" 2>&1 ||
    { echo "imdb: the baseline failed, see $out/imdb_baseline.log" >&2; tail -3 "$out/imdb_baseline.log" >&2; return 1; }
  local line
  line=$(grep ' test_accuracy=' "$out/imdb_baseline.log" | tail -1)
  field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$line"; }
  printf '    tf-idf + LR baseline: acc %s on %s samples (the same test split; C=%s chosen on validation, acc %s there; %s s, %s s CPU)\n' \
    "$(field test_accuracy)" "$(field test)" "$(field C)" "$(field validation_accuracy)" "$(field wall_s)" "$(field cpu_s)"
}

for task in "${tasks[@]}"; do
  input=$(prepare "$task")
  if [ "$task" = imdb-baseline ]; then
    # Without training: the splits a `real` run of the default seed carves.
    echo "imdb baseline on the splits of --preset real"
    imdb_baseline --task imdb --preset real --data "$input"
    continue
  fi
  run="$out/run_$task"
  rm -rf "$run"
  start=$(date +%s.%N)
  OMP_NUM_THREADS="$threads" "$cli" train --task "$task" --preset real --data "$input" \
    --threads "$threads" --out "$run" > "$out/$task.log" 2>&1 ||
    { echo "$task: training failed, see $out/$task.log" >&2; tail -5 "$out/$task.log" >&2; exit 1; }
  end=$(date +%s.%N)
  printf '%-9s wall %.1f min (%s threads)\n' "$task" "$(awk -v a="$start" -v b="$end" 'BEGIN{print (b-a)/60}')" "$threads"
  # The training loop alone (every step and validation pass; not the data's loading, the final
  # test or the calibration): what a preset's time budget is about.
  sed -n 's/^finished: \([0-9]*\) steps in \([0-9.]*\) s.*/\1 \2/p' "$out/$task.log" |
    awk '{printf "  training: %d steps in %.1f min (%.1f steps a second)\n", $1, $2 / 60, $1 / $2}'
  grep -E '^weights averaged' "$out/$task.log" | sed 's/^/  /' || true
  grep -E '^  test' "$out/$task.log" | sed 's/^/  /'
  # A classifier's end of training: the temperature fitted on the validation split, ECE before →
  # after there and on the test split (which chose nothing).
  if [ "$task" != translate ]; then
    grep -E 'calibration: temperature' "$out/$task.log" | sed 's/^.*calibration: /  calibration: /' ||
      echo "  calibration: none logged (see $out/$task.log)"
  fi
  [ "$task" != imdb ] || imdb_baseline --run "$run" --data "$input"
  if [ "$task" = translate ]; then
    beam_start=$(date +%s.%N)
    OMP_NUM_THREADS="$threads" "$cli" evaluate --run "$run" --data "$input" --split test \
      --beam 4 --errors 0 > "$out/$task.beam.log" 2>&1 ||
      { echo "translate: evaluate --beam 4 failed, see $out/$task.beam.log" >&2; exit 1; }
    beam_end=$(date +%s.%N)
    printf '  beam 4 on the test split (%.1f min):\n' "$(awk -v a="$beam_start" -v b="$beam_end" 'BEGIN{print (b-a)/60}')"
    grep -E '^  (BLEU|greedy BLEU|brevity penalty|chrF) ' "$out/$task.beam.log" | sed 's/^/  /' || true
  fi
done
echo "runs and logs: $out"
