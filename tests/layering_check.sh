#!/usr/bin/env bash
# The layers' include rules (docs/ARCHITECTURE.md, "Libraries"), checked on the sources:
#   widgets/  no LibTorch (torch/, ATen/, c10/) and nothing of the engine or the app;
#   app/gui/  no LibTorch: the engine links it PRIVATE, which hides <torch/...> but not Debian's
#             /usr/include/ATen and /usr/include/c10, so this check covers those;
#   app/cli/  no LibTorch either: the CLI reaches tensors only through the engine.
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
if [ "$failed" -eq 0 ]; then
  echo "layering: widgets/, app/gui/ and app/cli/ include no LibTorch; widgets/ no engine or app"
fi
exit "$failed"
