# Constant counts, byte counts, parities and group depths are checked against their ranges.
from tvm.script import tirx as T


@T.function
def values(Out: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    bars = T.alloc_shared((2,), "uint64", layout="default")
    # expected-error@+1 E0276 {{the count of mbarrier.init.shared.b64 must be from 1 to 2^20 - 1, found 0}}
    T.ptx.mbarrier.init.shared.b64(bars.ptr_to([0]), 0)
    # expected-error@+1 E0276 {{the bytes of mbarrier.arrive.expect_tx.shared.b64 must be from 0 to 2^20 - 1, found 1048576}}
    T.ptx.mbarrier.arrive.expect_tx.shared.b64(bars.ptr_to([0]), 1048576)
    # expected-error@+1 E0276 {{the parity of mbarrier.try_wait must be 0 or 1, found 2}}
    T.cuda.mbarrier_wait(bars.ptr_to([0]), 2)
    # expected-error@+1 E0275 {{needs a constant group count N from 0 to 63, found 'tid'}}
    T.ptx.cp.async_.wait_group(tid)
    # expected-error@+1 E0275 {{found '64'}}
    T.ptx.cp.async_.bulk.wait_group(64)
    # expected-error@+1 E0150 {{the parity of mbarrier.try_wait is an integer, found float32}}
    T.cuda.mbarrier_wait(bars.ptr_to([0]), T.float32(0))
    # expected-error@+1 E0102
    T.ptx.cp.async_.commit_group(1)
    Out[tid] = T.float32(1)
