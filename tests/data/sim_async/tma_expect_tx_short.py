# expect_tx announces half of the box: the TMA delivers the full box (8 x 32 float32 = 1024 bytes),
# more than the phase expects once its single arrival is in (spec TC §3.4 TxOverDelivery).
from tvm.script import tirx as T


@T.function
def short(A: T.Tensor((8, 32), "float32"), C: T.Tensor((8, 32), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    As = T.alloc_shared((8, 32), "float32", align=128)
    bar = T.alloc_shared((1,), "uint64", layout="default")
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(bar.ptr_to([0]), 1)
    T.ptx.fence.proxy.async_.shared__cta()
    T.cuda.cta_sync()
    if tid == 0:
        T.ptx.mbarrier.arrive.expect_tx.shared.b64(bar.ptr_to([0]), 512)
        # expected-fault@+1 E0793 {{1024 bytes landed but only 512 were expected}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], As, A, box=[8, 32], coords=[0, 0], mbar=bar.ptr_to([0]))
    T.cuda.mbarrier_wait(bar.ptr_to([0]), 0)
    for i in range(8):
        C[i, tid] = As[i, tid]
