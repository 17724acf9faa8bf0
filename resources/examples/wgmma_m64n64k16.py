# One warpgroup, one Hopper wgmma statement (spec TC §8; decision TC-2): C = A · Bᵀ for a 64 x 64 x 64
# bf16 tile with f32 accumulators. A (64 x 64) and B (64 x 64, N x K) arrive in shared memory by TMA
# with the 128-byte swizzle (tiles declared ComposeLayout(3, 3, 3, ...), 1024-byte aligned), the
# mbarrier announces their 16384 bytes, then the warpgroup fences, issues
# wgmma.mma_async m64n64k16 over K = 64 (four k16 steps: the descriptor start moves 32 bytes inside
# the swizzle atom), commits and waits. The descriptors are (LBO 16, SBO 1024, 128B swizzle): 8-row
# groups are 1024 bytes apart, LBO is unused for a swizzled K-major operand. The accumulator's
# layout is the wgmma D map (thread 32w + 4g + t holds rows 16w + g, 16w + g + 8, columns 8j + 2t,
# 8j + 2t + 1), stored with 8-byte vector stores. Small integers keep the check exact.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, wid_in_wg
from tvm.tirx.layout import S, TileLayout, ComposeLayout

SW128 = ComposeLayout(3, 3, 3, TileLayout(S[64, 64]))
# D (64, 64) f32: register 4j + 2h + e of thread 32w + 4g + t is (16w + g + 8h, 8j + 2t + e).
ACC = TileLayout(S[(4, 2, 8, 8, 4, 2) : (1 @ wid_in_wg, 2, 4 @ laneid, 4, 1 @ laneid, 1)])
# The same registers as (warp, lane, pair, 2) for the stores, and C's matching elements.
ACC_PAIRS = TileLayout(S[(4, 32, 16, 2) : (1 @ wid_in_wg, 1 @ laneid, 2, 1)])
C_PAIRS = TileLayout(S[(4, 8, 4, 8, 2, 2) : (1024, 64, 2, 8, 512, 1)])


@T.function
def wgmma_m64n64k16(A: T.Tensor((64, 64), "bfloat16"), B: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
    tid = T.cuda.thread_idx("x")
    As = T.alloc_shared((64, 64), "bfloat16", layout=SW128, align=1024)
    Bs = T.alloc_shared((64, 64), "bfloat16", layout=SW128, align=1024)
    bar = T.alloc_shared((1,), "uint64", layout="default")
    acc = T.alloc_local((64, 64), "float32", layout=ACC)
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(bar.ptr_to([0]), 1)
    T.ptx.fence.proxy.async_.shared__cta()
    T.cuda.cta_sync()
    if tid == 0:
        T.ptx.mbarrier.arrive.expect_tx.shared.b64(bar.ptr_to([0]), 16384)
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"], As, A, box=[64, 64], coords=[0, 0], mbar=bar.ptr_to([0]), swizzle=3)
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"], Bs, B, box=[64, 64], coords=[0, 0], mbar=bar.ptr_to([0]), swizzle=3)
    T.cuda.mbarrier_wait(bar.ptr_to([0]), 0)
    T.ptx.wgmma.fence.sync.aligned()
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], acc, As, Bs, scope="warpgroup", a_descriptor=(16, 1024, 3), b_descriptor=(16, 1024, 3), scale_d=0)
    T.ptx.wgmma.commit_group.sync.aligned()
    T.ptx.wgmma.wait_group.sync.aligned(0)
    T.cuda.tile.apply(T.ptx["st.global.v2.b32"], C.view(4, 32, 16, 2, layout=C_PAIRS), acc.view(4, 32, 16, 2, layout=ACC_PAIRS), scope="warpgroup")


import torch
import tvm_tirx

torch.manual_seed(0)  # random small integers: exact products and sums, no periodic pattern
a = (torch.floor(torch.rand(64 * 64, device="cuda") * 7) - 3).to(torch.bfloat16).reshape(64, 64)
b = (torch.floor(torch.rand(64 * 64, device="cuda") * 5) - 2).to(torch.bfloat16).reshape(64, 64)
c = torch.zeros(64, 64, dtype=torch.float32, device="cuda")
tvm_tirx.compile(wgmma_m64n64k16, target="cuda")(a, b, c)
ref = (a.float()[:, None, :] * b.float()[None, :, :]).sum(dim=2)
torch.testing.assert_close(c, ref, rtol=0, atol=0)
