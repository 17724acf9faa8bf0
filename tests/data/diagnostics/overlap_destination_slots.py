# slots: a zero-stride view written as a destination overlaps (OPEN-7: broadcast views are read-only)
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def k(A: T.Tensor((4,), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    R = T.alloc_local((4, 1), "float32")
    bcast = R.view(4, 1, layout=TileLayout(S[(4, 1) : (0, 1)]))
    # expected-error@+1 E0173 {{destination slots overlap}}
    T.cuda.tile.apply(T.ptx["mov.b32"], bcast, T.float32(17))
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], A, R.view(4))
