# Fused multiply-add: Out = 2 * A + 1 with fma.rn.f32, one rounding per result (not a mul followed
# by an add). The two constants are typed scalars broadcast to every repeat; the register tile is
# both destination and source (in place).
from tvm.script import tirx as T


@T.function
def fma_affine(A: T.Tensor((4, 1), "float32"), Out: T.Tensor((4, 1), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    a = T.alloc_local((4, 1), "float32", layout="default")
    T.cuda.tile.apply(T.ptx["ld.global.f32"], a, A)
    T.cuda.tile.apply(T.ptx["fma.rn.f32"], a, a, T.float32(2), T.float32(1))
    T.cuda.tile.apply(T.ptx["st.global.f32"], Out, a)


import numpy as np
import tvm

x = np.linspace(-1.5, 1.5, 4, dtype="float32").reshape(4, 1)
compiled = tvm.tirx.compile(fma_affine, target="cuda", pipeline="tirx")
out = tvm.runtime.tensor(np.zeros((4, 1), dtype="float32"), tvm.cuda())
compiled(tvm.runtime.tensor(x, tvm.cuda()), out)
np.testing.assert_allclose(out.numpy(), x * 2 + 1, rtol=1e-6, atol=0)
