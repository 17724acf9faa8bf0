# ownership: the layout maps group coordinate (w, l) to thread w + 2l
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid, tx

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def k(A: T.Tensor((2, 32, 4), "float32", align=16), B: T.Tensor((2, 32, 4), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    R = T.alloc_local((2, 32, 4), "float32", layout=TileLayout(S[(2, 32, 4) : (1 @ tx, 2 @ tx, 1)]))
    # expected-error@+1 E0171 {{belongs to thread 2 (warp 0, lane 2)}}
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A, scope="cta")
