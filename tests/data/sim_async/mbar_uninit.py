# An arrive on a barrier nobody initialised.
from tvm.script import tirx as T


@T.function
def uninit(Out: T.Tensor((32,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    bar = T.alloc_shared((1,), "uint64", layout="default")
    # expected-fault@+1 E0790 {{mbarrier 'bar[0]' is used by cta 0 thread 0}} {{before any mbarrier.init}}
    T.ptx.mbarrier.arrive.shared.b64(bar.ptr_to([0]))
    Out[tid] = T.float32(1)
