#!/usr/bin/env bash
# Kill -9 matrix for `download-model`: against a local hub (build/tests/download/fixture_hub_server,
# weights sent slowly), starts a download, kills it with SIGKILL at a random time, checks that
# nothing is half-written, then runs the same command again and checks that it resumes to the
# complete model. Two cases, taken in turn:
#   fresh   acme/bert into a folder that does not exist
#   force   acme/bert --force into a folder holding acme/vit and files of the user's own
# After the kill: the folder's parent holds only the folder and <folder>.part; a fresh folder is
# absent or byte-for-byte the complete model; in a forced one the user's files are intact, every
# other file is whole (one of the two models' files, byte for byte), and without a replacement
# journal in <folder>.part its model files are all the old model's or all the new one's. After the
# rerun (exit 0): every file of the model byte for byte, the user's files intact, no .part left.
#
#   scripts/kill_matrix_download.sh [BUILD_DIR] [RUNS] [SEED]
#
# BUILD_DIR (default build) must hold tests/download/fixture_hub_server and app/attentionscope-cli
# (else tests/download/download_command_driver, the same command without LibTorch). Prints a line
# per run and a summary; exits 1 when any run failed. About 6 s a run.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
runs="${2:-100}"
seed="${3:-$RANDOM}"
cli="$build/app/attentionscope-cli"
[ -x "$cli" ] || cli="$build/tests/download/download_command_driver"
server_bin="$build/tests/download/fixture_hub_server"
for binary in "$cli" "$server_bin"; do
  [ -x "$binary" ] || { echo "kill_matrix_download: $binary is not built" >&2; exit 2; }
done

work="$(mktemp -d "${TMPDIR:-/tmp}/kill_matrix_download.XXXXXX")"
server_pid=""
cleanup() {
  exec 3>&- 2>/dev/null || true
  [ -n "$server_pid" ] && wait "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The hub: 6 MB of weights at 3 MB/s, so that a download takes a few seconds.
mkfifo "$work/server.in"
"$server_bin" --weights 6000000 --rate 3000000 <"$work/server.in" >"$work/server.out" &
server_pid=$!
exec 3>"$work/server.in"  # the server runs while this stays open
for _ in $(seq 100); do [ -s "$work/server.out" ] && break; sleep 0.05; done
export ATTENTIONSCOPE_HF_ENDPOINT="$(head -n1 "$work/server.out")"
unset HF_TOKEN
[ -n "$ATTENTIONSCOPE_HF_ENDPOINT" ] || { echo "kill_matrix_download: the hub did not start" >&2; exit 2; }

now_ms() { date +%s%3N; }

# The reference models, each downloaded once without interruption.
start=$(now_ms)
"$cli" download-model acme/bert --to "$work/ref/bert" >/dev/null 2>"$work/ref-bert.log" ||
  { cat "$work/ref-bert.log" >&2; exit 2; }
duration=$(($(now_ms) - start))
"$cli" download-model acme/vit --to "$work/ref/vit" >/dev/null 2>"$work/ref-vit.log" ||
  { cat "$work/ref-vit.log" >&2; exit 2; }
echo "kill_matrix_download: $cli, hub $ATTENTIONSCOPE_HF_ENDPOINT, $runs runs, seed $seed;" \
  "an uninterrupted download takes ${duration} ms"
RANDOM=$seed

failures=0
declare -A stages=()

fail() {
  echo "  FAIL run $run ($case, killed after ${delay} ms): $1"
  failures=$((failures + 1))
}

# The user's own files of the force case, and a check that they are untouched.
write_user_files() {
  printf 'my notes\n' >"$1/notes.txt"
  mkdir -p "$1/tuned"
  head -c 100000 /dev/urandom >"$1/tuned/weights.bin"
  cp "$1/tuned/weights.bin" "$2"
}
check_user_files() {
  [ "$(cat "$1/notes.txt" 2>/dev/null)" = "my notes" ] || fail "notes.txt changed or gone"
  cmp -s "$1/tuned/weights.bin" "$2" || fail "tuned/weights.bin changed or gone"
}

# True when every file of the reference `model` is in `folder` byte for byte.
holds_all_of() {
  local model="$1" folder="$2" file
  for file in $(cd "$work/ref/$model" && find . -type f); do
    cmp -s "$work/ref/$model/$file" "$folder/$file" || return 1
  done
}

for run in $(seq "$runs"); do
  case=$([ $((run % 2)) -eq 1 ] && echo fresh || echo force)
  parent="$work/run$run"
  folder="$parent/model"
  mkdir -p "$parent"
  force_flag=""
  if [ "$case" = force ]; then
    cp -a "$work/ref/vit" "$folder"
    write_user_files "$folder" "$parent.user-weights"
    force_flag="--force"
  fi
  # Kill times spread over the whole download and a little past its end.
  delay=$((RANDOM * (duration * 12 / 10) / 32768))
  "$cli" download-model acme/bert --to "$folder" $force_flag >"$parent.out" 2>"$parent.err" &
  pid=$!
  sleep "$(awk -v ms="$delay" 'BEGIN { printf "%.3f", ms / 1000 }')"
  kill -9 "$pid" 2>/dev/null || true
  status=0
  wait "$pid" 2>/dev/null || status=$?

  # What the kill interrupted.
  if [ "$status" -ne 137 ]; then
    stage="finished"
  elif [ -f "$folder.part/.replacing.json" ]; then
    stage="replacing"
  elif compgen -G "$folder.part/*.part" >/dev/null; then
    stage="transfer"
  elif [ -d "$folder.part" ] && [ -n "$(ls -A "$folder.part")" ]; then
    stage="staged"
  else
    stage="metadata"
  fi
  stages[$stage]=$((${stages[$stage]:-0} + 1))

  # Nothing half-written.
  extra="$(cd "$parent" && ls -A | grep -vxE 'model|model\.part' || true)"
  [ -z "$extra" ] && [ -z "$(ls -A "$work" | grep -vxE 'ref|run[0-9]+|run[0-9]+\.(out|err|user-weights)|server\.(in|out)|ref-(bert|vit)\.log' || true)" ] ||
    fail "unexpected files beside the model folder: $extra"
  if [ "$case" = fresh ]; then
    if [ -e "$folder" ] && ! { holds_all_of bert "$folder" && diff -rq "$work/ref/bert" "$folder" >/dev/null; }; then
      fail "the model folder appeared incomplete"
    fi
  else
    check_user_files "$folder" "$parent.user-weights"
    for file in $(cd "$folder" && find . -type f ! -path './notes.txt' ! -path './tuned/*'); do
      cmp -s "$folder/$file" "$work/ref/bert/$file" 2>/dev/null ||
        cmp -s "$folder/$file" "$work/ref/vit/$file" 2>/dev/null || fail "$file is neither model's"
    done
    if [ ! -f "$folder.part/.replacing.json" ] && ! holds_all_of vit "$folder" &&
      ! holds_all_of bert "$folder"; then
      fail "two models mixed without a journal to finish the replacement"
    fi
  fi

  # The same command again completes it.
  if ! "$cli" download-model acme/bert --to "$folder" $force_flag >"$parent.out" 2>"$parent.err"; then
    fail "the rerun failed: $(tail -n1 "$parent.err")"
  else
    holds_all_of bert "$folder" || fail "the rerun left an incomplete model"
    [ "$case" = force ] && check_user_files "$folder" "$parent.user-weights"
    [ ! -e "$folder.part" ] || fail "the rerun left $folder.part"
  fi
  rerun="$(grep -oE 'is ready in|is already in' "$parent.err" | head -n1 || true)"
  echo "run $run: $case, killed after ${delay} ms during $stage; rerun: ${rerun:-failed}"
  rm -rf "$parent" "$parent.out" "$parent.err" "$parent.user-weights"
done

summary=""
for stage in "${!stages[@]}"; do summary+=" $stage ${stages[$stage]},"; done
echo "kill_matrix_download: $runs runs,$summary ${failures} failures (seed $seed)"
[ "$failures" -eq 0 ]
