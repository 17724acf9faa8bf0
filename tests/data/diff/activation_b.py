# Version B of tests/data/diff: resources/examples/activation.py on one warp. 32 threads each own
# eight float32 values: two ld.global.v4.b32 per thread, eight inlined evaluations of
# silu(x) * 2 + 1, two st.global.v4.b32 per thread.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout

# Lane t holds the eight consecutive elements 8·t .. 8·t + 7 (row-major): element (w, 2·h + r, j)
# lives in lane 16·w + h, register 4·r + j, warp 0.
reg_layout = TileLayout(S[(32, 2, 4) : (1 @ laneid, 4, 1)])


@T.function(private=True)
def silu_affine(x: T.float32, scale: T.float32, bias: T.float32) -> T.float32:
    y = x / (T.float32(1) + T.exp(-x))
    return y * scale + bias


@T.function
def activation(A: T.Tensor((2, 32, 4), "float32"), Out: T.Tensor((2, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    R = T.alloc_local((2, 32, 4), "float32", layout=reg_layout)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R.view(1, 32, 2, 4), A.view(1, 32, 2, 4), scope="cta")
    # ewise has no atom axes: group (1, 32), eight scalar repeats per thread.
    T.cuda.tile.ewise(silu_affine, R.view(1, 32, 2, 4), R.view(1, 32, 2, 4), T.float32(2), T.float32(1), scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], Out.view(1, 32, 2, 4), R.view(1, 32, 2, 4), scope="cta")


import numpy as np
import tvm

x = np.linspace(-2, 2, 256, dtype="float32")
compiled = tvm.tirx.compile(activation, target="cuda", pipeline="tirx")
out = tvm.runtime.tensor(np.zeros((2, 32, 4), dtype="float32"), tvm.cuda())
compiled(tvm.runtime.tensor(x.reshape(2, 32, 4), tvm.cuda()), out)
ref = (x / (1 + np.exp(-x)) * 2 + 1).reshape(2, 32, 4)
np.testing.assert_allclose(out.numpy(), ref, rtol=2e-5, atol=2e-5)
