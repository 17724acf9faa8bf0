# Out = -abs(A) with two calls, abs.f32 then neg.f32, on 256 values held by a CTA of 64 threads.
# The vector load/store use the (2, 32, 4) view with a four-element atom; the arithmetic uses the
# (2, 32, 4, 1) view of the same registers: four repeats of a one-register atom per thread.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout

reg_layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


@T.function
def neg_abs(
    A: T.Tensor((2, 32, 4), "float32", align=16), Out: T.Tensor((2, 32, 4), "float32", align=16)
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    R = T.alloc_local((2, 32, 4), "float32", layout=reg_layout)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A, scope="cta")
    scalars = R.view(2, 32, 4, 1)
    T.cuda.tile.apply(T.ptx["abs.f32"], scalars, scalars, scope="cta")
    T.cuda.tile.apply(T.ptx["neg.f32"], scalars, scalars, scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], Out, R, scope="cta")


import numpy as np
import tvm

x = np.linspace(-4, 4, 256, dtype="float32")
compiled = tvm.tirx.compile(neg_abs, target="cuda", pipeline="tirx")
out = tvm.runtime.tensor(np.zeros((2, 32, 4), dtype="float32"), tvm.cuda())
compiled(tvm.runtime.tensor(x.reshape(2, 32, 4), tvm.cuda()), out)
np.testing.assert_allclose(out.numpy(), -np.abs(x).reshape(2, 32, 4), rtol=0, atol=0)
