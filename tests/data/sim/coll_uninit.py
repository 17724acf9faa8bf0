# a fragment read before it is written: b is never loaded
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid
from tvm.tirx.layout import S, TileLayout

A_FRAG = TileLayout(S[(2, 8, 2, 4) : (1, 4 @ laneid, 2, 1 @ laneid)])
B_FRAG = TileLayout(S[(8, 2, 4) : (4 @ laneid, 1, 1 @ laneid)])
C_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])


@T.function
def k(C: T.Tensor((32, 4, 1), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    a = T.alloc_local((16, 8), "uint32", layout=A_FRAG)
    b = T.alloc_local((8, 8), "uint32", layout=B_FRAG)  # DECL
    c = T.alloc_local((16, 8), "float32", layout=C_FRAG)
    T.cuda.tile.apply(T.ptx["mov.b32"], a.view(32, 4, 1, layout=TileLayout(S[(32, 4, 1) : (1 @ laneid, 1, 1)])), T.uint32(0), scope="warp")
    T.cuda.tile.apply(T.ptx["mov.b32"], c.view(32, 4, 1, layout=TileLayout(S[(32, 4, 1) : (1 @ laneid, 1, 1)])), T.float32(0), scope="warp")
    T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"], c, a, b, c, scope="warp")  # MMA
    T.cuda.tile.apply(T.ptx["st.global.b32"], C, c.view(32, 4, 1, layout=TileLayout(S[(32, 4, 1) : (1 @ laneid, 1, 1)])), scope="warp")
