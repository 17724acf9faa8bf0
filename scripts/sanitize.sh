#!/usr/bin/env bash
# The sanitizer build of the core, the CLI and the unit tests (clang, ASan + UBSan with
# -fno-sanitize-recover=undefined, GUI off) in build-san/, then the `unit` test label under it
# (docs/testing.md). Extra arguments go to ctest (e.g. -R tst_sema).
set -euo pipefail
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/san_setup.sh"
san_build
export QT_QPA_PLATFORM=offscreen
cd "$SAN_BUILD"
ctest --output-on-failure -L unit -j"${TIRX_JOBS:-$(nproc)}" "$@"
