# The barrier is initialised again in every round while it is live (no mbarrier.inval).
from tvm.script import tirx as T


@T.function
def reinit(Out: T.Tensor((32,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    bar = T.alloc_shared((1,), "uint64", layout="default")
    for r in range(2):
        if tid == 0:
            # expected-fault@+1 E0791 {{initialised again by cta 0 thread 0 (warp 0, lane 0) while it is live}}
            T.ptx.mbarrier.init.shared.b64(bar.ptr_to([0]), 1)
    Out[tid] = T.float32(1)
