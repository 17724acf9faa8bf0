# Test kernel (the project's own): max(2x + 1, 0) by fma.rn.f32 and max.f32 on a scalar view.
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

register_layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def affine_relu(
    A: T.Tensor((2, 32, 4), "float32", align=16),
    B: T.Tensor((2, 32, 4), "float32", align=16),
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    registers = T.alloc_local((2, 32, 4), "float32", layout=register_layout)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], registers, A, scope="cta")
    scalars = registers.view(2, 32, 4, 1)
    T.cuda.tile.apply(
        T.ptx["fma.rn.f32"], scalars, scalars, T.float32(2), T.float32(1), scope="cta"
    )
    T.cuda.tile.apply(T.ptx["max.f32"], scalars, scalars, T.float32(0), scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B, registers, scope="cta")

import numpy as np
import tvm

x = (np.random.randn(2, 32, 4) * 3).astype("float32")
y = tvm.runtime.tensor(np.zeros((2, 32, 4), dtype="float32"), tvm.cuda())
tvm.tirx.compile(affine_relu, target="cuda")(tvm.runtime.tensor(x, tvm.cuda()), y)
np.testing.assert_allclose(y.numpy(), np.maximum(x * 2 + 1, 0), rtol=1e-6, atol=1e-6)
