# Packed half arithmetic: add.rn.f16x2 adds two float16 values per uint32 register. The float16
# tensors are viewed as uint32 words (same bytes, pairs of halves), loaded with ld.global.b32,
# added pairwise (eight instructions for sixteen halves) and stored back. Packing is always
# explicit: an even extent never makes the checker pick a packed form by itself.
from tvm.script import tirx as T


@T.function
def add_halves(
    A: T.Tensor((8, 2), "float16", align=4),
    B: T.Tensor((8, 2), "float16", align=4),
    Out: T.Tensor((8, 2), "float16", align=4),
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    a = T.alloc_local((8, 1), "uint32", layout="default")
    b = T.alloc_local((8, 1), "uint32", layout="default")
    T.cuda.tile.apply(T.ptx["ld.global.b32"], a, A.view("uint32"))
    T.cuda.tile.apply(T.ptx["ld.global.b32"], b, B.view("uint32"))
    T.cuda.tile.apply(T.ptx["add.rn.f16x2"], a, a, b)
    T.cuda.tile.apply(T.ptx["st.global.b32"], Out.view("uint32"), a)


import numpy as np
import tvm

x = np.linspace(-4, 4, 16, dtype="float16").reshape(8, 2)
y = np.linspace(0.5, 2, 16, dtype="float16").reshape(8, 2)
compiled = tvm.tirx.compile(add_halves, target="cuda", pipeline="tirx")
out = tvm.runtime.tensor(np.zeros((8, 2), dtype="float16"), tvm.cuda())
compiled(tvm.runtime.tensor(x, tvm.cuda()), tvm.runtime.tensor(y, tvm.cuda()), out)
# float16 + float16 in numpy rounds the exact sum once, like add.rn.f16x2.
np.testing.assert_allclose(out.numpy(), x + y, rtol=0, atol=0)
