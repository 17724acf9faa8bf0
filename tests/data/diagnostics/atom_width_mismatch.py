# atoms: ld.global.v2 on a tile whose last axis is 4
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def k(A: T.Tensor((2, 32, 4), "float32", align=16), B: T.Tensor((2, 32, 4), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    # expected-error@+2 E0165 {{needs a last operand axis of 2 elements, found 4}}
    # expected-error@+1 E0165 {{needs a last operand axis of 2 elements, found 4}}
    T.cuda.tile.apply(T.ptx["ld.global.v2.b32"], R, A, scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B, R, scope="cta")
