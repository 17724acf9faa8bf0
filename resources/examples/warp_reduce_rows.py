# Warp-shuffle reduction: the sum of each row of A (8 × 32 floats), one row per warp at a time.
# Lane l loads A[row, l]; five butterfly steps (__shfl_xor_sync with offsets 16, 8, 4, 2, 1) leave
# the row's sum in every lane, and lane 0 stores it. The shuffle is a warp collective: every lane
# named by the mask executes it together (the simulator checks that they do, and which lane each
# one reads).
from tvm.script import tirx as T


@T.function
def row_sums(A: T.Tensor((8, 32), "float32"), out: T.Tensor((8,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    lane = T.cuda.lane_id()
    warp = T.cuda.warp_id()
    for i in range(4):
        row = warp * 4 + i
        v = A[row, lane]
        for k in range(5):
            v = v + T.cuda.__shfl_xor_sync(0xFFFFFFFF, v, 16 >> k)
        if lane == 0:
            out[row] = v


import numpy as np
import tvm

np.random.seed(0)  # random quarters: exact sums, and a wrong shuffle offset cannot hide in a period
x = (np.floor(np.random.uniform(-4, 5, size=(8, 32))) * 0.25).astype("float32")
compiled = tvm.tirx.compile(row_sums, target="cuda", pipeline="tirx")
out = tvm.runtime.tensor(np.zeros(8, dtype="float32"), tvm.cuda())
compiled(tvm.runtime.tensor(x, tvm.cuda()), out)
np.testing.assert_allclose(out.numpy(), x.sum(axis=1), rtol=0, atol=0)
