# names: a layout using warpid without importing it
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid

# expected-error@+1 E0100 {{unknown name 'warpid'}}
reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])
