# Two threads arrive on a barrier of count 1 in the same phase: the second arrival overflows.
from tvm.script import tirx as T


@T.function
def overflow(Out: T.Tensor((32,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    bar = T.alloc_shared((1,), "uint64", layout="default")
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(bar.ptr_to([0]), 2)
    T.cuda.cta_sync()
    if tid < 2:
        # expected-fault@+1 E0792 {{arrives with count 2 but only 1 of 2 arrivals are pending}}
        T.ptx.mbarrier.arrive.shared.b64(bar.ptr_to([0]), tid + 1)
    Out[tid] = T.float32(1)
