#!/usr/bin/env bash
# Runs clang-tidy (the repo's .clang-tidy) on the C++ files a change touches.
#
#   scripts/tidy.sh                  files changed against origin/main (or HEAD~1 when there is no
#                                    origin/main), plus uncommitted and new untracked files
#   scripts/tidy.sh BASE             files changed against the git ref BASE, plus uncommitted ones
#   scripts/tidy.sh -- a.cpp b.h     exactly these files
#   scripts/tidy.sh --list [...]     only print which translation units would be checked
#
# Needs the compile_commands.json of a configured build: ./build, or $ATTENTIONSCOPE_BUILD_DIR
# (cmake -S . -B build -G Ninja is enough; nothing has to be built). Headers are checked through a
# .cpp that includes them: foo.h -> foo.cpp next to it when it exists, else the nearest source of the
# compile database that includes it, directly or through other headers. Files outside the compile
# database (new files before a re-configure, fuzzers, disabled options) are skipped with a note.
# Files that include LibTorch take a minute or more each.
# Prints every finding and a summary line; exits 1 when clang-tidy reports an error (a compile error
# or a check listed in WarningsAsErrors), 0 otherwise (warnings alone do not fail).
# CLANG_TIDY=/path/to/clang-tidy picks another binary; TIDY_JOBS=N runs N at once (default nproc).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
build="${ATTENTIONSCOPE_BUILD_DIR:-$root/build}"
db="$build/compile_commands.json"

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }

base=""
explicit=()
list_only=0
if [ "${1:-}" = --list ]; then
  list_only=1
  shift
fi
if [ $# -gt 0 ]; then
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --) shift; explicit=("$@"); [ ${#explicit[@]} -gt 0 ] || { usage >&2; exit 2; } ;;
    -*) usage >&2; exit 2 ;;
    *) base="$1"; [ $# -eq 1 ] || { usage >&2; exit 2; } ;;
  esac
fi

if [ -n "${CLANG_TIDY:-}" ]; then
  clang_tidy="$CLANG_TIDY"
elif command -v clang-tidy-14 >/dev/null 2>&1; then
  clang_tidy=clang-tidy-14
elif command -v clang-tidy >/dev/null 2>&1; then
  clang_tidy=clang-tidy
else
  echo "tidy: clang-tidy not found (apt-get install clang-tidy, or scripts/install-deps.sh)" >&2
  exit 2
fi
if [ ! -f "$db" ]; then
  echo "tidy: no $db; configure first: cmake -S . -B ${build#"$root"/} -G Ninja" >&2
  exit 2
fi

excluded='^(tests/fuzz/corpus/|(.*/)?(third_party|thirdparty|3rdparty|third-party|external|extern|vendor)/)'

# ---- the list of changed files -------------------------------------------------------------------
changed=()
if [ ${#explicit[@]} -gt 0 ]; then
  for f in "${explicit[@]}"; do
    f="$(realpath -m --relative-to="$root" "$f")"
    changed+=("$f")
  done
else
  git rev-parse --git-dir >/dev/null 2>&1 || {
    echo "tidy: not a git checkout; name the files: scripts/tidy.sh -- FILE..." >&2
    exit 2
  }
  if [ -z "$base" ]; then
    if git rev-parse --verify -q origin/main >/dev/null; then
      base=origin/main
    elif git rev-parse --verify -q HEAD~1 >/dev/null; then
      base=HEAD~1
    else
      base=HEAD
    fi
  fi
  git rev-parse --verify -q "$base^{commit}" >/dev/null || { echo "tidy: unknown ref '$base'" >&2; exit 2; }
  # Changes made on this branch since it left BASE (not the ones BASE got since), up to the working
  # tree (staged and unstaged), plus new files git does not ignore.
  from="$(git merge-base "$base" HEAD 2>/dev/null || echo "$base")"
  echo "tidy: files changed against $base ($(git rev-parse --short "$from")) + uncommitted"
  mapfile -t changed < <({
    git diff --name-only --diff-filter=ACMR "$from" -- '*.cpp' '*.h'
    git ls-files --others --exclude-standard -- '*.cpp' '*.h'
  } | sort -u)
fi

# ---- map them to translation units of the compile database ---------------------------------------
mapfile -t db_files < <(python3 - "$db" "$root" <<'EOF'
import json, os, sys
db, root = sys.argv[1], sys.argv[2]
seen = set()
for e in json.load(open(db)):
    f = os.path.normpath(os.path.join(e.get("directory", ""), e["file"]))
    rel = os.path.relpath(f, root)
    if not rel.startswith("..") and rel not in seen:
        seen.add(rel)
        print(rel)
EOF
)
declare -A in_db=()
for f in "${db_files[@]}"; do in_db["$f"]=1; done

# includes FILE HEADER: FILE includes HEADER by its root-relative path ("engine/x/foo.h") or, from
# the same folder, by its name ("foo.h").
includes() {
  grep -qF "#include \"$2\"" "$1" 2>/dev/null ||
    { [ "$(dirname "$1")" = "$(dirname "$2")" ] && grep -qF "#include \"$(basename "$2")\"" "$1" 2>/dev/null; }
}
# same_dir_first DIR LIST...: LIST with the entries of DIR first.
same_dir_first() {
  local dir="$1"
  shift
  printf '%s\n' "$@" | grep "^$dir/[^/]*$" || true
  printf '%s\n' "$@" | grep -v "^$dir/[^/]*$" || true
}
# unit_for_header H: a translation unit of the compile database that includes H: H's own foo.cpp,
# else the nearest source that includes it, directly or through other headers (breadth first, the
# header's own folder first). Prints nothing when there is none.
unit_for_header() {
  local queue=("$1") h c g unit
  local -A seen=(["$1"]=1)
  while [ ${#queue[@]} -gt 0 ]; do
    h="${queue[0]}"
    queue=("${queue[@]:1}")
    unit="${h%.h}.cpp"
    if [ -n "${in_db[$unit]:-}" ]; then echo "$unit"; return; fi
    while read -r c; do
      if includes "$c" "$h"; then echo "$c"; return; fi
    done < <(same_dir_first "$(dirname "$h")" "${db_files[@]}")
    while read -r g; do
      if [ -z "${seen[$g]:-}" ] && includes "$g" "$h"; then
        seen["$g"]=1
        queue+=("$g")
      fi
    done < <(same_dir_first "$(dirname "$h")" "${headers[@]}")
  done
}
mapfile -t headers < <({ git ls-files --cached --others --exclude-standard -- '*.h' 2>/dev/null ||
  find engine app widgets tests bench -name '*.h' 2>/dev/null; } | sort -u)

declare -A units=()   # translation unit -> why it is checked
skipped=()
for f in "${changed[@]}"; do
  [ -n "$f" ] || continue
  if [[ "$f" =~ $excluded ]]; then continue; fi
  case "$f" in *.cpp | *.h) ;; *) continue ;; esac
  if [ ! -f "$f" ]; then skipped+=("$f (does not exist)"); continue; fi
  if [[ "$f" == *.h ]]; then
    unit="$(unit_for_header "$f")"
    if [ -z "$unit" ] || [ -z "${in_db[$unit]:-}" ]; then
      skipped+=("$f (no source in the compile database includes it)")
      continue
    fi
    case "${units[$unit]:-}" in
      "") units["$unit"]="for $f" ;;
      changed) ;;
      *) units["$unit"]="${units[$unit]}, $f" ;;
    esac
  else
    if [ -z "${in_db[$f]:-}" ]; then
      skipped+=("$f (not in $db)")
      continue
    fi
    units["$f"]="changed"
  fi
done

for s in "${skipped[@]}"; do echo "tidy: skipped $s"; done
if [ ${#units[@]} -eq 0 ]; then
  echo "tidy: nothing to check (0 files)"
  exit 0
fi
mapfile -t todo < <(printf '%s\n' "${!units[@]}" | sort)
for u in "${todo[@]}"; do
  [ "${units[$u]}" = changed ] && echo "tidy: checking $u" || echo "tidy: checking $u (${units[$u]})"
done
[ "$list_only" = 0 ] || exit 0

# ---- run clang-tidy, TIDY_JOBS at once, one log per file -----------------------------------------
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
jobs="${TIDY_JOBS:-$(nproc 2>/dev/null || echo 2)}"
i=0
# shellcheck disable=SC2016  # $0..$3 belong to the inner sh
for u in "${todo[@]}"; do
  printf '%s\0%s\0' "$u" "$logs/$i.log"
  i=$((i + 1))
done | xargs -0 -n 2 -P "$jobs" sh -c \
  '"$0" -p "$1" --quiet "$2" >"$3" 2>&1; echo $? >"$3.rc"' "$clang_tidy" "$build"

# ---- report: each finding once (a header's findings come back from every unit that includes it) ---
# A finding is its "file:line:col: warning|error: ..." line and the notes and code lines after it.
read -r warnings errors < <(cat "$logs"/*.log | awk -v out="$logs/findings" '
  /^[0-9]+ (warning|error)s? (and [0-9]+ (warning|error)s? )?generated\.$/ { next }
  /^Suppressed [0-9]+ warnings/ || /^Use -header-filter=/ || /^Error while processing / { next }
  /^[^ ].*:[0-9]+:[0-9]+: (warning|error|fatal error): / {
    show = !($0 in seen); seen[$0] = 1
    if (show && $0 ~ /: warning: /) w++
    if (show && $0 ~ /: (fatal )?error: /) e++
  }
  show { print > out }
  END { print w + 0, e + 0 }')
[ -f "$logs/findings" ] && cat "$logs/findings"
i=0
for u in "${todo[@]}"; do
  log="$logs/$i.log"
  i=$((i + 1))
  rc="$(cat "$log.rc" 2>/dev/null || echo 1)"
  if [ "$rc" != 0 ] && ! grep -qE '^[^ ].*:[0-9]+:[0-9]+: (fatal )?error: ' "$log"; then
    # clang-tidy failed without a diagnostic (crashed, bad compile command): count it as an error.
    echo "tidy: clang-tidy exited with $rc on $u:"
    sed 's/^/  /' "$log"
    errors=$((errors + 1))
  fi
done

echo "tidy: ${#todo[@]} files checked, $warnings warnings, $errors errors"
[ "$errors" -eq 0 ]
