# alignment: a region starting at element 1 misaligns .v2 atoms
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def k(A: T.Tensor((2, 32, 4), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    R2 = T.alloc_local((2, 32, 2), "float32", layout=TileLayout(S[(2, 32, 2) : (1 @ warpid, 1 @ laneid, 1)]))
    # expected-error@+1 E0175 {{not 8-byte aligned}}
    T.cuda.tile.apply(T.ptx["ld.global.v2.b32"], R2, A[:, :, 1:3], scope="cta")
