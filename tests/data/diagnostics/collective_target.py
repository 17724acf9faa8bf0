# stmatrix needs sm_90, mma.sync with bf16 sm_80
# arch: sm_80
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout, ComposeLayout

A_FRAG = TileLayout(S[(2, 8, 2, 4) : (1, 4 @ laneid, 2, 1 @ laneid)])
B_FRAG = TileLayout(S[(8, 2, 4) : (4 @ laneid, 1, 1 @ laneid)])
C_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])


@T.function
def k(C: T.Tensor((16, 8), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    s = T.alloc_shared((8, 8), "bfloat16")
    r = T.alloc_local((1, 8, 4), "uint32", layout=TileLayout(S[(1, 8, 4) : (1, 4 @ laneid, 1 @ laneid)]))
    T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x1.shared.b16"], r, s.view(1, 8, 8), scope="warp")
    # expected-error@+1 E0177 {{is not available on sm_80}}
    T.cuda.tile.apply(T.ptx["stmatrix.sync.aligned.m8n8.x1.shared.b16"], s.view(1, 8, 8), r, scope="warp")
