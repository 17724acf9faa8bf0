# OPEN-4: scope=cta needs a whole number of warps
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def k(A: T.Tensor((48, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=48))
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    # expected-error@+1 E0161 {{multiple of 32 threads, but the kernel launches 48}}
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A, scope="cta")
