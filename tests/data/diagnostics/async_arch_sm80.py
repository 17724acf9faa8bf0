# arch: sm_80
# cp.async groups and mbarrier init/arrive exist on sm_80; expect_tx, try_wait, the bulk groups
# and the proxy fences need sm_90.
from tvm.script import tirx as T


@T.function
def arch(Out: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    bars = T.alloc_shared((2,), "uint64", layout="default")
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(bars.ptr_to([0]), 64)
    T.cuda.cta_sync()
    T.ptx.cp.async_.commit_group()
    T.ptx.cp.async_.wait_group(0)
    T.ptx.mbarrier.arrive.shared.b64(bars.ptr_to([0]))
    # expected-error@+1 E0177 {{mbarrier.try_wait is not available on sm_80}}
    T.cuda.mbarrier_wait(bars.ptr_to([0]), 0)
    # expected-error@+1 E0177 {{fence.proxy.async.shared::cta is not available on sm_80}}
    T.ptx.fence.proxy.async_.shared__cta()
    # expected-error@+1 E0177 {{cp.async.bulk.commit_group}}
    T.ptx.cp.async_.bulk.commit_group()
    Out[tid] = T.float32(1)
