#!/usr/bin/env bash
# Installs the Debian 12 packages AttentionScope needs, only those that are missing.
# Runs apt-get as root directly, or through sudo for a normal user.
#   scripts/install-deps.sh [PACKAGE…]   PACKAGEs: more to install (scripts/make-deb.sh's tools)
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  # ccache: a second build of the same sources, in any clone, takes its objects from the cache;
  # lld: links the fifty-odd programs faster (the window: 0.1 s instead of bfd's 1.2 s)
  # (cmake/CompilerCache.cmake, cmake/FastLinker.cmake)
  ccache lld
  # libgloo-dev: the headers of Gloo, c10d's CPU backend (data-parallel training, engine/distributed)
  libtorch-dev libgloo-dev libopenblas0-pthread libspdlog-dev libcli11-dev nlohmann-json3-dev libopencv-dev libgif-dev libarchive-dev libcurl4-openssl-dev libssl-dev
  # libsentencepiece-dev: the translation task's subword pieces (engine/text/pieces)
  libsentencepiece-dev
  libgtest-dev
  clang-format clang-tidy
  qt6-base-dev qt6-svg-dev libqcustomplot-dev libgl-dev
  # the desktop entry's and the AppStream metainfo's validators (tests/desktop, when present)
  desktop-file-utils appstream
  # chromium: the handout's tests open the page in a real browser, headless (tests/handout);
  # python3-jsonschema: they check its data against resources/handout/handout.schema.json
  chromium python3-jsonschema
  # the seeds' own models in PyTorch, which bench/seed_compare.sh and the suite's dry run of
  # bench/gpu_compare.sh (skipped without them) time against ours
  python3-torch python3-numpy python3-pil
  "$@"
)
# Node.js and npm run the handout script's ESLint and Prettier (scripts/check-format.sh). A machine
# with its own Node.js (NodeSource's carries npm) keeps it: Debian's npm would replace it.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then sudo_cmd=(); else sudo_cmd=(sudo); fi
echo "Installing: ${missing[*]}"
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
  "${missing[@]}"
