# One warpgroup, one wgmma statement with a transposed (MN-major) A: C = Aᵀ · Bᵀ for a 64 x 64 x 16
# bf16 tile with f32 accumulators. A is stored (K, M) = (16, 64): rows of 64 bf16 along M, 128 bytes,
# 128-byte swizzle, trans_a=1. B is stored (N, K) = (64, 16) K-major: rows of 16 bf16, 32 bytes, the
# 32-byte swizzle (ComposeLayout(3, 1, 3, ...)). TMA loads both with their swizzle modes; the
# descriptors are the ones sema derives from the two layouts (an MN-major swizzled operand's LBO
# steps between swizzle atoms along M, its SBO between 8-row groups of K).
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, wid_in_wg
from tvm.tirx.layout import S, TileLayout, ComposeLayout

SW128_A = ComposeLayout(3, 3, 3, TileLayout(S[16, 64]))
SW32_B = ComposeLayout(3, 1, 3, TileLayout(S[64, 16]))
ACC = TileLayout(S[(4, 2, 8, 8, 4, 2) : (1 @ wid_in_wg, 2, 4 @ laneid, 4, 1 @ laneid, 1)])
ACC_PAIRS = TileLayout(S[(4, 32, 16, 2) : (1 @ wid_in_wg, 1 @ laneid, 2, 1)])
C_PAIRS = TileLayout(S[(4, 8, 4, 8, 2, 2) : (1024, 64, 2, 8, 512, 1)])


@T.function
def wgmma_bf16_mn_major(A: T.Tensor((16, 64), "bfloat16"), B: T.Tensor((64, 16), "bfloat16"), C: T.Tensor((64, 64), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
    tid = T.cuda.thread_idx("x")
    As = T.alloc_shared((16, 64), "bfloat16", layout=SW128_A, align=1024)
    Bs = T.alloc_shared((64, 16), "bfloat16", layout=SW32_B, align=1024)
    bar = T.alloc_shared((1,), "uint64", layout="default")
    acc = T.alloc_local((64, 64), "float32", layout=ACC)
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(bar.ptr_to([0]), 1)
    T.ptx.fence.proxy.async_.shared__cta()
    T.cuda.cta_sync()
    if tid == 0:
        T.ptx.mbarrier.arrive.expect_tx.shared.b64(bar.ptr_to([0]), 4096)
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"], As, A, box=[16, 64], coords=[0, 0], mbar=bar.ptr_to([0]), swizzle=3)
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"], Bs, B, box=[64, 16], coords=[0, 0], mbar=bar.ptr_to([0]), swizzle=1)
    T.cuda.mbarrier_wait(bar.ptr_to([0]), 0)
    T.ptx.wgmma.fence.sync.aligned()
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], acc, As, Bs, scope="warpgroup", a_descriptor=(16, 1024, 3), b_descriptor=(16, 256, 1), scale_d=0, trans_a=1)
    T.ptx.wgmma.commit_group.sync.aligned()
    T.ptx.wgmma.wait_group.sync.aligned(0)
    T.cuda.tile.apply(T.ptx["st.global.v2.b32"], C.view(4, 32, 16, 2, layout=C_PAIRS), acc.view(4, 32, 16, 2, layout=ACC_PAIRS), scope="warpgroup")


import torch
import tvm_tirx

torch.manual_seed(0)  # random small integers: exact products and sums, no periodic pattern
a = (torch.floor(torch.rand(16 * 64, device="cuda") * 7) - 3).to(torch.bfloat16).reshape(16, 64)
b = (torch.floor(torch.rand(64 * 16, device="cuda") * 5) - 2).to(torch.bfloat16).reshape(64, 16)
c = torch.zeros(64, 64, dtype=torch.float32, device="cuda")
tvm_tirx.compile(wgmma_bf16_mn_major, target="cuda")(a, b, c)
ref = a.float().t() @ b.float().t()
torch.testing.assert_close(c, ref, rtol=0, atol=0)
