# Tensors (guide style): a region of a global tensor selects a sub-tensor; its start may be any
# integer expression of the block index as long as stop - start is a constant. Block bx copies
# row-half (bx + 1) % 2 of A into row-half bx % 2 of B, four rows of four floats per thread.
import numpy as np
import tvm
from tvm.script import tirx as T

ROWS, COLS, HALF = 8, 4, 4


@T.function
def swap_halves(A: T.Tensor((ROWS, COLS), "float32"), B: T.Tensor((ROWS, COLS), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=2, block=1))
    bx = T.cuda.block_idx("x")
    src = (bx + 1) % 2 * HALF
    R = T.alloc_local((HALF, COLS), "float32")
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[src : src + HALF, :])
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx % 2 * HALF : bx % 2 * HALF + HALF, :], R)


a = np.arange(ROWS * COLS, dtype="float32").reshape(ROWS, COLS)
b = np.zeros((ROWS, COLS), dtype="float32")
f = tvm.tirx.compile(swap_halves, target="cuda")
f(a, b)
np.testing.assert_allclose(b, np.roll(a, HALF, axis=0), rtol=0, atol=0)
