# functions: a return on every path
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function(private=True)
# expected-error@+1 E0200 {{does not return a value on every path}}
def relu(x: T.float32) -> T.float32:
    if x > T.float32(0):
        return x
