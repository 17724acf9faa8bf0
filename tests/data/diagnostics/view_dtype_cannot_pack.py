# dtype views: packing float16 pairs needs an even last dimension
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def k(A: T.Tensor((2, 32, 3), "float16", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    # expected-error@+1 E0135 {{cannot view float16 as uint32}}
    W = A.view("uint32")
