#!/usr/bin/env bash
# Builds the engine, the CLI and the engine, data and distributed tests against LibTorch 2.x on a
# machine whose own LibTorch is Debian 12's 1.13, and runs them: Debian trixie's libtorch-dev (2.6)
# in a chroot. The engine-only mode of scripts/check-debian13.sh, which checks the whole program
# there; see that script for the chroot, its environment variables and what it needs.
#   scripts/check-libtorch2.sh [CTEST_ARGS…]     e.g. -R 'Cuda|Parity'
set -euo pipefail
exec "$(dirname "$0")/check-debian13.sh" --engine-only "$@"
