# The load is guarded by `if lane == 0:` in a four-warp block: four threads issue the same box, and
# the barrier receives four times the bytes one expect_tx announced (spec TC §5.4: not a hardware
# error, but the bytes are double-counted). The second copy writes bytes the first one still has in
# flight; the first completes the phase, the others never land.
from tvm.script import tirx as T


@T.function
def four(A: T.Tensor((8, 32), "float32"), C: T.Tensor((8, 32), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
    tid = T.cuda.thread_idx("x")
    lane = tid % 32
    As = T.alloc_shared((8, 32), "float32", align=128)
    bar = T.alloc_shared((1,), "uint64", layout="default")
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(bar.ptr_to([0]), 1)
    T.ptx.fence.proxy.async_.shared__cta()
    T.cuda.cta_sync()
    if tid == 0:
        T.ptx.mbarrier.arrive.expect_tx.shared.b64(bar.ptr_to([0]), 1024)
    if lane == 0:
        # expected-fault@+2 E0703 {{writes shared byte 0 while an earlier async copy by thread 0 that writes it is in flight}}
        # expected-fault@+1 W0700 {{never completed}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], As, A, box=[8, 32], coords=[0, 0], mbar=bar.ptr_to([0]))
    T.cuda.mbarrier_wait(bar.ptr_to([0]), 0)
