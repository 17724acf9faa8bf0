# a warp collective under a condition that differs between the lanes of a warp
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout, ComposeLayout

A_FRAG = TileLayout(S[(2, 8, 2, 4) : (1, 4 @ laneid, 2, 1 @ laneid)])
B_FRAG = TileLayout(S[(8, 2, 4) : (4 @ laneid, 1, 1 @ laneid)])
C_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])


@T.function
def k(C: T.Tensor((16, 8), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    a = T.alloc_local((16, 8), "uint32", layout=A_FRAG)
    b = T.alloc_local((8, 8), "uint32", layout=B_FRAG)
    c = T.alloc_local((16, 8), "float32", layout=C_FRAG)
    lane = T.cuda.lane_id()
    warp = T.cuda.warp_id()
    tid = T.cuda.thread_idx("x")
    if warp == 0:
        T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"], c, a, b, c, scope="warp")
    if tid // 32 == 1:
        T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"], c, a, b, c, scope="warp")
    if lane < 16:
        # expected-error@+1 E0261 {{inside control flow that may differ between the lanes of a warp}}
        T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"], c, a, b, c, scope="warp")
    for i in range(tid):
        # expected-error@+1 E0261 {{every lane must execute it}}
        T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"], c, a, b, c, scope="warp")
