# a module-level dtype alias, `from __future__ import annotations`, and the axes re-exported by
# tvm.tirx.layout
from __future__ import annotations

from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout, laneid, tid_in_wg, wid_in_wg

dtype = T.float32
half = "float16"
reg = TileLayout(S[(4, 32, 2) : (1 @ wid_in_wg, 1 @ laneid, 1)])
flat = TileLayout(S[(128, 2) : (1 @ tid_in_wg, 1)])

@T.function
def k(A: T.Tensor((256,), dtype), B: T.Tensor((256,), dtype), H: T.Tensor((128,), half)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
    R = T.alloc_local((4, 32, 2), dtype, layout=reg)
    F = T.alloc_local((128, 2), dtype, layout=flat)
    T.cuda.tile.apply(T.ptx["ld.global.v2.b32"], R, A.view(4, 32, 2), scope="warpgroup")
    T.cuda.tile.apply(T.ptx["mov.b32"], F.view(4, 32, 2, 1), R.view(4, 32, 2, 1), scope="warpgroup")
    T.cuda.tile.apply(T.ptx["st.global.v2.b32"], B.view(4, 32, 2), F.view(4, 32, 2), scope="warpgroup")
    i = T.cuda.thread_idx("x")
    x: half = H[i]
    H[i] = x * T.float16(2)
# expected-no-diagnostics
