# A Hopper warp-specialised bf16 GEMM (spec TC §8, §13.2; decision TC-2): C = A · Bᵀ with A (M × K),
# B (N × K) and C (M × N) in bf16, f32 accumulation. Each CTA has 3 warpgroups. Warpgroup 0 is the
# producer: it gives registers back (setmaxnreg.dec 40) and one thread issues, per K step of 64, the
# TMA loads of a 128 × 64 A tile and a 256 × 64 B tile into one of STAGES 128-byte-swizzled shared
# stages, announcing 48 KiB on full[s] and first waiting for empty[s] (its parity starts at 1, so a
# fresh ring passes). Warpgroups 1 and 2 are the consumers (setmaxnreg.inc 232): each computes 64 rows
# of the 128 × 256 output tile with one wgmma statement per stage — m64n256k16 over K = 64, four
# k16 steps whose descriptors move 32 bytes inside the swizzle atom (LBO 16, SBO 1024, 128B) —
# keeps one wgmma group in flight (wait_group 1) and releases the previous stage with one arrival
# per consumer warp (empty[s] counts 8). The CTAs are persistent: CTA b takes output tiles b,
# b + SMS, ... in a grouped raster order (GROUP tile rows side by side share B tiles in L2), and the
# stage/phase counters run on across tiles. The epilogue packs the accumulator pairs with
# cvt.rn.bf16x2.f32 and stores one word per pair straight from the registers. This small size runs
# in CI on the simulator (4 output tiles over 3 CTAs: one CTA takes two and carries its phases);
# bench/kernels/gemm_bf16_{4096,8192}_ws.py are the same kernel at benchmark sizes.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, wid_in_wg
from tvm.tirx.layout import S, TileLayout, ComposeLayout

M = 256
N = 512
K = 256
STAGES = 4
SMS = 3
GROUP = 2
TILES_M = M // 128
TILES_N = N // 256
SW_A = ComposeLayout(3, 3, 3, TileLayout(S[STAGES * 128, 64]))
SW_B = ComposeLayout(3, 3, 3, TileLayout(S[STAGES * 256, 64]))
# The accumulator of one consumer warpgroup, 64 × 256 f32 (spec TC §8.4): warp w, lane (g, t),
# register 4·j + 2·h + c holds (16 w + g + 8 h, 8 j + 2 t + c).
ACC = TileLayout(S[(4, 2, 8, 32, 4, 2) : (1 @ wid_in_wg, 2, 4 @ laneid, 4, 1 @ laneid, 1)])
# The same registers as (warp, lane, pair p = 2 j + h, element e), the bf16 pairs packed into one
# word each, and the words of C they go to: C as uint32 words (M, N / 2), tiled (64-row half tile,
# 256-column tile, warp, lane = 4 g + t, pair, 1) — word (16 w + g + 8 h, 4 j + t) of the tile.
ACC_PAIRS = TileLayout(S[(4, 32, 64, 2) : (1 @ wid_in_wg, 1 @ laneid, 2, 1)])
WORDS = TileLayout(S[(4, 32, 64, 1) : (1 @ wid_in_wg, 1 @ laneid, 1, 1)])
NW = N // 2
C_TILES = TileLayout(S[(M // 64, TILES_N, 4, 8, 4, 32, 2, 1) : (64 * NW, 128, 16 * NW, NW, 1, 4, 8 * NW, 1)])


@T.function
def gemm_ws(A: T.Tensor((M, K), "bfloat16"), B: T.Tensor((N, K), "bfloat16"), C: T.Tensor((M, N), "bfloat16")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=SMS, block=384))
    tid = T.cuda.thread_idx("x")
    bx = T.cuda.block_idx("x")
    wg = tid // 128
    As = T.alloc_shared((STAGES * 128, 64), "bfloat16", layout=SW_A, align=1024)
    Bs = T.alloc_shared((STAGES * 256, 64), "bfloat16", layout=SW_B, align=1024)
    full = T.alloc_shared((STAGES,), "uint64", layout="default")
    empty = T.alloc_shared((STAGES,), "uint64", layout="default")
    acc = T.alloc_local((64, 256), "float32", layout=ACC)
    words = T.alloc_local((4, 32, 64, 1), "uint32", layout=WORDS)
    pairs = acc.view(4, 32, 64, 2, layout=ACC_PAIRS)
    C_t = C.view("uint32").view(M // 64, TILES_N, 4, 32, 64, 1, layout=C_TILES)
    if tid == 0:
        for s in range(STAGES):
            T.ptx.mbarrier.init.shared.b64(full.ptr_to([s]), 1)
            T.ptx.mbarrier.init.shared.b64(empty.ptr_to([s]), 8)
    T.ptx.fence.mbarrier_init.release.cluster()
    T.cuda.cta_sync()
    if wg == 0:
        T.ptx.setmaxnreg(False, 40)
        if tid == 0:
            it = 0
            for t in range(bx, TILES_M * TILES_N, SMS):
                tm = t // (GROUP * TILES_N) * GROUP + t % GROUP
                tn = t % (GROUP * TILES_N) // GROUP
                for kt in range(K // 64):
                    s = it % STAGES
                    T.cuda.mbarrier_wait(empty.ptr_to([s]), 1 - it // STAGES % 2)
                    T.ptx.mbarrier.arrive.expect_tx.shared.b64(full.ptr_to([s]), 49152)
                    T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"], As[s * 128 : s * 128 + 128, :], A, box=[128, 64], coords=[tm * 128, kt * 64], mbar=full.ptr_to([s]), swizzle=3)
                    T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"], Bs[s * 256 : s * 256 + 256, :], B, box=[256, 64], coords=[tn * 256, kt * 64], mbar=full.ptr_to([s]), swizzle=3)
                    it = it + 1
    else:
        T.ptx.setmaxnreg(True, 232)
        half = wg - 1
        it = 0
        for t in range(bx, TILES_M * TILES_N, SMS):
            tm = t // (GROUP * TILES_N) * GROUP + t % GROUP
            tn = t % (GROUP * TILES_N) // GROUP
            for kt in range(K // 64):
                s = it % STAGES
                T.cuda.mbarrier_wait(full.ptr_to([s]), it // STAGES % 2)
                T.ptx.wgmma.fence.sync.aligned()
                T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16"], acc, As[s * 128 + half * 64 : s * 128 + half * 64 + 64, :], Bs[s * 256 : s * 256 + 256, :], scope="warpgroup", a_descriptor=(16, 1024, 3), b_descriptor=(16, 1024, 3), scale_d=T.min(kt, 1))
                T.ptx.wgmma.commit_group.sync.aligned()
                T.ptx.wgmma.wait_group.sync.aligned(1)
                if kt > 0 and tid % 32 == 0:
                    T.ptx.mbarrier.arrive.shared.b64(empty.ptr_to([(it + STAGES - 1) % STAGES]))
                it = it + 1
            T.ptx.wgmma.wait_group.sync.aligned(0)
            if tid % 32 == 0:
                T.ptx.mbarrier.arrive.shared.b64(empty.ptr_to([(it + STAGES - 1) % STAGES]))
            T.cuda.tile.apply(T.ptx["cvt.rn.bf16x2.f32"], words, pairs[:, :, :, 1:2], pairs[:, :, :, 0:1], scope="warpgroup")
            T.cuda.tile.apply(T.ptx["st.global.b32"], C_t.sub[tm * 2 + half, tn], words, scope="warpgroup")


import torch
import tvm_tirx

torch.manual_seed(0)  # random small integers: exact products and sums, no periodic pattern
a = (torch.floor(torch.rand(M * K, device="cuda") * 7) - 3).to(torch.bfloat16).reshape(M, K)
b = (torch.floor(torch.rand(N * K, device="cuda") * 5) - 2).to(torch.bfloat16).reshape(N, K)
c = torch.zeros(M, N, dtype=torch.bfloat16, device="cuda")
tvm_tirx.compile(gemm_ws, target="cuda")(a, b, c)
ref = (a.float()[:, None, :] * b.float()[None, :, :]).sum(dim=2)
torch.testing.assert_close(c.float(), ref.to(torch.bfloat16).float(), rtol=0, atol=0)
