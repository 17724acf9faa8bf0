# syntax: an unexpected indent
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

x = 1
# expected-error@+1 E0004
    y = 2
