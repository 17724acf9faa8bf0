# The rs form of wgmma at the widest shape (spec TC §8.4; decision TC-2): C = A · Bᵀ for 64 x 256 x
# 64 bf16 with f32 accumulators, A in registers and B in shared memory. Each thread loads its A
# registers straight from global memory (the §8.4 A map: thread 32w + 4g + t holds, in register i
# of k-step s, the words (16w + g + 8 (i % 2), 8s + t + 4 (i // 2)) of A viewed as uint32 pairs); B
# (256 x 64) arrives by TMA with the 128-byte swizzle. One wgmma statement issues four
# m64n256k16 (one per k16 step), 128 accumulator registers per thread, stored as 8-byte pairs.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, wid_in_wg
from tvm.tirx.layout import S, TileLayout, ComposeLayout

# A words (64, 32): register 4 s + 2 (i // 2) + (i % 2) ... i.e. slot 4 s + i of the k-step s.
A_WORDS = TileLayout(S[(4, 2, 8, 4, 2, 4) : (1 @ wid_in_wg, 1, 4 @ laneid, 4, 2, 1 @ laneid)])
A_REGS = TileLayout(S[(4, 32, 16, 1) : (1 @ wid_in_wg, 1 @ laneid, 1, 1)])
A_GLOBAL = TileLayout(S[(4, 8, 4, 4, 2, 2, 1) : (512, 32, 1, 8, 4, 256, 1)])
ACC = TileLayout(S[(4, 2, 8, 32, 4, 2) : (1 @ wid_in_wg, 2, 4 @ laneid, 4, 1 @ laneid, 1)])
ACC_PAIRS = TileLayout(S[(4, 32, 64, 2) : (1 @ wid_in_wg, 1 @ laneid, 2, 1)])
C_PAIRS = TileLayout(S[(4, 8, 4, 32, 2, 2) : (4096, 256, 2, 8, 2048, 1)])


@T.function
def wgmma_rs_n256(A: T.Tensor((64, 64), "bfloat16"), B: T.Tensor((256, 64), "bfloat16"), C: T.Tensor((64, 256), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
    tid = T.cuda.thread_idx("x")
    Bs = T.alloc_shared((256, 64), "bfloat16", layout=ComposeLayout(3, 3, 3, TileLayout(S[256, 64])), align=1024)
    bar = T.alloc_shared((1,), "uint64", layout="default")
    a = T.alloc_local((64, 32), "uint32", layout=A_WORDS)
    acc = T.alloc_local((64, 256), "float32", layout=ACC)
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(bar.ptr_to([0]), 1)
    T.ptx.fence.proxy.async_.shared__cta()
    T.cuda.cta_sync()
    if tid == 0:
        T.ptx.mbarrier.arrive.expect_tx.shared.b64(bar.ptr_to([0]), 32768)
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"], Bs, B, box=[256, 64], coords=[0, 0], mbar=bar.ptr_to([0]), swizzle=3)
    T.cuda.tile.apply(T.ptx["ld.global.b32"], a.view(4, 32, 16, 1, layout=A_REGS), A.view("uint32").view(4, 32, 16, 1, layout=A_GLOBAL), scope="warpgroup")
    T.cuda.mbarrier_wait(bar.ptr_to([0]), 0)
    T.ptx.wgmma.fence.sync.aligned()
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16"], acc, a, Bs, scope="warpgroup", b_descriptor=(16, 1024, 3), scale_d=0)
    T.ptx.wgmma.commit_group.sync.aligned()
    T.ptx.wgmma.wait_group.sync.aligned(0)
    T.cuda.tile.apply(T.ptx["st.global.v2.b32"], C.view(4, 32, 64, 2, layout=C_PAIRS), acc.view(4, 32, 64, 2, layout=ACC_PAIRS), scope="warpgroup")


import torch
import tvm_tirx

torch.manual_seed(0)  # random small integers: exact products and sums, no periodic pattern
a = (torch.floor(torch.rand(64 * 64, device="cuda") * 7) - 3).to(torch.bfloat16).reshape(64, 64)
b = (torch.floor(torch.rand(256 * 64, device="cuda") * 5) - 2).to(torch.bfloat16).reshape(256, 64)
c = torch.zeros(64, 256, dtype=torch.float32, device="cuda")
tvm_tirx.compile(wgmma_rs_n256, target="cuda")(a, b, c)
ref = (a.float()[:, None, :] * b.float()[None, :, :]).sum(dim=2)
torch.testing.assert_close(c, ref, rtol=0, atol=0)
