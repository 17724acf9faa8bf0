# layout expressions: extents and strides differ in length (E03xx from core/layout)
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

# expected-error@+1 E0302 {{differ in length}}
bad = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid)])
