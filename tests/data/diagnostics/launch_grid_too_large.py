# launch: grid y is limited to 65535
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def k(A: T.Tensor((64,), "float32")):
    # expected-error@+1 E0123 {{exceeds the CUDA limits}}
    T.device_entry(launch=T.cuda.LaunchConfig(grid=(1, 70000), block=64))
