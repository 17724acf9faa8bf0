# m16n8k8 with f16 runs on sm_75; bf16 and m16n8k16 need sm_80
# arch: sm_75
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout, ComposeLayout

A_FRAG = TileLayout(S[(2, 8, 2, 4) : (1, 4 @ laneid, 2, 1 @ laneid)])
B_FRAG = TileLayout(S[(8, 2, 4) : (4 @ laneid, 1, 1 @ laneid)])
C_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])


@T.function
def k(C: T.Tensor((16, 8), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    a = T.alloc_local((16, 4), "uint32", layout=TileLayout(S[(2, 8, 4) : (1, 4 @ laneid, 1 @ laneid)]))
    b = T.alloc_local((8, 4), "uint32", layout=TileLayout(S[(8, 4) : (4 @ laneid, 1 @ laneid)]))
    c = T.alloc_local((16, 8), "float32", layout=C_FRAG)
    T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32"], c, a, b, c, scope="warp")
    # expected-error@+1 E0177 {{is not available on sm_75}}
    T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32"], c, a, b, c, scope="warp")
