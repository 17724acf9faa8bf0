# min target: three-input max.f32 needs sm_100 (this file checks sm_90)
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def k(A: T.Tensor((2, 32, 4), "float32", align=16), B: T.Tensor((2, 32, 4), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A, scope="cta")
    scalars = R.view(2, 32, 4, 1)
    # expected-error@+1 E0177 {{not available on sm_90}}
    T.cuda.tile.apply(T.ptx["max.f32"], scalars, scalars, T.float32(0), T.float32(1), scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B, R, scope="cta")
