#!/usr/bin/env bash
# Installs what the build needs (Debian 12, as root) and configures + builds into build/.
# Sourced by run.sh and test.sh. Set TIRX_BUILD_DIR to use another build directory.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TIRX_BUILD_DIR:-$ROOT/build}"
PKGS="g++ cmake ninja-build qt6-base-dev qt6-charts-dev qt6-svg-dev libqscintilla2-qt6-dev nlohmann-json3-dev xvfb xauth fonts-dejavu-core python3-numpy openssh-server openssh-client slurm-wlm munge"
missing=()
for p in $PKGS; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "setup: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "setup: missing packages (run as root to install): ${missing[*]}" >&2
  fi
fi
if [ ! -d /usr/local/cuda ] && ! command -v nvcc >/dev/null 2>&1; then
  echo "setup: the CUDA toolkit (NVRTC, nvJitLink) is expected at /usr/local/cuda" >&2
fi
export PATH="$PATH:/usr/local/cuda/bin"
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCUDAToolkit_ROOT=/usr/local/cuda ${TIRX_CMAKE_ARGS:-} >/dev/null
cmake --build "$BUILD" --parallel "${TIRX_JOBS:-$(nproc)}"
