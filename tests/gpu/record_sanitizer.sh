#!/usr/bin/env bash
# Records compute-sanitizer reports of real tirx runs on a GPU machine, as test data for the
# report parser (tests/data/sanitizer/). Each run is `tirx run FILE --device cuda` whose runner
# child is wrapped in `compute-sanitizer --tool TOOL --log-file ...` through $TIRX_RUNNER, so the
# report is exactly what the sanitizer prints for the kernel the CLI generates (with #line maps to
# the script). Usage: tests/gpu/record_sanitizer.sh TIRX_BINARY OUTDIR
set -u
TIRX="$1"; OUT="$2"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
mkdir -p "$OUT"
CS="$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)"
"$CS" --version > "$OUT/version.txt" 2>&1
record() {  # record TOOL NAME SCRIPT
  local tool="$1" name="$2" script="$3"
  local wrap="$OUT/wrap_$name.sh"
  printf '#!/bin/sh\nexec "%s" --tool %s --log-file "%s" --print-limit 100 --show-backtrace device "%s" "$@"\n' \
    "$CS" "$tool" "$OUT/$name.log" "$TIRX" > "$wrap"
  chmod +x "$wrap"
  ( cd "$(dirname "$script")" && TIRX_RUNNER="$wrap" timeout 120 "$TIRX" run "$(basename "$script")" --device cuda ) \
    > "$OUT/$name.cli.txt" 2>&1
  echo "$name: exit $? ($(wc -l < "$OUT/$name.log" 2>/dev/null || echo 0) report lines)"
}
record racecheck racecheck_race "$ROOT/tests/data/sim/race.py"
record racecheck racecheck_clean "$ROOT/resources/examples/shared_affine.py"
record memcheck memcheck_oob "$ROOT/tests/data/sim/oob.py"
record memcheck memcheck_clean "$ROOT/resources/examples/activation.py"
record initcheck initcheck_output "$ROOT/tests/data/sanitizer/read_output.py"
record initcheck initcheck_clean "$ROOT/resources/examples/activation.py"
record synccheck synccheck_clean "$ROOT/resources/examples/shared_affine.py"
record racecheck racecheck_gemm "$ROOT/resources/examples/gemm_bf16_tiled.py"
