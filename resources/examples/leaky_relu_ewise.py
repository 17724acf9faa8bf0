# An ewise scalar function with a conditional: leaky ReLU returns on both paths of an if/else,
# which is the one control-flow shape a scalar function body may have. The negative slope is a
# typed scalar argument broadcast to every invocation.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout

reg_layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


@T.function(private=True)
def leaky_relu(x: T.float32, slope: T.float32) -> T.float32:
    if x > T.float32(0):
        return x
    else:
        return x * slope


@T.function
def leaky(A: T.Tensor((2, 32, 4), "float32"), Out: T.Tensor((2, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    R = T.alloc_local((2, 32, 4), "float32", layout=reg_layout)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A, scope="cta")
    T.cuda.tile.ewise(leaky_relu, R, R, T.float32(0.125), scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], Out, R, scope="cta")


import numpy as np
import tvm

x = np.linspace(-4, 4, 256, dtype="float32").reshape(2, 32, 4)
compiled = tvm.tirx.compile(leaky, target="cuda", pipeline="tirx")
out = tvm.runtime.tensor(np.zeros((2, 32, 4), dtype="float32"), tvm.cuda())
compiled(tvm.runtime.tensor(x, tvm.cuda()), out)
np.testing.assert_allclose(out.numpy(), np.maximum(x, 0) + np.minimum(x, 0) * 0.125, rtol=0, atol=0)
