# A symbolic row length sets the row stride: the v4 atoms of a row are proven aligned statically,
# and across rows only for a row length that is a multiple of 4, which the call must satisfy
# (E0772, reported by the harness at the call as E0812). A row length of 4k runs.
import numpy as np
import tvm
from tvm.script import tirx as T


@T.function
def scale_rows(rows: T.int32, cols: T.int32, A: T.Tensor((rows, cols), "float32"), B: T.Tensor((rows, cols), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=(T.ceildiv(cols, 128), rows), block=32))
    c = (T.cuda.block_idx("x") * 32 + T.cuda.thread_idx("x")) * 4
    row = T.cuda.block_idx("y")
    R = T.alloc_local((1, 4), "float32")
    if c < cols:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[row : row + 1, c : c + 4])
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[row : row + 1, c : c + 4], R)


f = tvm.tirx.compile(scale_rows, target="cuda")
a = np.ones((2, 8), dtype="float32")
b = np.zeros((2, 8), dtype="float32")
f(2, 8, a, b)
np.testing.assert_allclose(b, a)
a = np.ones((3, 30), dtype="float32")
b = np.zeros((3, 30), dtype="float32")
f(3, 30, a, b)
np.testing.assert_allclose(b, a)
