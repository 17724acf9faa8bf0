# dtypes: a .b32 load into a 16-bit register tile
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def k(A: T.Tensor((2, 32, 4), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    H = T.alloc_local((2, 32, 4), "float16", layout=reg)
    # expected-error@+1 E0167 {{needs 32-bit elements}}
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], H, A, scope="cta")
