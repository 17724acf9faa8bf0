# A two-barrier ring (full / empty) over four rounds: warp 1 produces a row per round, warp 0
# consumes it. The producer starts its waits on "empty" with parity 1 (a fresh barrier's previous
# phase counts as complete), the consumer on "full" with parity 0; both flip the parity every
# round. Exercises the scheduler's interleaving: neither warp can run ahead.
# expected-no-faults
from tvm.script import tirx as T


@T.function
def ring(A: T.Tensor((4, 32), "float32"), Out: T.Tensor((4, 32), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    S = T.alloc_shared((32,), "float32", layout="default")
    full = T.alloc_shared((1,), "uint64", layout="default")
    empty = T.alloc_shared((1,), "uint64", layout="default")
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(full.ptr_to([0]), 32)
        T.ptx.mbarrier.init.shared.b64(empty.ptr_to([0]), 32)
    T.ptx.fence.proxy.async_.shared__cta()
    T.cuda.cta_sync()
    for r in range(4):
        if tid >= 32:
            T.ptx.mbarrier.try_wait(empty.ptr_to([0]), (r + 1) % 2)
            S[tid - 32] = A[r, tid - 32]
            T.ptx.mbarrier.arrive.shared.b64(full.ptr_to([0]))
        else:
            T.cuda.mbarrier_wait(full.ptr_to([0]), r % 2)
            Out[r, tid] = S[31 - tid]
            T.ptx.mbarrier.arrive.shared.b64(empty.ptr_to([0]))
