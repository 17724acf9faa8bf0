# Integer arithmetic: Out = A * 3 + 7 on int32 with mul.lo.s32 (low 32 bits of the product) and
# add.s32 (wrapping). Integer PTX types take exactly their dtype (.s32 -> int32), and the scalar
# constants must be typed to match (T.int32(...)).
from tvm.script import tirx as T


@T.function
def int_affine(A: T.Tensor((8, 1), "int32"), Out: T.Tensor((8, 1), "int32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    a = T.alloc_local((8, 1), "int32", layout="default")
    T.cuda.tile.apply(T.ptx["ld.global.s32"], a, A)
    T.cuda.tile.apply(T.ptx["mul.lo.s32"], a, a, T.int32(3))
    T.cuda.tile.apply(T.ptx["add.s32"], a, a, T.int32(7))
    T.cuda.tile.apply(T.ptx["st.global.s32"], Out, a)


import numpy as np
import tvm

x = np.arange(-4, 4, dtype="int32").reshape(8, 1)
compiled = tvm.tirx.compile(int_affine, target="cuda", pipeline="tirx")
out = tvm.runtime.tensor(np.zeros((8, 1), dtype="int32"), tvm.cuda())
compiled(tvm.runtime.tensor(x, tvm.cuda()), out)
np.testing.assert_allclose(out.numpy(), x * 3 + 7)
