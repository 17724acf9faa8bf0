# Thread 0 initialises the barrier and every thread arrives at once: without a barrier after the
# init, the other threads may see an uninitialised object.
from tvm.script import tirx as T


@T.function
def init_race(Out: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    bar = T.alloc_shared((1,), "uint64", layout="default")
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(bar.ptr_to([0]), 64)
    # expected-fault@+1 E0797 {{before its initialisation by thread 0 is visible}}
    T.ptx.mbarrier.arrive.shared.b64(bar.ptr_to([0]))
    T.cuda.mbarrier_wait(bar.ptr_to([0]), 0)
    Out[tid] = T.float32(1)
