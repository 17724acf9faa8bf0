# arrive.expect_tx announces 1024 bytes but no async copy delivers them: the classic TMA hang.
# The deadlock report gives both numbers (announced vs delivered).
from tvm.script import tirx as T


@T.function
def no_bytes(Out: T.Tensor((32,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    bar = T.alloc_shared((1,), "uint64", layout="default")
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(bar.ptr_to([0]), 1)
    T.cuda.cta_sync()
    if tid == 0:
        T.ptx.mbarrier.arrive.expect_tx.shared.b64(bar.ptr_to([0]), T.uint32(1024))
    # expected-fault@+1 E0732 {{0 of 1 arrivals pending}} {{1024 transaction bytes outstanding (expect_tx announced 1024 bytes, async copies delivered 0)}}
    T.cuda.mbarrier_wait(bar.ptr_to([0]), 0)
    Out[tid] = T.float32(1)
