#!/usr/bin/env bash
# The GPU half of issues 25 and 26, for one call on a GPU machine: builds the CLI (no GUI, no
# tests), then runs `tirx profile` on the warp-specialised wgmma GEMM and on the bank-conflicting
# shared_a kernel, the occupancy line of `tirx compile --emit resources`, a hanging kernel under
# `tirx run --timeout` (the GPU timeout replayed on the simulator), `tirx tune` on the 4096³ wgmma
# GEMM (its TUNE table) and on the 12-candidate test GEMM on one GPU, on
# cuda:all and again from the cache; last the raw ncu pages of two kernels for the replay fixtures
# (tests/gpu/capture_profile.sh, CAPTURE=short). First of all the scalar-math differential test
# (`tirx scalar-conform --device cuda --compile`, issue 22). Every output goes to $OUT/ptc for docs/gpu.md.
# Usage: OUT=/some/dir tests/gpu/profile_tune_check.sh      Environment: BUILD_DIR (build-gpu).
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${BUILD_DIR:-$ROOT/build-gpu}"
D="${OUT:-/tmp}/ptc"
mkdir -p "$D"
t0=$(date +%s)
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTIRX_BUILD_GUI=OFF \
  -DTIRX_BUILD_TESTS=OFF > "$D/configure.log" 2>&1
cmake --build "$BUILD" -j "$(nproc)" --target tirx > "$D/build.log" 2>&1 || { tail -40 "$D/build.log"; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
TIRX="$BUILD/bin/tirx"
{ nvidia-smi -L; ncu --version | tail -1; } | tee "$D/machine.txt"
step() { local name="$1"; shift; local s=$(date +%s); timeout "${LIMIT:-150}" "$@" > "$D/$name.txt" 2>&1;
  echo "== $name rc=$? $(( $(date +%s) - s )) s"; tail -n "${SHOW:-25}" "$D/$name.txt"; }
SHOW=60 step scalar_conform "$TIRX" scalar-conform --device cuda --compile --record "$D/scalar_conform_record.json"
step resources_gemm "$TIRX" compile "$ROOT/resources/examples/gemm_wgmma_ws.py" --emit resources
step profile_gemm "$TIRX" profile "$ROOT/resources/examples/gemm_wgmma_ws.py" -o "$D/prof_gemm"
step profile_shared_a "$TIRX" profile "$ROOT/tests/data/diff/shared_a.py" -o "$D/prof_shared_a"
SHOW=40 step hang "$TIRX" run "$ROOT/tests/data/hang/expect_tx_too_large.py" --device cuda --timeout 5
step hang_json "$TIRX" run "$ROOT/tests/data/hang/expect_tx_too_large.py" --device cuda --timeout 5 --json
LIMIT=240 step tune_gemm4096 "$TIRX" tune "$ROOT/bench/kernels/gemm_bf16_4096_ws.py" --device cuda --cache "$D/tune_gemm.jsonl"
step tune_cuda "$TIRX" tune "$ROOT/tests/data/tune/gemm_tiles.py" --device cuda --cache "$D/tune.jsonl"
step tune_cached "$TIRX" tune "$ROOT/tests/data/tune/gemm_tiles.py" --device cuda --cache "$D/tune.jsonl"
step tune_all "$TIRX" tune "$ROOT/tests/data/tune/gemm_tiles.py" --device cuda:all --cache "$D/tune_all.jsonl" --json
CAPTURE=short OUT="$D" BUILD_DIR="$BUILD" bash "$ROOT/tests/gpu/capture_profile.sh"
echo "total $(( $(date +%s) - t0 )) s"
