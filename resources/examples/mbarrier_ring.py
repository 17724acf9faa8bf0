# A warp-specialised two-stage ring synchronised by mbarriers only (spec TC §3): warp 1 produces,
# warp 0 consumes, eight rounds. full[s] (32 arrivals: the producer's lanes) says "stage s holds
# data", empty[s] (32 arrivals: the consumer's lanes) says "stage s may be overwritten". Round r
# uses stage r % 2 and waits on parity (r // 2) % 2 of full, while the producer's wait on empty
# starts at parity 1: a fresh barrier's preceding phase counts as complete, so its first two
# waits pass. The producer writes its stage with plain stores and arrives; the consumer waits,
# reads its neighbour's element (another thread's write, ordered by the mbarrier), and arrives on
# empty. The simulator runs the warps interleaved: a thread that waits stops until the phase
# completes.
from tvm.script import tirx as T


@T.function
def mbarrier_ring(A: T.Tensor((8, 32), "float32"), Out: T.Tensor((8, 32), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    lane = tid % 32
    ring = T.alloc_shared((2, 32), "float32", layout="default")
    full = T.alloc_shared((2,), "uint64", layout="default")
    empty = T.alloc_shared((2,), "uint64", layout="default")
    if tid == 0:
        for s in range(2):
            T.ptx.mbarrier.init.shared.b64(full.ptr_to([s]), 32)
            T.ptx.mbarrier.init.shared.b64(empty.ptr_to([s]), 32)
    T.ptx.fence.mbarrier_init.release.cluster()
    T.cuda.cta_sync()
    for r in range(8):
        s = r % 2
        phase = r // 2 % 2
        if tid >= 32:
            T.cuda.mbarrier_wait(empty.ptr_to([s]), 1 - phase)
            ring[s, lane] = A[r, lane] * T.float32(2)
            T.ptx.mbarrier.arrive.shared.b64(full.ptr_to([s]))
        else:
            T.cuda.mbarrier_wait(full.ptr_to([s]), phase)
            Out[r, lane] = ring[s, (lane + 1) % 32] + T.float32(1)
            T.ptx.mbarrier.arrive.shared.b64(empty.ptr_to([s]))


import numpy as np
import tvm

a = np.arange(256, dtype="float32").reshape(8, 32) * 0.25
compiled = tvm.tirx.compile(mbarrier_ring, target="cuda", pipeline="tirx")
out = tvm.runtime.tensor(np.zeros((8, 32), dtype="float32"), tvm.cuda())
compiled(tvm.runtime.tensor(a, tvm.cuda()), out)
np.testing.assert_array_equal(out.numpy(), np.roll(a * 2, -1, axis=1) + 1)
