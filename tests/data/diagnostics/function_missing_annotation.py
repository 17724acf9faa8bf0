# functions: parameters are typed
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function(private=True)
# expected-error@+1 E0202 {{needs a type annotation}}
def f(x) -> T.float32:
    return T.float32(1)
