# A grid of several CTAs: ReLU over 1024 float32 values with 4 blocks of 64 threads. Each block
# takes its own 256-element slice: the whole tensor is first viewed as (4, 2, 32, 4) and
# `.sub[bx]` selects block bx's (2, 32, 4) sub-tensor (an integer index drops that dimension).
# (A reshape view of a region is not allowed: view the whole tensor, then take the region.)
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout

reg_layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


@T.function
def relu_grid(A: T.Tensor((1024,), "float32", align=16), B: T.Tensor((1024,), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=4, block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg_layout)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A.view(4, 2, 32, 4).sub[bx], scope="cta")
    scalars = R.view(2, 32, 4, 1)
    T.cuda.tile.apply(T.ptx["max.f32"], scalars, scalars, T.float32(0), scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B.view(4, 2, 32, 4).sub[bx], R, scope="cta")


import numpy as np
import tvm

x = np.linspace(-4, 4, 1024, dtype="float32")
compiled = tvm.tirx.compile(relu_grid, target="cuda", pipeline="tirx")
out = tvm.runtime.tensor(np.zeros(1024, dtype="float32"), tvm.cuda())
compiled(tvm.runtime.tensor(x, tvm.cuda()), out)
np.testing.assert_allclose(out.numpy(), np.maximum(x, 0), rtol=0, atol=0)
