#!/usr/bin/env bash
# Attention throughput on a GPU machine (issue 24), the quick loop of scripts/gpu-check.sh's
# attention step: builds the CLI and bench_gpu_attention (no Qt), then for each benchmark kernel
# (bench/kernels/attention_fwd_bf16_{d128,d128_causal,d64_q192,d64}.py, or the KERNEL_FILEs given, causal
# when the name says so) prints its resource report (registers, spills, shared memory) and
# bench_gpu_attention's check against torch SDPA and its timings beside SDPA's cuDNN and flash
# backends in the same call, then a summary line per kernel with the card's name.
# Usage: scripts/attention-bench.sh [KERNEL_FILE...]
# Environment: BUILD_DIR (build-gpu), JOBS, ATTN_ARGS (extra bench_gpu_attention options, e.g.
#   "--rounds 5"), OUT (logs also go to $OUT/attention-bench when set).
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${BUILD_DIR:-$ROOT/build-gpu}"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 4)}"
LOG="${OUT:-$BUILD}/attention-bench"
mkdir -p "$LOG"
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTIRX_BUILD_GUI=OFF -DTIRX_BUILD_TESTS=OFF > /dev/null || exit 1
cmake --build "$BUILD" -j "$JOBS" --target tirx bench_gpu_attention > "$LOG/build.log" 2>&1 || { tail -30 "$LOG/build.log"; exit 1; }
CARD="$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
if [ $# -eq 0 ]; then
  set -- "$ROOT"/bench/kernels/attention_fwd_bf16_d128.py "$ROOT"/bench/kernels/attention_fwd_bf16_d128_causal.py \
    "$ROOT"/bench/kernels/attention_fwd_bf16_d64_q192.py \
    "$ROOT"/bench/kernels/attention_fwd_bf16_d64.py
fi
declare -a SUMMARY=()
FAILED=0
for f in "$@"; do
  name="$(basename "$f" .py)"
  flag=""
  case "$name" in *causal*) flag="--causal" ;; esac
  echo "=== $name $flag"
  "$BUILD/bin/tirx" compile "$f" --emit resources 2>&1 | tee "$LOG/resources_$name.txt"
  # shellcheck disable=SC2086
  "$BUILD/bin/bench_gpu_attention" "$f" $flag ${ATTN_ARGS:-} 2>&1 | tee "$LOG/bench_$name.txt"
  rc=${PIPESTATUS[0]}
  [ "$rc" = 0 ] || FAILED=1
  get() { awk -v k="$1" -v s="$2" '$1 == k && $2 == s {print $3}' "$LOG/bench_$name.txt"; }
  SUMMARY+=("$(printf '%-34s %-5s tirx %7s TFLOP/s  cuDNN %7s (%s)  flash %7s (%s)  [%s]' "$name" \
    "$([ "$rc" = 0 ] && echo ok || echo FAIL)" "$(get attn_tflops tirx)" "$(get attn_tflops cudnn)" \
    "$(awk -v r="$(get attn_ratio cudnn)" 'BEGIN { if (r != "") printf "%.1f %%", 100 * r; else printf "-" }')" \
    "$(get attn_tflops flash)" \
    "$(awk -v r="$(get attn_ratio flash)" 'BEGIN { if (r != "") printf "%.2fx", r; else printf "-" }')" "$CARD")")
done
echo
echo "=== summary"
printf '%s\n' "${SUMMARY[@]}" | tee "$LOG/summary.txt"
exit $FAILED
