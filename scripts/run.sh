#!/usr/bin/env bash
# Sets everything up (packages, configure, build) and starts TIRx Studio on a bundled example.
# Extra arguments go to tirx-studio (e.g. a file to open, or --screenshot out.png).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/setup.sh"
EXAMPLE="$ROOT/resources/examples/activation.py"
if [ $# -eq 0 ]; then set -- "$EXAMPLE"; fi
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
  echo "run: no display found; starting under xvfb-run" >&2
  exec xvfb-run -a "$BUILD/bin/tirx-studio" "$@"
fi
exec "$BUILD/bin/tirx-studio" "$@"
