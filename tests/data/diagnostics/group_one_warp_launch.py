# group: the layout needs two warps but block=32 launches one
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def k(A: T.Tensor((2, 32, 4), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    # expected-error@+2 E0164 {{needs a leading group shape (1, 32), found (2, 32)}}
    # expected-error@+1 E0164 {{needs a leading group shape (1, 32), found (2, 32)}}
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A, scope="cta")
