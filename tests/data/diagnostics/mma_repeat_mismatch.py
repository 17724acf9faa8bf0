# mma.sync repeats: d and c (M, N), a (M, K), b (N, K) must agree
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout, ComposeLayout

A_FRAG = TileLayout(S[(2, 8, 2, 4) : (1, 4 @ laneid, 2, 1 @ laneid)])
B_FRAG = TileLayout(S[(8, 2, 4) : (4 @ laneid, 1, 1 @ laneid)])
C_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])


@T.function
def k(C: T.Tensor((16, 8), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    a = T.alloc_local((1, 2, 16, 8), "uint32", layout=TileLayout(S[(1, 2, 2, 8, 2, 4) : (1, 4, 1, 4 @ laneid, 2, 1 @ laneid)]))
    b = T.alloc_local((1, 3, 8, 8), "uint32", layout=TileLayout(S[(1, 3, 8, 2, 4) : (1, 2, 4 @ laneid, 1, 1 @ laneid)]))
    c = T.alloc_local((16, 8), "float32", layout=C_FRAG)
    # expected-error@+1 E0273 {{repeats K 3 times, but 'a' 2}}
    T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"], c, a, b, c, scope="warp")
    a1 = T.alloc_local((2, 16, 8), "uint32", layout=TileLayout(S[(2, 2, 8, 2, 4) : (4, 1, 4 @ laneid, 2, 1 @ laneid)]))
    # expected-error@+1 E0273 {{has the repeat shape (2,); expected none or two axes (M, K)}}
    T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"], c, a1, b, c, scope="warp")
