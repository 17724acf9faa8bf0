# regions: the extent of a slice is static
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def k(A: T.Tensor((64,), "float32", align=16), n: T.int32):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    R = T.alloc_local((4,), "float32")
    # expected-error@+1 E0139 {{must be static}}
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[0:n])
