# Check code that would make a 4 TiB numpy array: a harness error at its line (E0814), not an
# allocation failure; the kernel itself is small.
from tvm_tirx.script import tirx as T
from tvm_tirx.tirx.layout import S, TileLayout
from tvm_tirx.backend.cuda.axis import laneid, warpid

register_layout = TileLayout(S[(8, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


@T.function
def copy(A: T.Tensor((8, 32, 4), "float32", align=16), B: T.Tensor((8, 32, 4), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=256))
    registers = T.alloc_local((8, 32, 4), "float32", layout=register_layout)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], registers, A, scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B, registers, scope="cta")


import numpy as np
import tvm_tirx

big = np.zeros((1 << 40,), dtype="float32")
