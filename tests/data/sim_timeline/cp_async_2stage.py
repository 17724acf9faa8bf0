# A two-stage cp.async pipeline of one warp for the timeline test (tst_sim_timeline): every thread
# copies its 16-byte row of tile i + 1 into stage (i + 1) % 2 while it reads tile i from stage
# i % 2; wait_group(1) leaves only the newest group in flight. Each thread reads only the bytes
# it copied, so the wait alone orders them (no cta_sync).
from tvm.script import tirx as T


@T.function
def cp_async_2stage(A: T.Tensor((4, 32, 4), "float32"), Out: T.Tensor((4, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    buf = T.alloc_shared((2, 32, 4), "float32", layout="default", align=16)
    T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], buf.sub[0, tid, :], A.sub[0, tid, :], chunk_bytes=16)
    T.ptx.cp.async_.commit_group()
    for i in range(4):
        if i + 1 < 4:
            T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], buf.sub[(i + 1) % 2, tid, :], A.sub[i + 1, tid, :], chunk_bytes=16)
        T.ptx.cp.async_.commit_group()
        T.ptx.cp.async_.wait_group(1)
        for j in range(4):
            Out[i, tid, j] = buf[i % 2, tid, j] * T.float32(2)


import numpy as np
import tvm

a = np.arange(512, dtype="float32").reshape(4, 32, 4)
compiled = tvm.tirx.compile(cp_async_2stage, target="cuda", pipeline="tirx")
out = tvm.runtime.tensor(np.zeros((4, 32, 4), dtype="float32"), tvm.cuda())
compiled(tvm.runtime.tensor(a, tvm.cuda()), out)
np.testing.assert_array_equal(out.numpy(), a * 2)
