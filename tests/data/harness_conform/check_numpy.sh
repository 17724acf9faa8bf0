#!/bin/sh
# CTest harness_conform_numpy: regenerates the harness conformance expectations with real numpy
# (Debian's python3-numpy, first the system python3) and compares them with cases.json; exits 77
# (reported by CTest as skipped) when no python3 with numpy is installed.
here=$(dirname "$0")
for p in /usr/bin/python3 python3; do
  if command -v "$p" >/dev/null 2>&1 && "$p" -c "import numpy" >/dev/null 2>&1; then
    exec "$p" "$here/gen_conform.py" --check
  fi
done
echo "harness_conform_numpy: no python3 with numpy (apt-get install python3-numpy): skipped"
exit 77
