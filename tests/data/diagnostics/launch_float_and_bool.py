# launch: floats and bools are not extents
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def k(A: T.Tensor((64,), "float32")):
    # expected-error@+2 E0120 {{the float 2.0}}
    # expected-error@+1 E0120 {{the bool True}}
    T.device_entry(launch=T.cuda.LaunchConfig(grid=2.0, block=True))
