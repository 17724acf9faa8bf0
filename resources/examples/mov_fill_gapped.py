# mov: register bit copies, no conversion. A scalar source fills every repeat: 17.0 goes into a
# dense (4, 1) register tile, which is then copied into a *gapped* tile whose layout
# S[(4, 1) : (2, 1)] puts the four elements in registers 0, 2, 4 and 6 (a 7-register array;
# registers 1, 3, 5 are never touched). The store reads the gapped slots back in logical order.
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout

gapped = TileLayout(S[(4, 1) : (2, 1)])


@T.function
def fill_gapped(Out: T.Tensor((4, 1), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    dense = T.alloc_local((4, 1), "float32", layout="default")
    spread = T.alloc_local((4, 1), "float32", layout=gapped)
    T.cuda.tile.apply(T.ptx["mov.b32"], dense, T.float32(17))
    T.cuda.tile.apply(T.ptx["mov.b32"], spread, dense)
    T.cuda.tile.apply(T.ptx["st.global.f32"], Out, spread)


import numpy as np
import tvm

compiled = tvm.tirx.compile(fill_gapped, target="cuda", pipeline="tirx")
out = tvm.runtime.tensor(np.zeros((4, 1), dtype="float32"), tvm.cuda())
compiled(out)
np.testing.assert_allclose(out.numpy(), np.full((4, 1), 17, dtype="float32"))
