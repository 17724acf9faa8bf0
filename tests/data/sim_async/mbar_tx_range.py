# Two announcements of 2^20 - 1 bytes in one phase: the tx-count leaves its range.
from tvm.script import tirx as T


@T.function
def tx_range(Out: T.Tensor((32,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    bar = T.alloc_shared((1,), "uint64", layout="default")
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(bar.ptr_to([0]), 1)
        T.ptx.mbarrier.expect_tx.shared.b64(bar.ptr_to([0]), 1048575)
        # expected-fault@+1 E0794 {{leaves its range}} {{2097150 pending bytes}}
        T.ptx.mbarrier.expect_tx.shared.b64(bar.ptr_to([0]), 1048575)
    Out[tid] = T.float32(1)
