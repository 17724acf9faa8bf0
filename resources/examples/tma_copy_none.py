# A TMA 2-D tile copy without swizzle (spec TC §5): each of two CTAs loads a 32 x 64 float16 box of
# A into a plain 128-byte-aligned shared tile, waits on an mbarrier for its 4096 bytes, copies the tile
# to C with plain element stores and stores it back to B with a TMA store (bulk group: commit, then
# wait_group 0). Both outputs must equal A. The runner encodes the tensor maps.
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout, ComposeLayout


@T.function
def tma_copy_none(A: T.Tensor((64, 64), "float16"), B: T.Tensor((64, 64), "float16"), C: T.Tensor((64, 64), "float16")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=2, block=128))
    tid = T.cuda.thread_idx("x")
    bx = T.cuda.block_idx("x")
    As = T.alloc_shared((32, 64), "float16", align=128)
    bar = T.alloc_shared((1,), "uint64", layout="default")
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(bar.ptr_to([0]), 1)
    T.ptx.fence.proxy.async_.shared__cta()
    T.cuda.cta_sync()
    # One elected thread announces the box's bytes and issues the load.
    if tid == 0:
        T.ptx.mbarrier.arrive.expect_tx.shared.b64(bar.ptr_to([0]), 4096)
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"], As, A, box=[32, 64], coords=[bx * 32, 0], mbar=bar.ptr_to([0]))
    T.cuda.mbarrier_wait(bar.ptr_to([0]), 0)
    for i in range(16):
        e = tid + 128 * i
        C[bx * 32 + e // 64, e % 64] = As[e // 64, e % 64]
    if tid == 0:
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"], B, As, box=[32, 64], coords=[bx * 32, 0])
        T.ptx.cp.async_.bulk.commit_group()
        T.ptx.cp.async_.bulk.wait_group(0)


import numpy as np
import tvm

a = ((np.arange(64 * 64) % 1000) - 500).astype("float16").reshape(64, 64)
compiled = tvm.tirx.compile(tma_copy_none, target="cuda", pipeline="tirx")
b = tvm.runtime.tensor(np.zeros((64, 64), dtype="float16"), tvm.cuda())
c = tvm.runtime.tensor(np.zeros((64, 64), dtype="float16"), tvm.cuda())
compiled(tvm.runtime.tensor(a, tvm.cuda()), b, c)
np.testing.assert_array_equal(b.numpy(), a)
np.testing.assert_array_equal(c.numpy(), a)
