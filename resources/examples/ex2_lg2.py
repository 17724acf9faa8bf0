# Base-2 exponential and logarithm approximations: E = 2^A with ex2.approx.ftz.f32, then
# L = log2(E) with lg2.approx.ftz.f32, each into its own register tile (outputs must not alias).
# These are base-2 instructions; a natural exp belongs in an ewise scalar function (T.exp).
from tvm.script import tirx as T


@T.function
def ex2_lg2(
    A: T.Tensor((4, 1), "float32"),
    E: T.Tensor((4, 1), "float32"),
    L: T.Tensor((4, 1), "float32"),
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    a = T.alloc_local((4, 1), "float32", layout="default")
    e = T.alloc_local((4, 1), "float32", layout="default")
    l = T.alloc_local((4, 1), "float32", layout="default")
    T.cuda.tile.apply(T.ptx["ld.global.f32"], a, A)
    T.cuda.tile.apply(T.ptx["ex2.approx.ftz.f32"], e, a)
    T.cuda.tile.apply(T.ptx["lg2.approx.ftz.f32"], l, e)
    T.cuda.tile.apply(T.ptx["st.global.f32"], E, e)
    T.cuda.tile.apply(T.ptx["st.global.f32"], L, l)


import numpy as np
import tvm

x = np.arange(-1, 3, dtype="float32").reshape(4, 1)  # [-1, 0, 1, 2]
compiled = tvm.tirx.compile(ex2_lg2, target="cuda", pipeline="tirx")
e = tvm.runtime.tensor(np.zeros((4, 1), dtype="float32"), tvm.cuda())
l = tvm.runtime.tensor(np.zeros((4, 1), dtype="float32"), tvm.cuda())
compiled(tvm.runtime.tensor(x, tvm.cuda()), e, l)
# Approximate instructions: compare with a tolerance, not bit for bit.
np.testing.assert_allclose(e.numpy(), np.exp2(x), rtol=1e-6, atol=1e-6)  # [0.5, 1, 2, 4]
np.testing.assert_allclose(l.numpy(), x, rtol=1e-6, atol=1e-6)
