#!/usr/bin/env bash
# Sets everything up (packages, configure, build) and runs every test suite with CTest.
# GPU tests skip visibly without a driver. Extra arguments go to ctest (e.g. -L unit).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/setup.sh"
export QT_QPA_PLATFORM=offscreen
cd "$BUILD"
ctest --output-on-failure -j"${TIRX_JOBS:-$(nproc)}" "$@"
