# SiLU-affine activation with T.cuda.tile.ewise (the first example of the ewise reference page).
# 64 threads each own four float32 values: one ld.global.v4.b32 per thread, four inlined
# evaluations of silu(x) * 2 + 1, one st.global.v4.b32 per thread.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout

# Element (w, l, j) lives in warp w, lane l, register j.
reg_layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


@T.function(private=True)
def silu_affine(x: T.float32, scale: T.float32, bias: T.float32) -> T.float32:
    y = x / (T.float32(1) + T.exp(-x))
    return y * scale + bias


@T.function
def activation(A: T.Tensor((2, 32, 4), "float32"), Out: T.Tensor((2, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    R = T.alloc_local((2, 32, 4), "float32", layout=reg_layout)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A, scope="cta")
    # ewise has no atom axes: group (2, 32), four scalar repeats per thread.
    T.cuda.tile.ewise(silu_affine, R, R, T.float32(2), T.float32(1), scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], Out, R, scope="cta")


import numpy as np
import tvm

x = np.linspace(-2, 2, 256, dtype="float32")
compiled = tvm.tirx.compile(activation, target="cuda", pipeline="tirx")
out = tvm.runtime.tensor(np.zeros((2, 32, 4), dtype="float32"), tvm.cuda())
compiled(tvm.runtime.tensor(x.reshape(2, 32, 4), tvm.cuda()), out)
ref = (x / (1 + np.exp(-x)) * 2 + 1).reshape(2, 32, 4)
np.testing.assert_allclose(out.numpy(), ref, rtol=2e-5, atol=2e-5)
