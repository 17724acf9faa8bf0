# The barrier expects 64 arrivals per phase but only warp 1 arrives: warp 0 would spin forever on
# a GPU. The simulator reports the deadlock at once with the pending count.
from tvm.script import tirx as T


@T.function
def too_few(Out: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    bar = T.alloc_shared((2,), "uint64", layout="default")
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(bar.ptr_to([1]), 64)
    T.cuda.cta_sync()
    if tid >= 32:
        T.ptx.mbarrier.arrive.shared.b64(bar.ptr_to([1]))
    else:
        # expected-fault@+1 E0732 {{waits on mbarrier 'bar[1]' for parity 0}} {{32 of 64 arrivals pending}}
        T.cuda.mbarrier_wait(bar.ptr_to([1]), 0)
    Out[tid] = T.float32(1)
