# An mbarrier reused for two rounds: after the round's wait and a cta_sync, its initialiser
# invalidates it with mbarrier.inval, so the next round's init is legal (compare mbar_reinit.py).
# expected-no-faults
from tvm.script import tirx as T


@T.function
def inval_reinit(Out: T.Tensor((32,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    bar = T.alloc_shared((1,), "uint64", layout="default")
    for r in range(2):
        if tid == 0:
            T.ptx.mbarrier.init.shared.b64(bar.ptr_to([0]), 32)
        T.ptx.fence.mbarrier_init.release.cluster()
        T.cuda.cta_sync()
        T.ptx.mbarrier.arrive.shared.b64(bar.ptr_to([0]))
        T.cuda.mbarrier_wait(bar.ptr_to([0]), 0)
        T.cuda.cta_sync()
        if tid == 0:
            T.ptx.mbarrier.inval.shared__cta.b64(bar.ptr_to([0]))
        T.cuda.cta_sync()
    Out[tid] = T.float32(1)
