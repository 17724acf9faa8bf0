# warnings: a tile operation of more than 2^22 element visits is not checked element by element
# (1024 threads x 1024 repeats x 4 atom elements x 2 operands; 16 KiB of registers per thread)
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

big = TileLayout(S[(32, 32, 1024, 4) : (1 @ warpid, 1 @ laneid, 4, 1)])


@T.function
def k(A: T.Tensor((32, 32, 1024, 4), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1024))
    R = T.alloc_local((32, 32, 1024, 4), "float32", layout=big)
    # expected-warning@+1 W0101 {{too large to check}}
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A, scope="cta")
