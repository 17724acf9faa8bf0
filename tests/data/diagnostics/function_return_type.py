# functions: the returned value has the declared type
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function(private=True)
def f(x: T.int32) -> T.float32:
    # expected-error@+1 E0203 {{return type is float32, found int32}}
    return x + 1
