# The debugger's NaN flag: sqrt.rn.f32 of a negative element is NaN, of -inf is NaN, of +inf is inf.
from tvm.script import tirx as T


@T.function
def sqrt_nan(A: T.Tensor((4, 1), "float32"), Out: T.Tensor((4, 1), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    a = T.alloc_local((4, 1), "float32", layout="default")
    T.cuda.tile.apply(T.ptx["ld.global.f32"], a, A)
    T.cuda.tile.apply(T.ptx["sqrt.rn.f32"], a, a)
    T.cuda.tile.apply(T.ptx["st.global.f32"], Out, a)


import numpy as np
import tvm

x = np.array([4.0, -1.0, np.inf, 9.0], dtype="float32").reshape(4, 1)
compiled = tvm.tirx.compile(sqrt_nan, target="cuda", pipeline="tirx")
out = tvm.runtime.tensor(np.zeros((4, 1), dtype="float32"), tvm.cuda())
compiled(tvm.runtime.tensor(x, tvm.cuda()), out)
np.testing.assert_allclose(out.numpy(), np.sqrt(x), rtol=0, atol=0, equal_nan=True)
