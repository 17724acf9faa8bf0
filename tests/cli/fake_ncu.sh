#!/bin/sh
# A stand-in for Nsight Compute's `ncu` on CI machines without a GPU (tests/cli/tst_cli_profile),
# named by TIRX_NCU. Profiling (`... -o REP PROGRAM ARGS`): writes its command line to
# $TIRX_FAKE_NCU_ARGS when set and writes a one-line REP.ncu-rep, running nothing. Import (`-i REP --page
# P --csv ...`): prints the fixture $TIRX_FAKE_NCU_DIR/source_sass.csv, details.csv or raw.csv.
page=""
import=""
rep=""
while [ $# -gt 0 ]; do
  case "$1" in
    -i) import="$2"; shift 2 ;;
    --page) page="$2"; shift 2 ;;
    -o) rep="$2"; shift 2 ;;
    *) [ -n "${TIRX_FAKE_NCU_ARGS:-}" ] && [ -z "$import" ] && printf '%s ' "$1" >> "$TIRX_FAKE_NCU_ARGS"; shift ;;
  esac
done
if [ -n "$import" ]; then
  [ -f "$import" ] || { echo "==ERROR== cannot open $import" >&2; exit 1; }
  case "$page" in
    source) cat "$TIRX_FAKE_NCU_DIR/source_sass.csv" ;;
    details) cat "$TIRX_FAKE_NCU_DIR/details.csv" ;;
    raw) cat "$TIRX_FAKE_NCU_DIR/raw.csv" ;;
    *) echo "==ERROR== unknown page $page" >&2; exit 1 ;;
  esac
  exit 0
fi
echo "==PROF== Connected to process 1"
printf 'NCU-REP fake report of %s\n' "$rep" > "$rep.ncu-rep"
echo "==PROF== Report: $rep.ncu-rep"
