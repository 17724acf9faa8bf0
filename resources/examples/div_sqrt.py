# Division and square root with explicit IEEE rounding: Out = sqrt(A / 4), computed by one thread
# over a (4, 1) register tile (scope "thread": no group axes, four repeats of a one-element atom).
# div.rn.f32 keeps the operand order (numerator first; a constant denominator is broadcast) and is
# never rewritten into a reciprocal; sqrt.rn.f32 is correctly rounded, so [4, 16, 36, 64] gives
# exactly [1, 2, 3, 4].
from tvm.script import tirx as T


@T.function
def div_sqrt(A: T.Tensor((4, 1), "float32"), Out: T.Tensor((4, 1), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    a = T.alloc_local((4, 1), "float32", layout="default")
    T.cuda.tile.apply(T.ptx["ld.global.f32"], a, A)
    T.cuda.tile.apply(T.ptx["div.rn.f32"], a, a, T.float32(4))
    T.cuda.tile.apply(T.ptx["sqrt.rn.f32"], a, a)
    T.cuda.tile.apply(T.ptx["st.global.f32"], Out, a)


import numpy as np
import tvm

x = (np.arange(1, 5, dtype="float32") * 2) ** 2  # [4, 16, 36, 64]
compiled = tvm.tirx.compile(div_sqrt, target="cuda", pipeline="tirx")
out = tvm.runtime.tensor(np.zeros((4, 1), dtype="float32"), tvm.cuda())
compiled(tvm.runtime.tensor(x.reshape(4, 1), tvm.cuda()), out)
np.testing.assert_allclose(out.numpy(), np.arange(1, 5, dtype="float32").reshape(4, 1), rtol=0, atol=0)
