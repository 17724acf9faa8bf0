# A parity computed at run time as 2: only 0 and 1 name a phase.
from tvm.script import tirx as T


@T.function
def bad_parity(Out: T.Tensor((32,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    bar = T.alloc_shared((1,), "uint64", layout="default")
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(bar.ptr_to([0]), 32)
    T.cuda.cta_sync()
    phase = tid // 16 + 1
    T.ptx.mbarrier.arrive.shared.b64(bar.ptr_to([0]))
    # expected-fault@+1 E0795 {{invalid parity 2}}
    T.cuda.mbarrier_wait(bar.ptr_to([0]), phase)
    Out[tid] = T.float32(1)
