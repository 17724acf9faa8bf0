# One warpgroup, one wgmma statement with two M repeats (R = 2): C = A · Bᵀ for a 128 x 64 x 32 f16
# tile with f32 accumulators, both operands K-major with the 64-byte swizzle (rows of 32 f16 = 64
# bytes; ComposeLayout(3, 2, 3, ...): 8-element units, 2 bits, Swizzle<2,4,3> in bytes, 512-byte aligned).
# TMA loads A (128 x 32) and B (64 x 32) with swizzle=2; the descriptors are (LBO 16, SBO 512, 64B):
# 8-row groups are 512 bytes apart. The statement issues four wgmma m64n64k16 (k outer, two m
# repeats inner), the second k-step starting 32 bytes into the swizzle atom, the second m repeat
# 64 rows (4096 bytes) further. D rows 64r + 16w + g (+8) use the §8.4 map per repeat.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, wid_in_wg
from tvm.tirx.layout import S, TileLayout, ComposeLayout

SW64_A = ComposeLayout(3, 2, 3, TileLayout(S[128, 32]))
SW64_B = ComposeLayout(3, 2, 3, TileLayout(S[64, 32]))
# D (128, 64) f32: register 32r + 4j + 2h + e of thread 32w + 4g + t is (64r + 16w + g + 8h, 8j + 2t + e).
ACC = TileLayout(S[(2, 4, 2, 8, 8, 4, 2) : (32, 1 @ wid_in_wg, 2, 4 @ laneid, 4, 1 @ laneid, 1)])
ACC_PAIRS = TileLayout(S[(4, 32, 2, 16, 2) : (1 @ wid_in_wg, 1 @ laneid, 32, 2, 1)])
C_PAIRS = TileLayout(S[(4, 8, 4, 2, 8, 2, 2) : (1024, 64, 2, 4096, 8, 512, 1)])


@T.function
def wgmma_f16_sw64_m128(A: T.Tensor((128, 32), "float16"), B: T.Tensor((64, 32), "float16"), C: T.Tensor((128, 64), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
    tid = T.cuda.thread_idx("x")
    As = T.alloc_shared((128, 32), "float16", layout=SW64_A, align=1024)
    Bs = T.alloc_shared((64, 32), "float16", layout=SW64_B, align=1024)
    bar = T.alloc_shared((1,), "uint64", layout="default")
    acc = T.alloc_local((128, 64), "float32", layout=ACC)
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(bar.ptr_to([0]), 1)
    T.ptx.fence.proxy.async_.shared__cta()
    T.cuda.cta_sync()
    if tid == 0:
        T.ptx.mbarrier.arrive.expect_tx.shared.b64(bar.ptr_to([0]), 12288)
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"], As, A, box=[128, 32], coords=[0, 0], mbar=bar.ptr_to([0]), swizzle=2)
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"], Bs, B, box=[64, 32], coords=[0, 0], mbar=bar.ptr_to([0]), swizzle=2)
    T.cuda.mbarrier_wait(bar.ptr_to([0]), 0)
    T.ptx.wgmma.fence.sync.aligned()
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16"], acc, As, Bs, scope="warpgroup", a_descriptor=(16, 512, 2), b_descriptor=(16, 512, 2), scale_d=0)
    T.ptx.wgmma.commit_group.sync.aligned()
    T.ptx.wgmma.wait_group.sync.aligned(0)
    T.cuda.tile.apply(T.ptx["st.global.v2.b32"], C.view(4, 32, 2, 16, 2, layout=C_PAIRS), acc.view(4, 32, 2, 16, 2, layout=ACC_PAIRS), scope="warpgroup")


import torch
import tvm_tirx

torch.manual_seed(0)  # random small integers: exact products and sums, no periodic pattern
a = (torch.floor(torch.rand(128 * 32, device="cuda") * 7) - 3).to(torch.float16).reshape(128, 32)
b = (torch.floor(torch.rand(64 * 32, device="cuda") * 5) - 2).to(torch.float16).reshape(64, 32)
c = torch.zeros(128, 64, dtype=torch.float32, device="cuda")
tvm_tirx.compile(wgmma_f16_sw64_m128, target="cuda")(a, b, c)
ref = (a.float()[:, None, :] * b.float()[None, :, :]).sum(dim=2)
torch.testing.assert_close(c, ref, rtol=0, atol=0)
