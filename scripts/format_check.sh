#!/usr/bin/env bash
# Formatting check for CI: the C++ lines changed since BASE must be formatted as .clang-format says.
# Only changed lines are checked (git clang-format), so the tree is brought in line file by file as
# it is edited instead of in one whole-tree reformat, and the check takes seconds.
# BASE: $TIRX_FORMAT_BASE, else the merge-base with origin/main (or main) when HEAD is not on it,
# else HEAD~1. Without clang-format or git history it says so and passes (exit 0); a formatting
# difference prints the diff and exits 1. Fix with: git clang-format --extensions h,cpp BASE
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v git-clang-format >/dev/null 2>&1 || ! command -v clang-format >/dev/null 2>&1; then
  echo "format_check: clang-format / git-clang-format not installed; skipped" >&2
  exit 0
fi
if ! git rev-parse --verify -q HEAD >/dev/null; then
  echo "format_check: not a git checkout; skipped" >&2
  exit 0
fi
base="${TIRX_FORMAT_BASE:-}"
if [ -z "$base" ]; then
  for ref in origin/main main; do
    if git rev-parse --verify -q "$ref" >/dev/null; then
      mb=$(git merge-base HEAD "$ref" 2>/dev/null || true)
      if [ -n "$mb" ] && [ "$mb" != "$(git rev-parse HEAD)" ]; then base=$mb; break; fi
    fi
  done
fi
if [ -z "$base" ]; then
  if git rev-parse --verify -q HEAD~1 >/dev/null; then base=HEAD~1; else
    echo "format_check: no earlier commit to compare with; skipped" >&2
    exit 0
  fi
fi
out=$(git clang-format --diff --extensions h,cpp "$base" -- core views app tests bench 2>&1 || true)
case "$out" in
  *"no modified files to format"*|*"did not modify any files"*|"")
    echo "format_check: the C++ lines changed since $(git rev-parse --short "$base") are formatted"
    exit 0 ;;
esac
printf '%s\n' "$out"
echo "format_check: the lines above are not formatted as .clang-format says (run: git clang-format --extensions h,cpp $base)" >&2
exit 1
