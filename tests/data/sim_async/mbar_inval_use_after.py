# An arrive on a barrier after its mbarrier.inval (no init since) is undefined in PTX: the
# simulator names the use and the inval.
from tvm.script import tirx as T


@T.function
def use_after_inval(Out: T.Tensor((32,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    bar = T.alloc_shared((1,), "uint64", layout="default")
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(bar.ptr_to([0]), 32)
    T.cuda.cta_sync()
    if tid == 0:
        T.ptx.mbarrier.inval.shared.b64(bar.ptr_to([0]))
    T.cuda.cta_sync()
    # expected-fault@+1 E0790 {{after its mbarrier.inval}}
    T.ptx.mbarrier.arrive.shared.b64(bar.ptr_to([0]))
    Out[tid] = T.float32(1)
