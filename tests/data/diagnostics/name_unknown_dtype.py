# names: an unknown dtype string with a suggestion
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def k(A: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    # expected-error@+1 E0114 {{expected a dtype}}
    X = T.alloc_shared((64,), "float23")
