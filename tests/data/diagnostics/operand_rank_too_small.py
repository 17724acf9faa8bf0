# shapes: a cta operand needs (group, repeat, atom)
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def k(A: T.Tensor((4,), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    R = T.alloc_local((4,), "float32")
    # expected-error@+2 E0163
    # expected-error@+1 E0163
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A, scope="cta")
