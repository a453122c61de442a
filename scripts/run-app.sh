#!/usr/bin/env bash
# Quick start: install what is missing, build, start the GUI on the built-in demo.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
exec "${ATTENTIONSCOPE_BUILD_DIR:-$root/build}/app/attentionscope" "$@"
