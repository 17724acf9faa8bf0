# Decision VIEW-1: a view of a register tile without thread axes addresses the executing thread's
# own register slots (element i is slot layout(i) of this thread), so check code can compare a
# per-thread computation. Each lane holds 4 registers of r (lane l: A[l, 0..3]); mine[0] = 2·mine[1]
# rewrites slot 0 from slot 1 in every lane, which B shows.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid
from tvm.tirx.layout import S, TileLayout

L = TileLayout(S[(32, 4, 1) : (1 @ laneid, 1, 1)])


@T.function
def per_thread(A: T.Tensor((32, 4, 1), "float32"), B: T.Tensor((32, 4, 1), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    r = T.alloc_local((32, 4, 1), "float32", layout=L)
    mine = r.view(4, layout=TileLayout(S[4]))
    T.cuda.tile.apply(T.ptx["ld.global.f32"], r, A, scope="warp")
    mine[0] = mine[1] * T.float32(2) + mine[3]
    T.cuda.tile.apply(T.ptx["st.global.f32"], B, r, scope="warp")


import numpy as np
import tvm

a = np.arange(128, dtype="float32").reshape(32, 4, 1)
b = tvm.runtime.tensor(np.zeros((32, 4, 1), dtype="float32"), tvm.cuda())
tvm.tirx.compile(per_thread, target="cuda")(tvm.runtime.tensor(a, tvm.cuda()), b)
expected = a.copy()
expected[:, 0, 0] = a[:, 1, 0] * 2 + a[:, 3, 0]
np.testing.assert_array_equal(b.numpy(), expected)
