#!/usr/bin/env bash
# How long a build takes, as a new user and as CI meet it: a fresh clone of HEAD with an empty
# compiler cache (configure, the two programs, the whole build, the suite), then a second clone in
# another folder with the cache the first one filled (what a clean CI checkout gets on a machine
# where earlier builds ran), then a one-file engine change rebuilt and relinked.
#   bench/build_times.sh [--no-suite] [--keep]
#     --no-suite   skip the two runs of the test suite (about 4 minutes each on 2 cores)
#     --keep       leave the clones and the cache in $BUILD_TIMES_DIR for a look afterwards
# Environment: BUILD_TIMES_DIR (default: a new folder under /tmp). The cache is a private one
# (CCACHE_DIR in that folder): your own ~/.cache/ccache is neither read nor emptied.
# Needs what scripts/install-deps.sh installs. Commits only: uncommitted changes are not measured.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
suite=1
keep=0
for arg in "$@"; do
  case "$arg" in
    --no-suite) suite=0 ;;
    --keep) keep=1 ;;
    *) echo "build_times: unknown option $arg (--no-suite, --keep)" >&2; exit 2 ;;
  esac
done
command -v ccache >/dev/null || { echo "build_times: ccache is not installed (scripts/install-deps.sh)" >&2; exit 2; }

work="${BUILD_TIMES_DIR:-$(mktemp -d /tmp/build_times.XXXXXX)}"
mkdir -p "$work"
[ "$keep" = 1 ] || trap 'rm -rf "$work"' EXIT
export CCACHE_DIR="$work/ccache"
rm -rf "$CCACHE_DIR" "$work/first" "$work/elsewhere"
commit="$(git -C "$root" rev-parse --short HEAD)"

rows=()
# measure LABEL COMMAND…: runs COMMAND, keeps its wall time and the cache's hits during it.
measure() {
  local label="$1"
  shift
  ccache --zero-stats >/dev/null
  local log="$work/$(echo "$label" | tr -c 'a-zA-Z0-9\n' '_').log"
  local start end
  start=$(date +%s.%N)
  if ! "$@" >"$log" 2>&1; then
    tail -30 "$log"
    echo "build_times: \"$label\" failed (log: $log)" >&2
    exit 1
  fi
  end=$(date +%s.%N)
  local hits
  hits=$(ccache --print-stats | awk -F'\t' '
    $1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { h += $2 }
    $1 == "cache_miss" { m += $2 }
    END { if (h + m == 0) print "-"; else printf "%d of %d", h, h + m }')
  rows+=("$(printf '%-46s %8.1f s   %s' "$label" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" "$hits")")
  echo "${rows[-1]}"
}

configure() { cmake -S "$1" -B "$1/build" -G Ninja -DCMAKE_BUILD_TYPE=Release; }
build() {
  local tree="$1"
  shift
  local targets=()
  for t in "$@"; do targets+=(--target "$t"); done
  cmake --build "$tree/build" --parallel "$(nproc)" ${targets[@]+"${targets[@]}"}
}
suite_in() {
  (cd "$1/build" && OMP_NUM_THREADS=1 QT_QPA_PLATFORM=offscreen ctest --parallel "$(nproc)" \
    --timeout 900 --output-on-failure)
}

echo "build_times: $commit, $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), $(ccache --version | head -1)"
echo "build_times: in $work"
# A clone of $commit in TREE, configured, built (the two programs first, then the rest) and
# tested, each step measured under LABEL ("fresh clone", "another folder") and CACHE ("empty
# cache", "warm cache").
clone_and_measure() {
  local tree=$1 label=$2 cache=$3
  git clone -q "$root" "$tree"
  git -C "$tree" checkout -q "$commit"
  measure "$label, $cache: configure" configure "$tree"
  measure "$label, $cache: the two programs" build "$tree" attentionscope attentionscope-cli
  measure "$label, $cache: the rest of the build" build "$tree"
  if [ "$suite" = 1 ]; then measure "$label: the suite (ctest)" suite_in "$tree"; fi
}

clone_and_measure "$work/first" "fresh clone" "empty cache"
# Another folder, deeper, so that nothing can match by path: what CI's clean clone meets.
clone_and_measure "$work/elsewhere/clone" "another folder" "warm cache"

# One engine file changed in its code (not a comment, which the cache might see through): the
# window and the CLI rebuilt and relinked.
edited="$work/elsewhere/clone/engine/train/training_session.cpp"
printf '\nnamespace {\n[[maybe_unused]] constexpr int kBuildTimesEdit = %s;\n}  // namespace\n' \
  "$(date +%s)" >>"$edited"
measure "one engine file changed: window and CLI relinked" build "$work/elsewhere/clone" attentionscope attentionscope-cli

echo
echo "build_times: where the cold build's compiler time went (ninja's log of the fresh clone):"
echo "  cpu s   units  target"
awk -F'\t' 'NR > 1 && $4 ~ /\.(o|gch)$/ {
    target = $4; sub(/\/CMakeFiles\//, " ", target); split(target, part, " ");
    sub(/\.dir\/.*/, "", part[2]); key = part[1] "/" part[2];
    if (key ~ /^tests\/app\//) key = "tests/app/* (a program a test)";
    if (key ~ /^tests\/widgets\//) key = "tests/widgets/* (a program a test)";
    cpu[key] += ($2 - $1) / 1000; units[key]++ }
  END { for (k in cpu) printf "%7.1f %7d  %s\n", cpu[k], units[k], k }' \
  "$work/first/build/.ninja_log" | sort -rn | head -12

echo
echo "build_times: $commit on $(nproc) cores; wall time, and the compiler cache's hits in each step"
printf '%s\n' "${rows[@]}"
