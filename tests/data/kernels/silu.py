# Test kernel (the project's own): SiLU through one T.cuda.tile.ewise of a private scalar
# function over a (2, 32, 4) register tile; random check data.
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

register_layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function(private=True)
def silu(value: T.float32) -> T.float32:
    return value / (T.float32(1) + T.exp(-value))

@T.function
def affine_relu(
    A: T.Tensor((2, 32, 4), "float32", align=16),
    B: T.Tensor((2, 32, 4), "float32", align=16),
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    registers = T.alloc_local((2, 32, 4), "float32", layout=register_layout)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], registers, A, scope="cta")
    T.cuda.tile.ewise(silu, registers, registers, scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B, registers, scope="cta")

import numpy as np
import tvm

x = (np.random.randn(2, 32, 4) * 3).astype("float32")
y = tvm.runtime.tensor(np.zeros((2, 32, 4), dtype="float32"), tvm.cuda())
tvm.tirx.compile(affine_relu, target="cuda")(tvm.runtime.tensor(x, tvm.cuda()), y)
np.testing.assert_allclose(y.numpy(), x / (1 + np.exp(-x)), rtol=2e-5, atol=2e-5)
