# mbarrier.inval while a TMA load that completes on the barrier is still in flight: undefined in
# PTX (the copy's complete_tx would hit a dead object), reported at the inval with the issue line.
from tvm.script import tirx as T


@T.function
def inval_in_flight(A: T.Tensor((8, 32), "float32"), C: T.Tensor((8, 32), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    As = T.alloc_shared((8, 32), "float32", align=128)
    bar = T.alloc_shared((1,), "uint64", layout="default")
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(bar.ptr_to([0]), 1)
    T.ptx.fence.proxy.async_.shared__cta()
    T.cuda.cta_sync()
    if tid == 0:
        T.ptx.mbarrier.arrive.expect_tx.shared.b64(bar.ptr_to([0]), 1024)
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], As, A, box=[8, 32], coords=[0, 0], mbar=bar.ptr_to([0]))
        # expected-fault@+1 E0799 {{while an async copy of thread 0 that completes on it is in flight}}
        T.ptx.mbarrier.inval.shared.b64(bar.ptr_to([0]))
    T.cuda.mbarrier_wait(bar.ptr_to([0]), 0)
    for i in range(8):
        C[i, tid] = As[i, tid]
