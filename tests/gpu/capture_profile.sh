#!/usr/bin/env bash
# Records the GPU data that the profile and scalar-math tests replay without a GPU: for each
# kernel below, Nsight Compute's report of one `tirx run --device cuda` (full section set, source
# counters) exported as CSV pages (source page per SASS instruction, details, raw), beside tirx's
# own SASS, line map and registers of the same kernel; `bench_gpu_gemm` on the GEMM (the
# time-based TFLOP/s that the ncu figure is compared with); and `tirx scalar-conform --record`.
# Usage (GPU machine, after the build of scripts/gpu-check.sh): tests/gpu/capture_profile.sh
#   Environment: BUILD_DIR (build-gpu), OUT (where the tarball goes), CAPTURE=short (the first two).
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${BUILD_DIR:-$ROOT/build-gpu}"
TIRX="$BUILD/bin/tirx"
DST="${OUT:-/tmp}/capture"
mkdir -p "$DST"
NCU="$(command -v ncu || echo /usr/local/cuda/bin/ncu)"
{ nvidia-smi -L; "$NCU" --version; } > "$DST/machine.txt" 2>&1
capture() {  # name file [extra tirx run args]
  local name="$1" file="$2"; shift 2
  local d="$DST/$name"; mkdir -p "$d"
  cp "$file" "$d/script.py"
  "$TIRX" compile "$file" --emit sass -o "$d/tirx.sass" 2> "$d/compile.err"
  "$TIRX" compile "$file" --emit map -o "$d/tirx.map" 2>> "$d/compile.err"
  "$TIRX" compile "$file" --emit regs -o "$d/tirx.regs" 2>> "$d/compile.err"
  "$TIRX" compile "$file" --emit resources -o "$d/tirx.resources" 2>> "$d/compile.err"
  timeout 240 "$NCU" --target-processes all --set full --import-source yes --launch-count 1 \
    -f -o "$d/report" "$TIRX" run "$file" --device cuda "$@" > "$d/ncu_run.txt" 2>&1
  echo "ncu rc=$?" >> "$d/ncu_run.txt"
  if [ -f "$d/report.ncu-rep" ]; then
    "$NCU" -i "$d/report.ncu-rep" --page source --csv --print-source sass > "$d/source_sass.csv" 2> "$d/source.err"
    "$NCU" -i "$d/report.ncu-rep" --page details --csv > "$d/details.csv" 2> "$d/details.err"
    "$NCU" -i "$d/report.ncu-rep" --page raw --csv > "$d/raw.csv" 2> "$d/raw.err"
    "$NCU" -i "$d/report.ncu-rep" --page source --csv --print-source sass,cuda > "$d/source_sass_cuda.csv" 2>> "$d/source.err"
    ls -la "$d/report.ncu-rep" > "$d/report_size.txt"
    rm -f "$d/report.ncu-rep"
  fi
}
capture gemm_wgmma_ws "$ROOT/resources/examples/gemm_wgmma_ws.py"
capture shared_a "$ROOT/tests/data/diff/shared_a.py"
if [ "${CAPTURE:-}" = short ]; then  # the two kernels of tests/gpu/profile_tune_check.sh
  tar czf "${OUT:-/tmp}/capture.tgz" -C "$DST/.." capture
  exit 0
fi
capture relu_grid "$ROOT/resources/examples/relu_grid.py"
capture shared_b "$ROOT/tests/data/diff/shared_b.py"
capture attention_d128 "$ROOT/resources/examples/attention_fwd_d128.py"
capture gemm_4096_ws "$ROOT/bench/kernels/gemm_bf16_4096_ws.py"
[ -x "$BUILD/bin/bench_gpu_gemm" ] && "$BUILD/bin/bench_gpu_gemm" "$ROOT/bench/kernels/gemm_bf16_4096_ws.py" > "$DST/gemm_4096_ws/bench_gpu_gemm.txt" 2>&1
"$TIRX" scalar-conform --device cuda --compile --record "$DST/scalar_conform_record.json" \
  > "$DST/scalar_conform.txt" 2>&1
echo "scalar-conform rc=$?" >> "$DST/scalar_conform.txt"
tar czf "${OUT:-/tmp}/capture.tgz" -C "$DST/.." capture
