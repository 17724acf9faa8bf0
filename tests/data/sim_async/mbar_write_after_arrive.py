# The producer writes its row after arriving: the consumer's read is not ordered after that write
# by the mbarrier (the arrive released only what came before it), a race naming both lines.
from tvm.script import tirx as T


@T.function
def late_write(A: T.Tensor((32,), "float32"), Out: T.Tensor((32,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    S = T.alloc_shared((32,), "float32", layout="default")
    bar = T.alloc_shared((1,), "uint64", layout="default")
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(bar.ptr_to([0]), 32)
    T.cuda.cta_sync()
    if tid >= 32:
        T.ptx.mbarrier.arrive.shared.b64(bar.ptr_to([0]))
        S[tid - 32] = A[tid - 32]
    else:
        T.cuda.mbarrier_wait(bar.ptr_to([0]), 0)
        # expected-fault@+1 E0701 {{read by cta 0 thread 0}} {{after a write by thread 32 (line 17)}}
        Out[tid] = S[tid]
