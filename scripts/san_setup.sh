#!/usr/bin/env bash
# Configures and builds the sanitizer build (clang 14, ASan + UBSan, libFuzzer coverage; GUI and
# benchmarks off) into build-san/, installing what is missing (Debian 12, as root). Sourced by
# sanitize.sh and fuzz.sh, which share this build directory so that the core is compiled once.
# Set TIRX_SAN_BUILD_DIR for another directory; TIRX_CMAKE_ARGS are passed to cmake.
# Usage (sourced): san_build  (builds everything: core, CLI, unit tests, fuzz targets)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SAN_BUILD="${TIRX_SAN_BUILD_DIR:-$ROOT/build-san}"
SAN_PKGS="clang libclang-rt-14-dev libfuzzer-14-dev cmake ninja-build qt6-base-dev nlohmann-json3-dev"
missing=()
for p in $SAN_PKGS; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "san_setup: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "san_setup: missing packages (run as root to install): ${missing[*]}" >&2
  fi
fi
export PATH="$PATH:/usr/local/cuda/bin"
# Leaks: NVRTC and nvJitLink keep process-lifetime allocations; everything else must be freed.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$ROOT/tests/fuzz/lsan.supp:print_suppressions=0}"

san_build() {
  cmake -S "$ROOT" -B "$SAN_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DTIRX_SANITIZE=ON -DTIRX_FUZZ=ON -DTIRX_BUILD_GUI=OFF -DTIRX_BUILD_BENCH=OFF \
    -DTIRX_BUILD_TESTS=ON -DCUDAToolkit_ROOT=/usr/local/cuda ${TIRX_CMAKE_ARGS:-} >/dev/null
  cmake --build "$SAN_BUILD" --parallel "${TIRX_JOBS:-$(nproc)}"
}
