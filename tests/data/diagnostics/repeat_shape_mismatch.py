# shapes: all operands share one repeat shape
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def k(A: T.Tensor((2, 32, 4), "float32", align=16), B: T.Tensor((2, 32, 4), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A, scope="cta")
    R2 = T.alloc_local((2, 32, 2), "float32", layout=TileLayout(S[(2, 32, 2) : (1 @ warpid, 1 @ laneid, 1)]))
    T.cuda.tile.apply(T.ptx["ld.global.v2.b32"], R2, A[:, :, 0:2], scope="cta")
    # expected-error@+1 E0166 {{repeat shape (2,)}}
    T.cuda.tile.apply(T.ptx["add.rn.f32"], R.view(2, 32, 4, 1), R.view(2, 32, 4, 1), R2.view(2, 32, 2, 1), scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B, R, scope="cta")
