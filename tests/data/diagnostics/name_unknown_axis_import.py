# names: importing an axis that does not exist
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
# expected-error@+1 E0106 {{not a thread axis}}
from tvm.backend.cuda.axis import laneidx
