# functions: no tile operations in a scalar function
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function(private=True)
def f(x: T.float32) -> T.float32:
    # expected-error@+1 E0201 {{tile operations}}
    T.cuda.tile.apply(T.ptx["mov.b32"], x, x)
    return x
