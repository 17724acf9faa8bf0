# A TMA load's destination read before the barrier phase is observed (spec TC §5.4): the copy is
# in flight when the threads read the tile, so the bytes are still pending.
from tvm.script import tirx as T


@T.function
def early(A: T.Tensor((8, 32), "float32"), C: T.Tensor((8, 32), "float32")):
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
    for i in range(8):
        # expected-fault@+1 E0702 {{before the async copy that writes it completed}}
        C[i, tid] = As[i, tid]
    T.cuda.mbarrier_wait(bar.ptr_to([0]), 0)
