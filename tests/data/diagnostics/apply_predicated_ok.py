# apply: pred= and preserve_dst=True are accepted together (no diagnostics)
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def k(A: T.Tensor((2, 32, 4), "float32", align=16), B: T.Tensor((2, 32, 4), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A, scope="cta")
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A, scope="cta", pred=T.cuda.lane_id() < 16, preserve_dst=True)
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B, R, scope="cta")
# expected-no-diagnostics
