# functions: kernels cannot be called from TIRx code
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def other(A: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))

@T.function(private=True)
def f(x: T.float32) -> T.float32:
    # expected-error@+1 E0204 {{is a kernel}}
    return other(x)
