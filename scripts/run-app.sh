#!/usr/bin/env bash
# Quick start: install what is missing, build the two programs (not the test suites: run-tests.sh
# builds those), start the GUI on the built-in demo.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" attentionscope attentionscope-cli
exec "${ATTENTIONSCOPE_BUILD_DIR:-$root/build}/app/attentionscope" "$@"
