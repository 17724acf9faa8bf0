#!/usr/bin/env bash
# Renders every dock of the studio in the light and the dark theme into docs/screenshots/
# (offscreen; the window checks, compiles and verifies each file first), then checks the set.
# Usage:
#   scripts/screenshots.sh [BUILD_DIR]        (default build/; TIRX_STUDIO=path overrides the binary)
#   TIRX_SHOTS_OUT=DIR scripts/screenshots.sh (write elsewhere, e.g. to compare with the committed)
# Fails (non-zero, naming the shot) when a shot cannot be produced, when its dock renders empty
# (tirx-studio exits 4: no text, cells or plot in the dock), when a shot of docs/screenshots/README.md
# is missing, or when a PNG is over 200 KB after compression. The shots and what they show are
# listed in docs/screenshots/README.md.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
BIN="${TIRX_STUDIO:-$BUILD/bin/tirx-studio}"
OUT="${TIRX_SHOTS_OUT:-$ROOT/docs/screenshots}"
EX="$ROOT/resources/examples"
export QT_QPA_PLATFORM=offscreen
mkdir -p "$OUT"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

shot1() {  # OUTFILE FILE [options...]: one shot; a failure names it
  local png=$1
  shift
  if ! "$BIN" --screenshot "$png" "$@"; then
    echo "screenshots: FAILED $(basename "$png") ($*)" >&2
    exit 1
  fi
}
shot() {  # NAME FILE [options...]: NAME.png (light) and NAME-dark.png
  local name=$1 file=$2
  shift 2
  shot1 "$OUT/$name.png" "$file" --theme light "$@"
  shot1 "$OUT/$name-dark.png" "$file" --theme dark "$@"
}

shot window "$EX/shared_affine.py"
# the editor: fault markers of a verify (race.py), and the boxed diagnostics under their lines
shot editor "$ROOT/tests/data/sim/race.py" --dock editor
shot editor_diagnostics "$ROOT/tests/data/diagnostics/cp_async_illegal.py" --dock editor
shot layout "$EX/shared_affine.py" --dock layout
# the selected script line's CUDA / PTX / SASS lines highlighted
shot assembly "$EX/shared_affine.py" --dock assembly --line 28
shot assembly_ptx "$EX/shared_affine.py" --dock assembly --line 28 --pick ptx
shot results "$ROOT/tests/data/sim/race.py" --dock results
# the run panel after a passing verify: verdict, the check's row, timings
shot results_pass "$EX/activation.py" --dock results
# a wrong bias in the reference (+3 instead of +1): the output stands 2 below it everywhere
sed 's/\* 2 + 1)\.reshape/* 2 + 3).reshape/' "$EX/activation.py" > "$TMP/activation_bias.py"
grep -q '\* 2 + 3)' "$TMP/activation_bias.py"
shot results_plots "$TMP/activation_bias.py" --dock results
# the output grid of two wrong reference elements: their cells framed (the Results dock's Grid tab)
sed 's/^np.testing.assert_allclose(out.numpy(), ref,/ref = ref.copy()\nref[1, 3, 2] = 7.0\nref[0, 31, 0] = -1.0\nnp.testing.assert_allclose(out.numpy(), ref,/' "$EX/activation.py" > "$TMP/activation_grid.py"
shot results_grid "$TMP/activation_grid.py" --dock results --pick grid
shot problems "$ROOT/tests/data/diagnostics/cp_async_illegal.py" --dock problems
shot tensorcores "$EX/gemm_ldmatrix_swizzled.py" --dock tensorcores
# the S[tid, j] stores of line 23 (4-way conflicted) drawn on tile S for warp 0
shot tensorcores_conflicts "$EX/shared_affine.py" --dock tensorcores --pick "tile S" --line 23
# the 8-way ldmatrix of line 28 on the plain (unswizzled) tile: its 16 x 16 block framed red
shot tensorcores_ldmatrix_conflicts "$ROOT/bench/kernels/bank_conflicts.py" --dock tensorcores --pick "tile tile" --line 28
shot pipeline "$EX/mbarrier_ring.py" --dock pipeline
shot pipeline_tma_image "$EX/tma_copy_128b.py" --dock pipeline --pick "TMA box image"
# the Diff dock: two versions of activation.py, the PTX of the changed load line
shot diff_view "$ROOT/tests/data/diff/activation_b.py" --dock diff --diff "$ROOT/tests/data/diff/activation_a.py" --pick ptx
shot editor_find "$EX/shared_affine.py" --dock editor --find "T.cuda"
shot editor_completion "$EX/shared_affine.py" --dock editor --complete 20:19
shot tensorcores_mma_a "$EX/mma_single_warp.py" --dock tensorcores
# the wgmma GEMM's B descriptor: k-step 0's elements outlined in the swizzled Bs ring
shot tensorcores_wgmma_descriptor "$EX/gemm_wgmma_ws.py" --dock tensorcores --pick "b descriptor"
shot pipeline_gemm_wgmma_ws "$EX/gemm_wgmma_ws.py" --dock pipeline
# the opcode hover's fragment picture (A, B, C/D of the mma.sync on line 38)
shot hover_mma_fragments "$EX/mma_single_warp.py" --dock editor --hover 38:34
# the register gutter measured: a stand-in nvdisasm replays the H200 listings of tests/data/sass
mkdir -p "$TMP/bin"
printf '#!/bin/sh\ncase "$*" in *-plr*) cat "%s/gemm.count.txt" ;; *) cat "%s/gemm.g.txt" ;; esac\n' \
  "$ROOT/tests/data/sass" "$ROOT/tests/data/sass" > "$TMP/bin/nvdisasm"
chmod +x "$TMP/bin/nvdisasm"
PATH="$TMP/bin:$PATH" shot editor_registers "$ROOT/tests/data/sass/gemm_wgmma_ws.py" --dock editor --line 87
PATH="$TMP/bin:$PATH" shot assembly_sass "$ROOT/tests/data/sass/gemm_wgmma_ws.py" --dock assembly --line 87 --pick sass
# the register gutter's estimate (no nvdisasm here: `~136` through the K loop, `~200` amber)
shot editor_registers_estimate "$EX/gemm_wgmma_ws.py" --dock editor --line 97
# the debugger (its panel at the mma.sync, the output tile, the editor's current line), both themes
TST_DEBUGGER="$BUILD/tests/tst_debugger_view"
if ! TIRX_DEBUGGER_SHOT="$OUT" "$TST_DEBUGGER" gemmBreakpointStepAndPaint > "$TMP/debugger.log" 2>&1; then
  cat "$TMP/debugger.log" >&2
  echo "screenshots: FAILED debugger*.png ($TST_DEBUGGER)" >&2
  exit 1
fi

# compress (pngquant's 256-colour palette keeps text and cells sharp at a fifth of the size)
if command -v pngquant > /dev/null; then
  for png in "$OUT"/*.png; do
    pngquant --force --skip-if-larger --quality 70-100 --output "$png" -- "$png" || true
  done
else
  echo "screenshots: pngquant not found (apt-get install pngquant): PNGs left uncompressed" >&2
fi
status=0
# every shot the README says this script makes
for name in $(grep -E '\| (screenshots.sh|tst_debugger_view) \|' "$ROOT/docs/screenshots/README.md" | grep -o '^| `[a-z_0-9-]*\.png`' | tr -d '|` '); do
  if [ ! -s "$OUT/$name" ]; then
    echo "screenshots: missing $name (listed in docs/screenshots/README.md)" >&2
    status=1
  elif [ "$(stat -c %s "$OUT/$name")" -gt 204800 ]; then
    echo "screenshots: $name is $(stat -c %s "$OUT/$name") bytes (over 200 KB)" >&2
    status=1
  fi
done
exit $status
