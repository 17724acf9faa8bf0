#!/usr/bin/env bash
# Builds the libFuzzer targets (scripts/san_setup.sh: clang, ASan + UBSan) and runs each for a
# bounded time from the seed corpus (tests/data/**/*.py, resources/examples/*.py,
# ../shared/acceptance/*.py and the regression inputs tests/data/fuzz/*/*) with the language
# dictionary (tirx_fuzz_dict). docs/testing.md says what each target checks.
#
# Usage: scripts/fuzz.sh [-t SECONDS] [-p PARALLEL] [--keep-going] [TARGET...]
#   -t SECONDS      time per target (default 60)
#   -p PARALLEL     targets run at once (default 1)
#   --keep-going    libFuzzer's fork mode: record every crash, timeout and OOM as an artifact and
#                   go on (for long hunting runs); without it a target stops at its first finding
#   TARGET          check codegen sim verify (default: all four)
# Environment: TIRX_FUZZ_DIR (corpus, artifacts, logs; default build-san/fuzz-run), NICE
#   (niceness, default 0), TIRX_SHARED_DIR (the folder holding acceptance/).
# Exit status: 0 when no target found anything, 1 otherwise. Findings are in
# $TIRX_FUZZ_DIR/artifacts/TARGET/ (crash-*, timeout-*, oom-*, leak-*); reproduce one with
# build-san/fuzz/tirx_fuzz_TARGET FILE.
set -euo pipefail
TIME=60
PARALLEL=1
KEEP_GOING=0
TARGETS=()
while [ $# -gt 0 ]; do
  case "$1" in
    -t) TIME="$2"; shift 2 ;;
    -p) PARALLEL="$2"; shift 2 ;;
    --keep-going) KEEP_GOING=1; shift ;;
    check|codegen|sim|verify) TARGETS+=("$1"); shift ;;
    *) echo "fuzz: unknown argument '$1' (see the header of scripts/fuzz.sh)" >&2; exit 2 ;;
  esac
done
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(check codegen sim verify)

source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/san_setup.sh"
san_build
FUZZ_DIR="${TIRX_FUZZ_DIR:-$SAN_BUILD/fuzz-run}"
SHARED="${TIRX_SHARED_DIR:-$ROOT/../shared}"
mkdir -p "$FUZZ_DIR/logs"
rm -rf "$FUZZ_DIR/seeds"
mkdir -p "$FUZZ_DIR/seeds"
# Seeds are named after their path so that two files with the same name do not collide.
{
  find "$ROOT/tests/data" -name '*.py' -type f
  find "$ROOT/resources/examples" -maxdepth 1 -name '*.py' -type f
  [ -d "$SHARED/acceptance" ] && find "$SHARED/acceptance" -maxdepth 1 -name '*.py' -type f
  [ -d "$ROOT/tests/data/fuzz" ] && find "$ROOT/tests/data/fuzz" -type f ! -name '*.md'
} | while read -r f; do
  cp "$f" "$FUZZ_DIR/seeds/$(echo "${f#"$ROOT"/}" | tr '/' '_')"
done
"$SAN_BUILD/fuzz/tirx_fuzz_dict" >"$FUZZ_DIR/tirx.dict"
echo "fuzz: $(ls "$FUZZ_DIR/seeds" | wc -l) seeds, $(wc -l <"$FUZZ_DIR/tirx.dict") dictionary" \
  "entries, ${TIME}s per target, $PARALLEL at a time"

run_target() {
  local t="$1"
  local corpus="$FUZZ_DIR/corpus/$t" art="$FUZZ_DIR/artifacts/$t/"
  mkdir -p "$corpus" "$art"
  touch "$FUZZ_DIR/logs/$t.start"
  local flags=(-max_total_time="$TIME" -timeout="${TIRX_FUZZ_TIMEOUT:-25}" -rss_limit_mb=2560
               -max_len=8192 -dict="$FUZZ_DIR/tirx.dict" -artifact_prefix="$art"
               -print_final_stats=1 -print_funcs=0)
  if [ "$KEEP_GOING" = 1 ]; then
    flags+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  fi
  nice -n "${NICE:-0}" "$SAN_BUILD/fuzz/tirx_fuzz_$t" "${flags[@]}" "$corpus" "$FUZZ_DIR/seeds" \
    >"$FUZZ_DIR/logs/$t.log" 2>&1
}

# Runs the targets PARALLEL at a time; each writes its exit status next to its log.
pending=("${TARGETS[@]}")
while [ ${#pending[@]} -gt 0 ]; do
  batch=("${pending[@]:0:$PARALLEL}")
  pending=("${pending[@]:$PARALLEL}")
  for t in "${batch[@]}"; do
    ( set +e; run_target "$t"; echo $? >"$FUZZ_DIR/logs/$t.rc" ) &
  done
  wait
done

passed=0
failed=0
for t in "${TARGETS[@]}"; do
  rc=$(cat "$FUZZ_DIR/logs/$t.rc")
  log="$FUZZ_DIR/logs/$t.log"
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  # Plain mode prints the executions in its final stats; fork mode only in its status lines.
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' ||
          echo "$last" | grep -oE '^#[0-9]+' | tr -d '#' || true)
  cov=$(echo "$last" | grep -o 'cov: [0-9]*' | grep -o '[0-9]*' || true)
  ft=$(echo "$last" | grep -o 'ft: [0-9]*' | grep -o '[0-9]*' || true)
  findings=$(find "$FUZZ_DIR/artifacts/$t" -type f \( -name 'crash-*' -o -name 'timeout-*' \
    -o -name 'oom-*' -o -name 'leak-*' -o -name 'slow-unit-*' \) -newer "$FUZZ_DIR/logs/$t.start" | wc -l)
  printf 'fuzz: %-8s rc=%s execs=%s cov=%s ft=%s corpus=%s new-findings=%s\n' "$t" "$rc" \
    "${execs:-?}" "${cov:-?}" "${ft:-?}" "$(ls "$FUZZ_DIR/corpus/$t" | wc -l)" "$findings"
  if [ "$rc" != 0 ] || { [ "$findings" != 0 ] && [ "$KEEP_GOING" = 1 ]; }; then
    failed=$((failed + 1))
    echo "---- $t: last lines of $log" >&2
    tail -n 60 "$log" >&2
  else
    passed=$((passed + 1))
  fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" = 0 ]
