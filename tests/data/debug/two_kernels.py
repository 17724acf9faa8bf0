# Two kernels, the second launched twice (the debugger's kernel and launch choice): scale makes
# Y = 2 * X, shift makes X + 1 (launch 0) and Y + 1 = 2 * X + 1 (launch 1).
from tvm.script import tirx as T


@T.function
def scale(A: T.Tensor((4, 1), "float32"), Out: T.Tensor((4, 1), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    a = T.alloc_local((4, 1), "float32", layout="default")
    T.cuda.tile.apply(T.ptx["ld.global.f32"], a, A)
    T.cuda.tile.apply(T.ptx["fma.rn.f32"], a, a, T.float32(2), T.float32(0))
    T.cuda.tile.apply(T.ptx["st.global.f32"], Out, a)


@T.function
def shift(A: T.Tensor((4, 1), "float32"), Out: T.Tensor((4, 1), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    b = T.alloc_local((4, 1), "float32", layout="default")
    T.cuda.tile.apply(T.ptx["ld.global.f32"], b, A)
    T.cuda.tile.apply(T.ptx["fma.rn.f32"], b, b, T.float32(1), T.float32(1))
    T.cuda.tile.apply(T.ptx["st.global.f32"], Out, b)


import numpy as np
import tvm

x = np.array([1.0, 2.0, 3.0, 4.0], dtype="float32").reshape(4, 1)
scale_k = tvm.tirx.compile(scale, target="cuda", pipeline="tirx")
shift_k = tvm.tirx.compile(shift, target="cuda", pipeline="tirx")
y = tvm.runtime.tensor(np.zeros((4, 1), dtype="float32"), tvm.cuda())
scale_k(tvm.runtime.tensor(x, tvm.cuda()), y)
np.testing.assert_allclose(y.numpy(), 2 * x, rtol=0, atol=0)
z = tvm.runtime.tensor(np.zeros((4, 1), dtype="float32"), tvm.cuda())
shift_k(tvm.runtime.tensor(x, tvm.cuda()), z)
np.testing.assert_allclose(z.numpy(), x + 1, rtol=0, atol=0)
w = tvm.runtime.tensor(np.zeros((4, 1), dtype="float32"), tvm.cuda())
shift_k(y, w)
np.testing.assert_allclose(w.numpy(), 2 * x + 1, rtol=0, atol=0)
