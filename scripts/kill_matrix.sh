#!/usr/bin/env bash
# kill -9 at random times over training, checkpointing and export, then what comes next must
# resume or refuse cleanly, every time:
#   train       a tiny sentiment run killed anywhere; `train --resume` must finish with the same
#               losses as an uninterrupted run, or refuse with a one-line message (a run killed
#               before its config.json existed has nothing to resume), after which the same command
#               must start it afresh
#   checkpoint  the same with one step per epoch, so that every step evaluates and writes best.pt
#               and last.pt: most kills land in a checkpoint write
#   export      `attentionscope --open RUN --export-video` or `--export-dir` killed anywhere; the
#               next start must leave no partial video and no staging folder of the killed process,
#               and export again
# A trial fails on a crash, a hang, an "internal error", losses that differ from the uninterrupted
# run, a temp file left in the run folder, or anything of a killed export left behind.
#   scripts/kill_matrix.sh [BUILD_DIR] [TRIALS] [SEED]     (defaults: build 100 27)
# TRAIN_STEPS and CHECKPOINT_STEPS (defaults 60 and 24) shorten the runs on a busy machine.
# Prints one line per trial and the counts; exit code 1 when a trial failed. The download part is
# scripts/kill_matrix_download.sh.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
trials="${2:-100}"
RANDOM="${3:-27}"
cli="$build/app/attentionscope-cli"
gui="$build/app/attentionscope"
for program in "$cli" "$gui"; do
  [ -x "$program" ] || { echo "missing $program: build attentionscope-cli and attentionscope" >&2; exit 2; }
done
work="$(mktemp -d "${TMPDIR:-/tmp}/kill_matrix.XXXXXX")"
trap 'rm -rf "$work"' EXIT
# The GUI's staging folders go to TMPDIR: one of the matrix's own, so that only its leftovers count.
mkdir -p "$work/tmp"
export QT_QPA_PLATFORM=offscreen OMP_NUM_THREADS=1 TMPDIR="$work/tmp"
export XDG_CONFIG_HOME="$work/config"  # the GUI's remembered settings stay out of the user's

train_args=(train --task imdb --preset tiny --probe-every-steps 5)
kinds=(train checkpoint export)
declare -A args_of=(
  [train]="--steps ${TRAIN_STEPS:-60}"
  [checkpoint]="--steps ${CHECKPOINT_STEPS:-24} --batch-size 65536"
)

# Step and loss of every train row of RUN/metrics.csv, in order.
losses() { awk -F, '$3 == "train" { print $1 "," $4 }' "$1/metrics.csv" 2>/dev/null; }

# Seconds a command takes, to spread kill times over all of it.
seconds_of() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }'
}

# A delay in [0.05, limit] seconds.
random_delay() { awk -v r="$RANDOM" -v t="$1" 'BEGIN { printf "%.3f", 0.05 + r / 32767 * t }'; }

# Starts "$@" in the background, kills it with SIGKILL after DELAY seconds (if it still runs);
# prints "killed" or "ended".
run_and_kill() {
  local delay="$1"
  shift
  "$@" >"$work/killed.out" 2>&1 &
  local pid=$!
  echo "$pid" >"$work/killed.pid"
  sleep "$delay"
  if kill -0 "$pid" 2>/dev/null; then
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    echo killed
  else
    wait "$pid" 2>/dev/null
    echo ended
  fi
}

# A refusal is clean when the program exited by itself (not by a signal) with one line that names
# what is wrong, and no internal error.
clean_refusal() {
  local code="$1" out="$2"
  [ "$code" -ge 1 ] && [ "$code" -lt 128 ] || return 1
  ! grep -qiE "internal error|terminate called|Segmentation|Aborted|core dumped" "$out"
}

echo "kill matrix: $trials trials in $work (build $build)"
declare -A reference reference_time
for kind in train checkpoint; do
  # shellcheck disable=SC2086
  reference_time[$kind]=$(seconds_of "$cli" "${train_args[@]}" ${args_of[$kind]} --out "$work/reference_$kind")
  reference[$kind]="$(losses "$work/reference_$kind")"
  [ -n "${reference[$kind]}" ] || { echo "the uninterrupted $kind run failed" >&2; exit 2; }
done
export_time=$(seconds_of "$gui" --open "$work/reference_train" --export-video "$work/reference.mp4" --quit)
[ -s "$work/reference.mp4" ] || { echo "the uninterrupted export failed" >&2; exit 2; }
echo "uninterrupted: train ${reference_time[train]} s, checkpoint ${reference_time[checkpoint]} s, export $export_time s"

declare -A count
failures=0
for ((i = 1; i <= trials; i++)); do
  kind=${kinds[$((i % 3))]}
  if [ "$kind" = export ]; then
    out="$work/export_$i"
    mkdir -p "$out"
    if ((i % 2)); then
      target=(--export-video "$out/v.mp4")
    else
      target=(--export-dir "$out/figures")
    fi
    delay=$(random_delay "$export_time")
    state=$(run_and_kill "$delay" "$gui" --open "$work/reference_train" "${target[@]}" --quit)
    killed_pid=$(cat "$work/killed.pid")
    # The next start: the same export again.
    timeout 300 "$gui" --open "$work/reference_train" "${target[@]}" --quit >"$work/next.out" 2>&1
    code=$?
    left="$(find "$out" -name ".*.partial-$killed_pid-*" -o -name "*.tmp.$killed_pid.*"
      find "$work/tmp" -maxdepth 1 -name "*-$killed_pid-*")"
    if [ "$code" -eq 0 ] && [ -z "$left" ] && { [ -s "$out/v.mp4" ] || [ -s "$out/figures/loss.png" ]; }; then
      verdict=exported
    else
      verdict=FAILED
      echo "  exit $code; left behind: ${left:-nothing}; $(tail -n 2 "$work/next.out" | tr '\n' ' ')"
    fi
    echo "trial $i export (${target[0]}), kill at ${delay}s ($state): $verdict"
  else
    run="$work/run_$i"
    delay=$(random_delay "${reference_time[$kind]}")
    # shellcheck disable=SC2086
    state=$(run_and_kill "$delay" "$cli" "${train_args[@]}" ${args_of[$kind]} --out "$run")
    timeout 600 "$cli" train --resume "$run" >"$work/resume.out" 2>&1
    code=$?
    temp_files="$(find "$run" -name '*.tmp.*' 2>/dev/null)"
    if [ "$code" -eq 0 ] && [ -z "$temp_files" ]; then
      if [ "$(losses "$run")" = "${reference[$kind]}" ]; then
        verdict=resumed-identical
      else
        verdict=FAILED
        echo "  losses differ from the uninterrupted run"
      fi
    elif [ "$code" -ne 0 ] && clean_refusal "$code" "$work/resume.out"; then
      # Nothing to resume (killed before config.json): the same command must start it afresh.
      echo "  $(grep -v '^\s*$' "$work/resume.out" | tail -n 1)"
      # shellcheck disable=SC2086
      if timeout 600 "$cli" "${train_args[@]}" ${args_of[$kind]} --out "$run" >"$work/again.out" 2>&1 &&
        [ "$(losses "$run")" = "${reference[$kind]}" ]; then
        verdict=refused-then-restarted
      else
        verdict=FAILED
        echo "  starting it again failed: $(tail -n 2 "$work/again.out" | tr '\n' ' ')"
      fi
    else
      verdict=FAILED
      echo "  exit $code; temp files: ${temp_files:-none}; $(tail -n 3 "$work/resume.out" | tr '\n' ' ')"
    fi
    echo "trial $i $kind, kill at ${delay}s ($state): $verdict"
  fi
  count[$verdict]=$((${count[$verdict]:-0} + 1))
  [ "$verdict" = FAILED ] && failures=$((failures + 1))
done
echo "counts:"
for verdict in resumed-identical refused-then-restarted exported FAILED; do
  echo "  $verdict: ${count[$verdict]:-0}"
done
[ "$failures" -eq 0 ]
