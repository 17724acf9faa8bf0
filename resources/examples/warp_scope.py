# scope="warp": the group prefix is one lane axis of 32. A single warp owns a (32, 4) tile, lane l
# holding row l in four registers; the operands are (lane, *repeat, *atom). Out = 3 * A - 1 with
# two native instructions, mul.rn.f32 then sub.rn.f32 (two roundings, unlike fma).
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid
from tvm.tirx.layout import S, TileLayout

lane_layout = TileLayout(S[(32, 4) : (1 @ laneid, 1)])


@T.function
def warp_affine(A: T.Tensor((32, 4), "float32", align=16), Out: T.Tensor((32, 4), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    R = T.alloc_local((32, 4), "float32", layout=lane_layout)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A, scope="warp")
    v = R.view(32, 4, 1)
    T.cuda.tile.apply(T.ptx["mul.rn.f32"], v, v, T.float32(3), scope="warp")
    T.cuda.tile.apply(T.ptx["sub.rn.f32"], v, v, T.float32(1), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], Out, R, scope="warp")


import numpy as np
import tvm

x = np.linspace(-1, 1, 128, dtype="float32").reshape(32, 4)
compiled = tvm.tirx.compile(warp_affine, target="cuda", pipeline="tirx")
out = tvm.runtime.tensor(np.zeros((32, 4), dtype="float32"), tvm.cuda())
compiled(tvm.runtime.tensor(x, tvm.cuda()), out)
np.testing.assert_allclose(out.numpy(), x * 3 - 1, rtol=1e-6, atol=1e-6)
