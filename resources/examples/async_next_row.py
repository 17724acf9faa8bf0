# The Asynchronous Copies guide's first kernel: every thread copies its own 16-byte row of A into
# shared memory with cp.async (no registers in between), commits the copy as a group, waits for
# it, and after a cta_sync reads its neighbour's row. The wait makes the copy visible to the
# issuing thread; the barrier after it makes it visible to the neighbour (spec TC §2.5). Drop the
# cta_sync and the simulator reports the race; drop the wait and it reports a read of bytes still
# in flight (tests/data/sim_async).
from tvm.script import tirx as T


@T.function
def async_read_next_row(A: T.Tensor((128, 4), "float32"), Out: T.Tensor((128, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
    tid = T.cuda.thread_idx("x")
    rows = T.alloc_shared((128, 4), "float32", layout="default", align=16)
    T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], rows.sub[tid, :], A.sub[tid, :], chunk_bytes=16)
    T.ptx.cp.async_.commit_group()
    T.ptx.cp.async_.wait_group(0)
    T.cuda.cta_sync()
    for j in range(4):
        Out[tid, j] = rows[(tid + 1) % 128, j]


import numpy as np
import tvm

x = np.arange(512, dtype="float32").reshape(128, 4) * 0.5 - 7
compiled = tvm.tirx.compile(async_read_next_row, target="cuda", pipeline="tirx")
out = tvm.runtime.tensor(np.zeros((128, 4), dtype="float32"), tvm.cuda())
compiled(tvm.runtime.tensor(x, tvm.cuda()), out)
np.testing.assert_array_equal(out.numpy(), np.roll(x, -1, axis=0))
