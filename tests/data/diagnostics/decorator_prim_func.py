# decorators: @T.prim_func is the G1 syntax
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

# expected-error@+1 E0108 {{T.prim_func}}
@T.prim_func
def k(A: T.Tensor((64,), "float32")):
    pass
