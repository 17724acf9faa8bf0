#!/usr/bin/env bash
# The sanitizer build of the core, the CLI and the unit tests (clang, ASan + UBSan with
# -fno-sanitize-recover=undefined, GUI off) in build-san/, then the `unit` test label under it
# (docs/testing.md), less the `slow` label: those suites compile every generated kernel with NVRTC
# in a loop, which the g++ run of test.sh covers, and under ASan they outlast Qt Test's watchdog.
# Extra arguments go to ctest (e.g. -R tst_sema).
set -euo pipefail
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/san_setup.sh"
san_build
export QT_QPA_PLATFORM=offscreen
cd "$SAN_BUILD"
ctest --output-on-failure -L unit -LE slow -j"${TIRX_JOBS:-$(nproc)}" "$@"
