# One thread completes phase 0 and arrives again (into phase 1) before any wait has observed
# phase 0: the PTX consumption rule is broken (the harness's ReuseBeforeConsumption).
from tvm.script import tirx as T


@T.function
def reuse(Out: T.Tensor((32,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    bar = T.alloc_shared((1,), "uint64", layout="default")
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(bar.ptr_to([0]), 1)
        T.ptx.mbarrier.arrive.shared.b64(bar.ptr_to([0]))
        # expected-fault@+1 E0796 {{in phase 1 before any wait observed the completion of phase 0}}
        T.ptx.mbarrier.arrive.shared.b64(bar.ptr_to([0]))
        T.cuda.mbarrier_wait(bar.ptr_to([0]), 1)
    Out[tid] = T.float32(1)
