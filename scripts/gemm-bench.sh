#!/usr/bin/env bash
# GEMM throughput on a GPU machine, side by side with cuBLAS in one run: builds the CLI and
# bench_gpu_gemm (no Qt), then for each KERNEL_FILE prints its resource report (registers, spills,
# shared memory) and bench_gpu_gemm's median time and TFLOP/s, then torch.matmul (cuBLAS) on the
# same shapes (bf16 4096^3 unless GEMM_N is set), and the ratio of each kernel to cuBLAS.
# Usage: scripts/gemm-bench.sh KERNEL_FILE...   Environment: BUILD_DIR (build-gpu), JOBS, GEMM_N.
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${BUILD_DIR:-$ROOT/build-gpu}"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 4)}"
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTIRX_BUILD_GUI=OFF -DTIRX_BUILD_TESTS=OFF > /dev/null || exit 1
cmake --build "$BUILD" -j "$JOBS" --target tirx bench_gpu_gemm > "$BUILD/gemm-bench-build.log" 2>&1 || { tail -30 "$BUILD/gemm-bench-build.log"; exit 1; }
declare -a RESULTS=()
for f in "$@"; do
  echo "=== $f"
  "$BUILD/bin/tirx" compile "$f" --emit resources 2>&1 | sed -n '2,3p'
  out=$("$BUILD/bin/bench_gpu_gemm" "$f" 2>&1); echo "$out"
  RESULTS+=("$(basename "$f") $(echo "$out" | awk '/^tirx_gemm_tflops / {print $2}')")
done
N="${GEMM_N:-4096}"   # one size (N^3) or "M N K"
TORCH_OUT=$(python3 "$ROOT/scripts/torch_matmul.py" $N 2>&1)
echo "$TORCH_OUT"
TORCH=$(echo "$TORCH_OUT" | awk '/^torch_matmul_tflops/ {print $2}')
echo "=== cuBLAS (torch.matmul bf16 $N): $TORCH TFLOP/s"
for r in "${RESULTS[@]}"; do
  set -- $r
  awk -v n="$1" -v a="${2:-0}" -v b="$TORCH" 'BEGIN { printf "%-40s %8.1f TFLOP/s  %5.1f %% of cuBLAS\n", n, a, 100 * a / b }'
done
