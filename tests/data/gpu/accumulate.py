# A kernel that accumulates into its output (tile loads of B, an add, tile stores back): B's
# contents from the check code (np.ones) must reach the kernel; poison would give NaN.
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


@T.function
def accumulate(A: T.Tensor((2, 32, 4), "float32", align=16), B: T.Tensor((2, 32, 4), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    ra = T.alloc_local((2, 32, 4), "float32", layout=reg)
    rb = T.alloc_local((2, 32, 4), "float32", layout=reg)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], ra, A, scope="cta")
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], rb, B, scope="cta")
    sa = ra.view(2, 32, 4, 1)
    sb = rb.view(2, 32, 4, 1)
    T.cuda.tile.apply(T.ptx["add.f32"], sb, sb, sa, scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B, rb, scope="cta")


import numpy as np
import tvm

a = np.linspace(-4, 4, 256, dtype="float32").reshape(2, 32, 4)
b = tvm.runtime.tensor(np.ones((2, 32, 4), dtype="float32"), tvm.cuda())
compiled = tvm.tirx.compile(accumulate, target="cuda")
compiled(tvm.runtime.tensor(a, tvm.cuda()), b)
compiled(tvm.runtime.tensor(a, tvm.cuda()), b)
np.testing.assert_allclose(b.numpy(), 1 + 2 * a, rtol=1e-6, atol=1e-6)
