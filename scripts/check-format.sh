#!/usr/bin/env bash
# Checks that every C++ file of the repository (*.cpp, *.h) is formatted with the repo's .clang-format
# (clang-format 14, Debian 12's `clang-format` package), and the handout page's front end
# (resources/handout: its script modules, style, template and schema) with ESLint and Prettier
# (scripts/js-lint, versions pinned in its package-lock.json, installed there by `npm ci` the first
# time). Changes nothing; lists what is not formatted and exits 1 when there is any. Fix a C++ file
# with `clang-format -i FILE`, the page's files with `node scripts/js-lint/lint-handout.mjs --fix`.
# Files: the git checkout's tracked files plus new files that are not ignored; a tree that is not a
# git checkout (a tarball) is searched with find instead. tests/fuzz/corpus and third-party folders
# are skipped.
# CLANG_FORMAT=/path/to/clang-format picks another binary.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

if [ -n "${CLANG_FORMAT:-}" ]; then
  clang_format="$CLANG_FORMAT"
elif command -v clang-format-14 >/dev/null 2>&1; then
  clang_format=clang-format-14
elif command -v clang-format >/dev/null 2>&1; then
  clang_format=clang-format
else
  echo "check-format: clang-format not found (apt-get install clang-format, or scripts/install-deps.sh)" >&2
  exit 2
fi
version="$("$clang_format" --version | sed -n 's/.*version \([0-9][0-9]*\)\..*/\1/p' | head -n1)"
if [ "$version" != "14" ]; then
  echo "check-format: warning: $clang_format is version ${version:-unknown}; CI uses 14, results may differ" >&2
fi
[ -f .clang-format ] || { echo "check-format: no .clang-format in $root" >&2; exit 2; }
if ! "$clang_format" --style=file --dump-config >/dev/null; then
  echo "check-format: $clang_format cannot read .clang-format" >&2
  exit 2
fi

# Paths never checked: fuzzing inputs and anything third-party.
excluded='^(tests/fuzz/corpus/|(.*/)?(third_party|thirdparty|3rdparty|third-party|external|extern|vendor)/)'

list_files() {
  # A git checkout whose top level is this folder: tracked + untracked-but-not-ignored files.
  # (As root on a clone owned by another user, git may refuse with "dubious ownership": then find.)
  local top
  if top="$(git rev-parse --show-toplevel 2>/dev/null)" && [ "$top" -ef "$root" ] &&
    git ls-files --cached --others --exclude-standard -- '*.cpp' '*.h' 2>/dev/null; then
    return
  fi
  echo "check-format: not a git checkout, searching with find" >&2
  find . \( -path ./.git -o -path './build*' -o -path ./runs -o -path ./.whl -o -path ./.gl \
    -o -path ./.carry \) -prune -o -type f \( -name '*.cpp' -o -name '*.h' \) -print |
    sed 's|^\./||'
}

mapfile -t files < <(list_files | grep -Ev "$excluded" | sort -u)
existing=()
for f in "${files[@]}"; do [ -f "$f" ] && existing+=("$f"); done
if [ ${#existing[@]} -eq 0 ]; then
  echo "check-format: no C++ files found" >&2
  exit 2
fi

# One clang-format per file, in parallel; prints the name of each file that is not formatted.
# (exit 0 from xargs either way: the list is what counts)
# shellcheck disable=SC2016  # $0/$1 belong to the inner sh
mapfile -t bad < <(printf '%s\0' "${existing[@]}" |
  xargs -0 -n 1 -P "$(nproc 2>/dev/null || echo 2)" sh -c \
    '"$0" --style=file --dry-run -Werror "$1" >/dev/null 2>&1 || printf "%s\n" "$1"' \
    "$clang_format" | sort)

# The handout page: ESLint over its script modules joined as the build joins them, Prettier over
# each of its files.
js_status=0
lint_dir="$root/scripts/js-lint"
if [ ! -f "$lint_dir/node_modules/.package-lock.json" ] ||
  [ "$lint_dir/package-lock.json" -nt "$lint_dir/node_modules/.package-lock.json" ]; then
  command -v npm >/dev/null 2>&1 || {
    echo "check-format: npm not found (scripts/install-deps.sh installs it)" >&2
    exit 2
  }
  npm ci --prefix "$lint_dir" --no-audit --no-fund --loglevel=error >&2 || {
    echo "check-format: npm ci in scripts/js-lint failed (it needs the npm registry once)" >&2
    exit 2
  }
fi
if node "$lint_dir/lint-handout.mjs"; then
  echo "check-format: the handout page's script, style, template and schema pass ESLint and Prettier"
else
  js_status=1
fi

if [ ${#bad[@]} -eq 0 ]; then
  echo "check-format: ${#existing[@]} files formatted OK"
  exit "$js_status"
fi
echo "check-format: ${#bad[@]} of ${#existing[@]} files are not formatted with .clang-format:"
printf '  %s\n' "${bad[@]}"
echo
echo "Fix them (from the repository root) with:"
echo "  $clang_format -i FILE"
echo "or all at once:"
printf '  %s -i' "$clang_format"
printf ' %s' "${bad[@]}"
echo
echo "See the changes of one file without touching it: $clang_format --dry-run FILE"
exit 1
