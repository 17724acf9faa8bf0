#!/bin/sh
# A stand-in for NVIDIA's compute-sanitizer on CI machines without a GPU (tests/cli/tst_cli_sanitize):
# it accepts the options the GPU executor passes (--tool T --log-file F --print-limit N
# --show-backtrace device), writes its command line to $TIRX_FAKE_SANITIZER_ARGS when set, copies
# the recorded report $TIRX_FAKE_SANITIZER_LOG (tests/data/sanitizer/*.log) to the log file, and
# execs the wrapped program (the fake runner) with the remaining arguments, as the real tool does.
[ -n "${TIRX_FAKE_SANITIZER_ARGS:-}" ] && echo "$*" > "$TIRX_FAKE_SANITIZER_ARGS"
log=""
while [ $# -gt 0 ]; do
  case "$1" in
    --tool|--print-limit|--show-backtrace) shift 2 ;;
    --log-file) log="$2"; shift 2 ;;
    --*) echo "fake compute-sanitizer: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
if [ -n "$log" ] && [ -n "${TIRX_FAKE_SANITIZER_LOG:-}" ]; then cp "$TIRX_FAKE_SANITIZER_LOG" "$log"; fi
exec "$@"
