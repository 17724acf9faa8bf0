# A pipelined load whose mbarrier expects more bytes than the TMA delivers: warp 0's lane 0 announces
# 8192 transaction bytes (expect_tx) but the box is 16 x 64 float32 = 4096 bytes, so phase 0 of
# `full[0]` never completes and all four warps wait on it forever. On a GPU the launch hangs until
# `--timeout`; the simulator finds the deadlock and its hang report names warps 0-3, `full[0]`,
# phase 0 (parity 0), 1 of 1 arrivals, 8192 bytes expected and 4096 delivered, at line 24.
from tvm.script import tirx as T


@T.function
def expect_tx_too_large(A: T.Tensor((16, 64), "float32"), C: T.Tensor((16, 64), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
    tid = T.cuda.thread_idx("x")
    As = T.alloc_shared((16, 64), "float32", align=128)
    full = T.alloc_shared((1,), "uint64", layout="default")
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(full.ptr_to([0]), 1)
    T.ptx.fence.proxy.async_.shared__cta()
    T.cuda.cta_sync()
    if tid == 0:
        # wrong: the box below is 4096 bytes
        T.ptx.mbarrier.arrive.expect_tx.shared.b64(full.ptr_to([0]), 8192)
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], As, A, box=[16, 64], coords=[0, 0], mbar=full.ptr_to([0]))
    # every warp waits for the load
    T.cuda.mbarrier_wait(full.ptr_to([0]), 0)
    for i in range(8):
        C[i * 2 + tid // 64, tid % 64] = As[i * 2 + tid // 64, tid % 64]
