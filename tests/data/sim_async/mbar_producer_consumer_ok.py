# Warp 1 writes a row of shared memory and arrives on an mbarrier of count 32; warp 0 waits on its
# phase 0 and reads the row. The waiters run first and stop; the arrivals release them, and the
# mbarrier orders the writes before the reads (no race).
# expected-no-faults
from tvm.script import tirx as T


@T.function
def producer_consumer(A: T.Tensor((32,), "float32"), Out: T.Tensor((32,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    S = T.alloc_shared((32,), "float32", layout="default")
    bar = T.alloc_shared((1,), "uint64", layout="default")
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(bar.ptr_to([0]), 32)
    T.ptx.fence.mbarrier_init.release.cluster()
    T.cuda.cta_sync()
    if tid >= 32:
        S[tid - 32] = A[tid - 32]
        T.ptx.mbarrier.arrive.shared.b64(bar.ptr_to([0]))
    else:
        T.cuda.mbarrier_wait(bar.ptr_to([0]), 0)
        Out[tid] = S[(tid + 1) % 32]
