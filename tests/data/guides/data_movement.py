# Data movement (guide style): tile copies between global memory, registers and shared memory with
# the vector width the atom gives (v4: 16 bytes per thread and row; v2: 8 bytes per thread from a
# region), and a transpose through shared memory whose reads cross threads after a barrier.
import numpy as np
import tvm
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout, laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])
ROWS = 64


@T.function
def stage_transpose(A: T.Tensor((2 * ROWS, 4), "float32"), copy: T.Tensor((2 * ROWS, 4), "float32"),
                    At: T.Tensor((2, 4, ROWS), "float32"), F: T.Tensor((256,), "float32"),
                    G: T.Tensor((256,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=2, block=64))
    bx = T.cuda.block_idx("x")
    tx = T.cuda.thread_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    tile = T.alloc_shared((ROWS, 4), "float32", align=16)
    # global -> registers -> shared
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A.view(2, 2, 32, 4).sub[bx], scope="cta")
    T.cuda.tile.apply(T.ptx["st.shared.v4.b32"], tile.view(2, 32, 4), R, scope="cta")
    T.cuda.cta_sync()
    # shared -> registers -> global
    Q = T.alloc_local((2, 32, 4), "float32", layout=reg)
    T.cuda.tile.apply(T.ptx["ld.shared.v4.b32"], Q, tile.view(2, 32, 4), scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], copy.view(2, 2, 32, 4).sub[bx], Q, scope="cta")
    # transpose: thread tx writes column tx of the block's (4, ROWS) tile
    for c in range(4):
        At[bx, c, tx] = tile[tx, c]
    # a thread-scope pair copy: 8 bytes per thread from a region of F
    P = T.alloc_local((2,), "float32")
    T.cuda.tile.apply(T.ptx["ld.global.v2.b32"], P, F[(bx * 64 + tx) * 2 : (bx * 64 + tx) * 2 + 2])
    T.cuda.tile.apply(T.ptx["st.global.v2.b32"], G[(bx * 64 + tx) * 2 : (bx * 64 + tx) * 2 + 2], P)


a = np.arange(2 * ROWS * 4, dtype="float32").reshape(2 * ROWS, 4) / 7
cp = np.zeros((2 * ROWS, 4), dtype="float32")
at = np.zeros((2, 4, ROWS), dtype="float32")
fv = np.linspace(-1, 1, 256, dtype="float32")
gv = np.zeros(256, dtype="float32")
f = tvm.tirx.compile(stage_transpose, target="cuda")
f(a, cp, at, fv, gv)
np.testing.assert_allclose(cp, a, rtol=0, atol=0)
ref = np.zeros((2, 4, ROWS), dtype="float32")
for b in range(2):
    for c in range(4):
        ref[b, c, :] = a[b * ROWS : (b + 1) * ROWS, c]
np.testing.assert_allclose(at, ref, rtol=0, atol=0)
np.testing.assert_allclose(gv, fv, rtol=0, atol=0)
