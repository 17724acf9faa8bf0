# kernels: the launch is required
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
# expected-error@+1 E0110 {{has no T.device_entry}}
def k(A: T.Tensor((64,), "float32")):
    pass
