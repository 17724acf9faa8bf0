# mbarrier_ring.py with the producer's first wait on "empty" at parity 0 (the same initial phase as
# the consumer): both warps wait forever on a GPU; the simulator reports the deadlock at once, at
# the first waiter (the consumer, on full[0]) with a note at the producer's wait on empty[0].
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
            T.cuda.mbarrier_wait(empty.ptr_to([s]), phase)
            ring[s, lane] = A[r, lane] * T.float32(2)
            T.ptx.mbarrier.arrive.shared.b64(full.ptr_to([s]))
        else:
            # expected-fault@+1 E0732 {{waits on mbarrier 'full[0]' for parity 0}} {{32 of 32 arrivals pending}}
            T.cuda.mbarrier_wait(full.ptr_to([s]), phase)
            Out[r, lane] = ring[s, (lane + 1) % 32] + T.float32(1)
            T.ptx.mbarrier.arrive.shared.b64(empty.ptr_to([s]))
