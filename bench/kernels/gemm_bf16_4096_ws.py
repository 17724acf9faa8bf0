# The warp-specialised wgmma GEMM of resources/examples/gemm_wgmma_ws.py at 4096³ (bf16 in, f32
# accumulate, bf16 out), for bench_gpu_gemm / scripts/gemm-bench.sh: 3 warpgroups (one TMA producer,
# two wgmma m64n256k16 consumers), 128 × 256 × 64 tiles, 4 stages (192 KiB of shared memory), 132
# persistent CTAs walking the 32 × 16 output tiles in groups of 8 tile rows. The example's header
# explains every step.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, wid_in_wg
from tvm.tirx.layout import S, TileLayout, ComposeLayout

M = 4096
N = 4096
K = 4096
STAGES = 4
SMS = 132
GROUP = 8
# `tirx tune` (docs/tune.md): pipeline depth and tile-row grouping; 4 and 8 are the hand-chosen
# ones. STAGES = 5 needs 240 KiB of shared memory, more than an sm_90 block has: rejected by check.
TUNE = {"STAGES": [2, 3, 4, 5], "GROUP": [4, 8, 16]}
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
# Every 61st row of C (every tile row, warp and lane group among them) against the reference:
# the whole 4096³ product would take minutes in the check harness.
ref = a.float()[::61] @ b.float().T
torch.testing.assert_close(c.float()[::61], ref.to(torch.bfloat16).float(), rtol=0, atol=0)
