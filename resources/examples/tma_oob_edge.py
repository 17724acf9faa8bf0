# A TMA load whose box crosses the tensor's edge (spec TC §5.4; decision TC-T3): A has 40 rows, each
# of two CTAs loads a 32 x 64 float16 box at row 32 * bx, so rows 40..63 of the second
# box are out of bounds and arrive as zeros. expect_tx announces the full box (4096 bytes): the
# transaction count includes the filled elements. If the hardware counted only in-bounds bytes the
# second CTA would never see its phase complete (the GPU run would time out); the simulator models
# the full-box rule. C receives A padded with zero rows.
from tvm.script import tirx as T


@T.function
def tma_oob_edge(A: T.Tensor((40, 64), "float16"), C: T.Tensor((64, 64), "float16")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=2, block=128))
    tid = T.cuda.thread_idx("x")
    bx = T.cuda.block_idx("x")
    As = T.alloc_shared((32, 64), "float16", align=128)
    bar = T.alloc_shared((1,), "uint64", layout="default")
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(bar.ptr_to([0]), 1)
    T.ptx.fence.proxy.async_.shared__cta()
    T.cuda.cta_sync()
    if tid == 0:
        T.ptx.mbarrier.arrive.expect_tx.shared.b64(bar.ptr_to([0]), 4096)
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes"], As, A, box=[32, 64], coords=[bx * 32, 0], mbar=bar.ptr_to([0]))
    T.cuda.mbarrier_wait(bar.ptr_to([0]), 0)
    for i in range(16):
        e = tid + 128 * i
        C[bx * 32 + e // 64, e % 64] = As[e // 64, e % 64]


import numpy as np
import tvm

a = ((np.arange(40 * 64) % 1000) - 500).astype("float16").reshape(40, 64)
compiled = tvm.tirx.compile(tma_oob_edge, target="cuda", pipeline="tirx")
c = tvm.runtime.tensor(np.full((64, 64), 7, dtype="float16"), tvm.cuda())
compiled(tvm.runtime.tensor(a, tvm.cuda()), c)
ref = np.zeros((64, 64), dtype="float16")
ref[:40] = a
np.testing.assert_array_equal(c.numpy(), ref)
