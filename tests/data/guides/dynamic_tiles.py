# Dynamic shapes with tile operations (guide style): the row count of a (rows, 32, 4) tensor is an
# int parameter; tile shapes stay static, so each block takes a region of two rows with a static
# extent, and a guard skips the blocks past the end. The grid comes from the parameter.
import numpy as np
import tvm
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout, laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


@T.function
def relu_rows(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2) + 1, block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(0), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


f = tvm.tirx.compile(relu_rows, target="cuda")
for rows in [6, 2]:
    x = np.linspace(-4, 4, rows * 128, dtype="float32").reshape(rows, 32, 4)
    y = np.zeros((rows, 32, 4), dtype="float32")
    f(rows, x, y)
    np.testing.assert_allclose(y, np.maximum(x, 0), rtol=0, atol=0)
