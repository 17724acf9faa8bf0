# OPEN-5: replicated register layouts are sources only
from tvm.script import tirx as T
from tvm.tirx.layout import S, R, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

rep = TileLayout(S[(1, 32, 4) : (1 @ warpid, 1 @ laneid, 1)] + R[2 : 1 @ warpid])

@T.function
def k(A: T.Tensor((1, 32, 4), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    X = T.alloc_local((1, 32, 4), "float32", layout=rep)
    # expected-error@+1 E0179 {{replicated layout}}
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], X, A, scope="cta")
