# Every asynchronous-protocol statement of spec TC §1.4 in its accepted spellings.
# expected-no-diagnostics
from tvm.script import tirx as T


@T.function
def statements(Out: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    bars = T.alloc_shared((2, 2), "uint64", layout="default")
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(bars.ptr_to([0, 1]), T.uint32(64))
        T.ptx["mbarrier.init.shared::cta.b64"](bars.ptr_to([1, 0]), 1)
    T.ptx.fence.proxy.async_.shared__cta()
    T.ptx.fence.mbarrier_init.release.cluster()
    T.cuda.cta_sync()
    T.ptx.mbarrier.arrive.shared.b64(bars.ptr_to([0, 1]))
    T.ptx.mbarrier.arrive.shared__cta.b64(bars.ptr_to([0, 1]), 1)
    T.ptx.mbarrier.arrive.expect_tx.shared.b64(bars.ptr_to([1, 0]), T.uint32(1024))
    T.ptx.mbarrier.expect_tx.shared.b64(bars.ptr_to([1, 0]), 16)
    T.cuda.mbarrier_wait(bars.ptr_to([0, 1]), 0)
    T.ptx.mbarrier.try_wait(bars.ptr_to([0, 1]), tid % 2)
    T.ptx.cp.async_.commit_group()
    T.ptx.cp.async_.wait_group(0)
    T.ptx.cp.async_.wait_all()
    T.ptx.cp.async_.bulk.commit_group()
    T.ptx.cp.async_.bulk.wait_group(1)
    T.ptx.cp.async_.bulk.wait_group.read(0)
    Out[tid] = T.float32(1)
