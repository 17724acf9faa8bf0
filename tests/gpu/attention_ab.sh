#!/usr/bin/env bash
# One GPU call for the open GPU items of issues 24 and 25, in priority order, each step skipped
# (and said so) when less than its estimate is left of LIMIT seconds: bench_gpu_attention on the
# benchmark kernels beside torch SDPA (each output checked against SDPA first); the 4096^3 wgmma
# GEMM timed (bench_gpu_gemm: single and queued launches), profiled (`--clock-control none`) and
# timed again, so the profile and the benchmark come from one call; the
# attention examples with `--device both`; the scalar-math differential test; `tirx profile` of
# the d128 kernel with tirx's SASS listing of the same compile (the pages become test data);
# `tirx profile` of the d64 kernel; the GEMM-only ablations (bench/attention_variants.py,
# --unchecked); `tirx profile` of the d64 q192 kernel; the q192 kernel with 16 of its 64 exp2 a
# thread on the FMA pipe (bench of the poly16 variant, `tirx tune` of POLY 0 … 32, its profile);
# `tirx tune` of the d64 ring depth. STEPS=name,name runs only those steps (and the build).
# Logs and reports (not the .ncu-rep files) are packed into $OUT/r.tgz after every step, so a
# call cut short keeps what finished; $OUT/summary.txt has every step's tail.
# Usage: OUT=DIR tests/gpu/attention_ab.sh     Environment: BUILD_DIR (build-gpu), LIMIT (380).
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"; cd "$ROOT"
B="${BUILD_DIR:-$ROOT/build-gpu}"; D="$OUT/r"; mkdir -p "$D"
V="$B/variants"; python3 bench/attention_variants.py "$V" > /dev/null || exit 1
t0=$(date +%s)
pack() { tar czf "$OUT/r.tgz" --exclude='*.ncu-rep' -C "$D" . 2>/dev/null; }
left() { echo $(( ${LIMIT:-380} - ($(date +%s) - t0) )); }
cmake -S "$ROOT" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTIRX_BUILD_GUI=OFF -DTIRX_BUILD_TESTS=OFF > "$D/configure.log" 2>&1
cmake --build "$B" -j 16 --target tirx bench_gpu_attention bench_gpu_gemm > "$D/build.log" 2>&1 || { tail -40 "$D/build.log"; exit 1; }
echo "build $(( $(date +%s) - t0 )) s on $(git rev-parse --short HEAD 2>/dev/null || echo '?')" | tee -a "$OUT/summary.txt"
T="$B/bin/tirx"; A="$B/bin/bench_gpu_attention"; K=bench/kernels
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv; ncu --version | tail -1; } | tee "$D/machine.txt" >> "$OUT/summary.txt"
# step NAME NEED CMD...: runs CMD when NEED seconds are left (and NAME is in STEPS, if set).
step() { local name="$1" need="$2"; shift 2; local l=$(left)
  if [ -n "${STEPS:-}" ] && [[ ",$STEPS," != *",$name,"* ]]; then return; fi
  if [ "$l" -lt "$need" ]; then echo "== $name SKIPPED (${l} s left)" | tee -a "$OUT/summary.txt"; return; fi
  local s=$(date +%s); timeout "$l" "$@" > "$D/$name.txt" 2>&1
  echo "== $name rc=$? $(( $(date +%s) - s )) s (at $(( $(date +%s) - t0 )) s)" | tee -a "$OUT/summary.txt"; tail -n "${SHOW:-6}" "$D/$name.txt" | tee -a "$OUT/summary.txt"; pack; }
SHOW=7 step ab_d128 25 "$A" $K/attention_fwd_bf16_d128.py
SHOW=7 step ab_causal 25 "$A" $K/attention_fwd_bf16_d128_causal.py --causal
SHOW=7 step ab_d64 25 "$A" $K/attention_fwd_bf16_d64.py
SHOW=7 step ab_d64_q192 25 "$A" $K/attention_fwd_bf16_d64_q192.py
SHOW=7 step ab_d64_q192_poly 25 "$A" "$V"/v_d64_q192_poly16.py
SHOW=10 step gemm_bench 30 "$B/bin/bench_gpu_gemm" $K/gemm_bf16_4096_ws.py
SHOW=40 step prof_gemm 60 "$T" profile $K/gemm_bf16_4096_ws.py -o "$D/prof_gemm4096"
SHOW=10 step gemm_bench2 30 "$B/bin/bench_gpu_gemm" $K/gemm_bf16_4096_ws.py
for f in resources/examples/attention_*.py; do SHOW=4 step "both_$(basename "$f" .py)" 15 "$T" verify "$f" --device both; done
SHOW=30 step scalar_conform 60 "$T" scalar-conform --device cuda --compile --record "$D/scalar_conform_record.json"
SHOW=2 step sass_attn128 10 "$T" compile $K/attention_fwd_bf16_d128.py --emit sass -o "$D/attn128.sass"
SHOW=40 step prof_attn128 80 "$T" profile $K/attention_fwd_bf16_d128.py -o "$D/prof_attn128"
SHOW=40 step prof_attn64 80 "$T" profile $K/attention_fwd_bf16_d64.py -o "$D/prof_attn64"
SHOW=7 step ab_d128_gemmonly 25 "$A" "$V"/v_d128_gemmonly.py --unchecked
SHOW=7 step ab_d64_gemmonly 25 "$A" "$V"/v_d64_gemmonly.py --unchecked
SHOW=40 step prof_attn64_q192 80 "$T" profile $K/attention_fwd_bf16_d64_q192.py -o "$D/prof_attn64_q192"
SHOW=20 step tune_d64_q192_poly 120 "$T" tune $K/attention_fwd_bf16_d64_q192.py --device cuda --param POLY=0,8,16,24,32 --param STAGES=3 --cache "$D/tune_d64_q192_poly.jsonl"
SHOW=40 step prof_attn64_q192_poly 80 "$T" profile "$V"/v_d64_q192_poly16.py -o "$D/prof_attn64_q192_poly"
SHOW=20 step tune_d64 100 "$T" tune $K/attention_fwd_bf16_d64.py --device cuda --cache "$D/tune_d64.jsonl"
echo "total $(( $(date +%s) - t0 )) s" | tee -a "$OUT/summary.txt"
pack
