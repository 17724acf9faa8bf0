# Repeats of a vector atom: 64 threads x 12 floats. The (2, 32, 3, 4) operands split into group
# (2, 32) (warp, lane), repeat (3) and a .v4 atom (4), so each thread issues three
# ld.global.v4.b32 and three st.global.v4.b32, each moving 16 consecutive, 16-byte aligned bytes.
# In between, ewise (no atom axes) sees group (2, 32) and 3 x 4 = 12 scalar repeats per thread.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout

# Thread (w, l) holds registers 0..11: repeat r, element j in register 4 * r + j.
reg_layout = TileLayout(S[(2, 32, 3, 4) : (1 @ warpid, 1 @ laneid, 4, 1)])


@T.function(private=True)
def scale_shift(x: T.float32) -> T.float32:
    return x * T.float32(0.5) - T.float32(2)


@T.function
def repeats(
    A: T.Tensor((2, 32, 12), "float32", align=16), Out: T.Tensor((2, 32, 12), "float32", align=16)
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    R = T.alloc_local((2, 32, 3, 4), "float32", layout=reg_layout)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A.view(2, 32, 3, 4), scope="cta")
    T.cuda.tile.ewise(scale_shift, R, R, scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], Out.view(2, 32, 3, 4), R, scope="cta")


import numpy as np
import tvm

x = np.linspace(-6, 6, 768, dtype="float32").reshape(2, 32, 12)
compiled = tvm.tirx.compile(repeats, target="cuda", pipeline="tirx")
out = tvm.runtime.tensor(np.zeros((2, 32, 12), dtype="float32"), tvm.cuda())
compiled(tvm.runtime.tensor(x, tvm.cuda()), out)
np.testing.assert_allclose(out.numpy(), x * 0.5 - 2, rtol=1e-6, atol=1e-6)
