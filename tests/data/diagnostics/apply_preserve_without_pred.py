# apply: preserve_dst needs pred
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def k(A: T.Tensor((2, 32, 4), "float32", align=16), B: T.Tensor((2, 32, 4), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A, scope="cta")
    # expected-error@+1 E0180 {{only has a meaning together with pred=}}
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A, scope="cta", preserve_dst=True)
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B, R, scope="cta")
