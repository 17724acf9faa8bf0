# A shared staging tile read back by rows (tests/data/diff, the shared-memory pair). One warp: lane
# l copies row l of A into the shared tile with 32 element stores (store j: every lane writes
# column j of its row), then one tile op loads the tile into registers, lane l holding row l
# (ld.shared.b32, instruction j: every lane reads column j of its row), and stores them to Out.
# Row-major tile, 128-byte rows: column j of every row is in bank j, so both accesses are 32-way
# bank conflicts.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid
from tvm.tirx.layout import S, TileLayout

ROWS = TileLayout(S[(32, 32, 1) : (1 @ laneid, 1, 1)])


@T.function
def stage(A: T.Tensor((32, 32), "float32"), Out: T.Tensor((32, 32), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    lane = T.cuda.lane_id()
    tile = T.alloc_shared((32, 32), "float32", layout=TileLayout(S[(32, 32) : (32, 1)]), align=16)
    for j in range(32):
        tile[lane, j] = A[lane, j]
    T.cuda.cta_sync()
    R = T.alloc_local((32, 32, 1), "float32", layout=ROWS)
    T.cuda.tile.apply(T.ptx["ld.shared.b32"], R, tile.view(32, 32, 1), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.b32"], Out.view(32, 32, 1), R, scope="warp")


import numpy as np
import tvm

a = np.arange(1024, dtype="float32").reshape(32, 32)
compiled = tvm.tirx.compile(stage, target="cuda", pipeline="tirx")
out = tvm.runtime.tensor(np.zeros((32, 32), dtype="float32"), tvm.cuda())
compiled(tvm.runtime.tensor(a, tvm.cuda()), out)
np.testing.assert_array_equal(out.numpy(), a)
