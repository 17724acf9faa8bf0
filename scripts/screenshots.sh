#!/usr/bin/env bash
# Renders every dock of the studio in the light and the dark theme into docs/screenshots/
# (offscreen; the window checks, compiles and verifies each file first). Usage:
#   scripts/screenshots.sh [BUILD_DIR]        (default build/; TIRX_STUDIO=path overrides the binary)
# The shots and what they show are listed in docs/studio.md, "Screenshots".
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${TIRX_STUDIO:-${1:-$ROOT/build}/bin/tirx-studio}"
OUT="$ROOT/docs/screenshots"
EX="$ROOT/resources/examples"
export QT_QPA_PLATFORM=offscreen
shot() {  # NAME FILE [options...]: NAME.png (light) and NAME-dark.png
  local name=$1 file=$2
  shift 2
  "$BIN" --screenshot "$OUT/$name.png" "$file" --theme light "$@"
  "$BIN" --screenshot "$OUT/$name-dark.png" "$file" --theme dark "$@"
}
shot window "$EX/shared_affine.py"
shot editor "$ROOT/tests/data/sim/race.py" --dock editor
shot layout "$EX/shared_affine.py" --dock layout
shot assembly "$EX/shared_affine.py" --dock assembly --line 28
shot results "$ROOT/tests/data/sim/race.py" --dock results
# a wrong bias (+3 instead of +1): the output stands 2 above the reference everywhere
PLOTS="$(mktemp --suffix=_affine_relu.py)"
sed 's/T.float32(2), T.float32(1)/T.float32(2), T.float32(3)/' "$ROOT/../shared/acceptance/arith_affine_relu.py" > "$PLOTS"
shot results_plots "$PLOTS" --dock results
rm -f "$PLOTS"
# the output grid of two wrong reference elements: their cells framed (the Results dock's Grid tab)
GRID="$(mktemp --suffix=_activation.py)"
sed 's/^np.testing.assert_allclose(out.numpy(), ref,/ref = ref.copy()\nref[1, 3, 2] = 7.0\nref[0, 31, 0] = -1.0\nnp.testing.assert_allclose(out.numpy(), ref,/' "$EX/activation.py" > "$GRID"
shot results_grid "$GRID" --dock results --pick grid
rm -f "$GRID"
shot problems "$ROOT/tests/data/diagnostics/cp_async_illegal.py" --dock problems
shot tensorcores "$EX/gemm_ldmatrix_swizzled.py" --dock tensorcores
# the S[tid, j] stores of line 23 (4-way conflicted) drawn on tile S for warp 0
shot tensorcores_conflicts "$EX/shared_affine.py" --dock tensorcores --pick "tile S" --line 23
# the 8-way ldmatrix of line 28 on the plain (unswizzled) tile: its 16 x 16 block framed red
shot tensorcores_ldmatrix_conflicts "$ROOT/bench/kernels/bank_conflicts.py" --dock tensorcores --pick "tile tile" --line 28
shot pipeline "$EX/mbarrier_ring.py" --dock pipeline
shot editor_find "$EX/shared_affine.py" --dock editor --find "T.cuda"
shot editor_completion "$EX/shared_affine.py" --dock editor --complete 20:19
