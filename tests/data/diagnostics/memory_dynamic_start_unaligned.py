# alignment: a dynamic start known only as a multiple of 2 cannot prove 16-byte atoms
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def k(A: T.Tensor((1024,), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=8, block=1))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((4,), "float32")
    # expected-error@+1 E0182 {{only known to be a multiple of 2}}
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 4])
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], A[bx * 4 : bx * 4 + 4], R)
