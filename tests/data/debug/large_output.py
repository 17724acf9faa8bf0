# One warp writes 2.5 into row 5 of a (2048, 1024) float32 output: 2 Mi elements, more than the
# debugger tabulates in one tile and over the imaged-argument size when a test lowers it
# (tests/core/tst_debug_session: the tile's first rows are shown, an indexed condition reads any
# element).
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid
from tvm.tirx.layout import S, TileLayout

regs = TileLayout(S[(32, 1) : (1 @ laneid, 1)])


@T.function
def fill_row(O: T.Tensor((2048, 1024), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    v = T.alloc_local((32, 1), "float32", layout=regs)
    T.cuda.tile.apply(T.ptx["mov.b32"], v, T.float32(2.5), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.f32"], O.view(65536, 32, 1).sub[5 * 32 + 1], v, scope="warp")


import numpy as np
import tvm

out = tvm.runtime.tensor(np.zeros((2048, 1024), dtype="float32"), tvm.cuda())
tvm.tirx.compile(fill_row, target="cuda", pipeline="tirx")(out)
expected = np.zeros((2048, 1024), dtype="float32")
expected[5, 32:64] = 2.5
np.testing.assert_allclose(out.numpy(), expected, rtol=0, atol=0)
