# warnings: a tile operation of more than 2^22 element visits is not checked element by element
from tvm.script import tirx as T


@T.function
def k(A: T.Tensor((1048576, 4), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    R = T.alloc_local((1048576, 4), "float32")
    # expected-warning@+1 W0101 {{too large to check}}
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A)
