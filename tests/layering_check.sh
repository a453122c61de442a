#!/usr/bin/env bash
# The layers' include rules (docs/ARCHITECTURE.md, "Libraries" and "Engine layers"), checked on the
# sources:
#   widgets/  no LibTorch (torch/, ATen/, c10/) and nothing of the engine or the app;
#   app/gui/  no LibTorch: the engine links it PRIVATE, which hides <torch/...> but not Debian's
#             /usr/include/ATen and /usr/include/c10, so this check covers those;
#   app/cli/  no LibTorch either: the CLI reaches tensors only through the engine;
#   engine/   every folder includes only itself and the folders listed before it in
#             engine/layers.txt (so no include runs back up and no two folders loop), and
#             the folders of the LibTorch-free library include no LibTorch.
set -euo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
cd "$root"
torch='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](torch|ATen|c10)/'
failed=0
report() {
  if [ -n "$2" ]; then
    echo "layering: $1:"
    echo "$2"
    failed=1
  fi
}
report "LibTorch in widgets/" "$(grep -rnE "$torch" widgets || true)"
report "the engine or the app in widgets/" \
  "$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"(engine|app)/' widgets || true)"
report "LibTorch in app/gui/" "$(grep -rnE "$torch" app/gui || true)"
report "LibTorch in app/cli/" "$(grep -rnE "$torch" app/cli || true)"

# engine/: the declared order, lowest layer first; "torch-free" marks the LibTorch-free library.
layers_file="engine/layers.txt"
declare -A rank=() torch_free=()
n=0
while read -r folder mark; do
  case "$folder" in "" | "#"*) continue ;; esac
  rank[$folder]=$n
  [ "${mark:-}" = "torch-free" ] && torch_free[$folder]=1
  n=$((n + 1))
done <"$layers_file"

# A folder's entry: itself, else "parent/*" (every task's own folder is one layer).
layer_of() {
  if [ -n "${rank[$1]+x}" ]; then
    echo "$1"
  elif [ "${1%/*}" != "$1" ] && [ -n "${rank[${1%/*}/*]+x}" ]; then
    echo "${1%/*}/*"
  else
    echo "$1"
  fi
}

engine_problems=""
while IFS= read -r file; do
  folder="${file#engine/}"
  folder="${folder%/*}"
  if [ "$folder" = "${file#engine/}" ]; then
    engine_problems+="$file: directly in engine/, which is no layer: put it in a folder of $layers_file"$'\n'
    continue
  fi
  source_folder="$folder"
  folder="$(layer_of "$folder")"
  if [ -z "${rank[$folder]+x}" ]; then
    engine_problems+="$file: folder engine/$folder is not listed in $layers_file"$'\n'
    continue
  fi
  if [ -n "${torch_free[$folder]+x}" ] && grep -qE "$torch" "$file"; then
    engine_problems+="$file: includes LibTorch, but engine/$folder belongs to the LibTorch-free library"$'\n'
  fi
  while IFS= read -r included; do
    target="$(layer_of "${included%/*}")"
    if [ "$target" = "$folder" ] && [ "${folder%/\*}" != "$folder" ] &&
      [ "${included%/*}" != "$source_folder" ]; then
      engine_problems+="$file: includes engine/$included: one task's folder never includes another's"$'\n'
    elif [ -z "${rank[$target]+x}" ]; then
      engine_problems+="$file: includes engine/$included, whose folder is not listed in $layers_file"$'\n'
    elif [ "$target" != "$folder" ] && [ "${rank[$target]}" -ge "${rank[$folder]}" ]; then
      engine_problems+="$file: engine/$folder includes engine/$included, a layer at or above its own"$'\n'
    fi
  done < <(sed -nE 's|^[[:space:]]*#[[:space:]]*include[[:space:]]*"engine/([^"]+)".*|\1|p' "$file")
done < <(find engine -name '*.h' -o -name '*.cpp' | sort)
report "engine layers (engine/layers.txt)" "${engine_problems%$'\n'}"

# app/gui/: bridge/ below views/ below window/, and window/'s folders in the order of their list.
report "the window or views in app/gui/bridge/" \
  "$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"app/gui/(views|window)/' app/gui/bridge || true)"
report "the window in app/gui/views/" \
  "$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"app/gui/window/' app/gui/views || true)"
window_list="app/gui/window/layers.txt"
declare -A window_rank=()
w=0
while read -r folder; do
  case "$folder" in "" | "#"*) continue ;; esac
  window_rank[$folder]=$w
  w=$((w + 1))
done <"$window_list"
window_problems=""
while IFS= read -r file; do
  part="${file#app/gui/window/}"
  part="${part%%/*}"
  if [ -z "${window_rank[$part]+x}" ]; then
    window_problems+="$file: folder app/gui/window/$part is not listed in $window_list"$'\n'
    continue
  fi
  while IFS= read -r used; do
    if [ -z "${window_rank[$used]+x}" ] || [ "${window_rank[$used]}" -gt "${window_rank[$part]}" ]; then
      window_problems+="$file: app/gui/window/$part includes app/gui/window/$used/, which is not below it in $window_list"$'\n'
    fi
  done < <(sed -nE 's|^[[:space:]]*#[[:space:]]*include[[:space:]]*"app/gui/window/([^/"]+)/.*|\1|p' "$file")
done < <(find app/gui/window -mindepth 2 \( -name '*.h' -o -name '*.cpp' \) | sort)
report "app/gui/window folders ($window_list)" "${window_problems%$'\n'}"

if [ "$failed" -eq 0 ]; then
  echo "layering: widgets/, app/gui/ and app/cli/ include no LibTorch; widgets/ no engine or app;" \
    "engine/ folders ($n) include only the layers below them; app/gui/window's folders ($w)" \
    "and bridge/ < views/ < window/ likewise"
fi
exit "$failed"
