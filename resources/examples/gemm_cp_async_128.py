# The cp.async-pipelined GEMM at the tile shape of the GPU benchmark: each CTA of 8 warps computes
# a 128 × 128 tile of C = A · Bᵀ (bf16 in, f32 out), walking K in steps of 64 through a STAGES-deep
# ring of 128-byte-swizzled shared tiles (16 KiB of A and 16 KiB of B per stage). Warp w owns rows
# 64 (w // 4) .. + 63 and columns 32 (w % 4) .. + 31 of the tile: per K step it loads 16 A and 8 B
# ldmatrix.x4 fragments and issues 64 mma.sync m16n8k16, (m, n, k) = (4, 4, 4) repeats, into 64
# f32 accumulators per thread. Every thread copies 4 × 16 bytes of A and of B per step with
# cp.async.cg, one commit group per step; the loop waits for the current step
# (wait_group(STAGES - 2)), synchronises the CTA, issues step kt + STAGES - 1 into the stage that
# every warp has just finished reading, and computes while it flies.
# The check uses 128 × 128 × 256 (one CTA; the ring wraps around);
# bench/kernels/gemm_bf16_4096_cp_async.py is this kernel at 4096³.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout, ComposeLayout

M = 128
N = 128
K = 256
STAGES = 3
SWIZZLED_STAGES = ComposeLayout(3, 3, 3, TileLayout(S[STAGES, 128, 64]))
# Fragments per warp: A (m 4, k 4) slot 16m + 4k + register; B (n 4, k 4) slot 8n + 2k + register;
# accumulators (m 4, n 4) slot 16m + 4n + 2 (row // 8) + col % 2.
A_FRAG = TileLayout(S[(8, 4, 4, 2, 8, 2, 4) : (1 @ warpid, 16, 4, 1, 4 @ laneid, 2, 1 @ laneid)])
B_FRAG = TileLayout(S[(8, 4, 4, 8, 2, 4) : (1 @ warpid, 8, 2, 4 @ laneid, 1, 1 @ laneid)])
ACC = TileLayout(S[(8, 4, 4, 2, 8, 4, 2) : (1 @ warpid, 16, 4, 2, 4 @ laneid, 1 @ laneid, 1)])
# Global tiles in 32-bit words as (tile row, K step, warp, lane, 4, 4): thread t copies row t // 2,
# words 16 (t % 2) .. + 15 of the step's 128 × 32-word tile.
A_TILES = TileLayout(S[(M // 128, K // 64, 8, 16, 2, 4, 4) : (64 * K, 32, 8 * K, K // 2, 16, 4, 1)])
B_TILES = TileLayout(S[(N // 128, K // 64, 8, 16, 2, 4, 4) : (64 * K, 32, 8 * K, K // 2, 16, 4, 1)])
# ldmatrix rows: (stage, warp, m, k, matrix, row, half) for A and (stage, warp, n, k pair, matrix,
# row, half) for B, the warp split into (warp // 4, warp % 4).
A_ROWS = ComposeLayout(3, 3, 3, TileLayout(S[(STAGES, 2, 4, 4, 4, 2, 2, 8, 8) : (8192, 4096, 0, 1024, 16, 8, 512, 64, 1)]))
B_ROWS = ComposeLayout(3, 3, 3, TileLayout(S[(STAGES, 2, 4, 4, 2, 4, 8, 8) : (8192, 0, 2048, 512, 32, 8, 64, 1)]))
# C as (tile row, tile column, warp, lane, pair, 2): pair p = 8m + 2n + h of lane l in warp w is
# row 64 (w // 4) + 16m + 8h + l // 4, column 32 (w % 4) + 8n + 2 (l % 4).
C_TILES = TileLayout(S[(M // 128, N // 128, 2, 4, 8, 4, 4, 4, 2, 2) : (128 * N, 128, 64 * N, 32, N, 2, 16 * N, 8, 8 * N, 1)])


@T.function
def gemm_bf16_128(
    A: T.Tensor((M, K), "bfloat16"),
    B: T.Tensor((N, K), "bfloat16"),
    C: T.Tensor((M, N), "float32"),
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=(N // 128, M // 128), block=256))
    bx = T.cuda.block_idx("x")
    by = T.cuda.block_idx("y")
    As = T.alloc_shared((STAGES, 128, 64), "bfloat16", layout=SWIZZLED_STAGES, align=1024)
    Bs = T.alloc_shared((STAGES, 128, 64), "bfloat16", layout=SWIZZLED_STAGES, align=1024)
    a = T.alloc_local((8, 4, 4, 16, 8), "uint32", layout=A_FRAG)
    b = T.alloc_local((8, 4, 4, 8, 8), "uint32", layout=B_FRAG)
    acc = T.alloc_local((8, 4, 4, 16, 8), "float32", layout=ACC)
    A_t = A.view("uint32").view(M // 128, K // 64, 8, 32, 4, 4, layout=A_TILES)
    B_t = B.view("uint32").view(N // 128, K // 64, 8, 32, 4, 4, layout=B_TILES)
    As_words = As.view("uint32").view(STAGES, 8, 32, 4, 4)
    Bs_words = Bs.view("uint32").view(STAGES, 8, 32, 4, 4)
    As_rows = As.view(STAGES, 8, 4, 4, 4, 8, 8, layout=A_ROWS)
    Bs_rows = Bs.view(STAGES, 8, 4, 2, 4, 8, 8, layout=B_ROWS)
    a_regs = a.view(8, 4, 4, 4, 8, 4, layout=TileLayout(S[(8, 4, 4, 4, 8, 4) : (1 @ warpid, 16, 4, 1, 4 @ laneid, 1 @ laneid)]))
    b_regs = b.view(8, 4, 2, 4, 8, 4, layout=TileLayout(S[(8, 4, 2, 4, 8, 4) : (1 @ warpid, 8, 4, 1, 4 @ laneid, 1 @ laneid)]))
    T.cuda.tile.apply(T.ptx["mov.b32"], acc.view(8, 32, 64, 1, layout=TileLayout(S[(8, 32, 64, 1) : (1 @ warpid, 1 @ laneid, 1, 1)])), T.float32(0), scope="cta")
    for s in range(STAGES - 1):
        T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], As_words.sub[s], A_t.sub[by, s], chunk_bytes=16, scope="cta")
        T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], Bs_words.sub[s], B_t.sub[bx, s], chunk_bytes=16, scope="cta")
        T.ptx.cp.async_.commit_group()
    for kt in range(K // 64):
        T.ptx.cp.async_.wait_group(STAGES - 2)
        T.cuda.cta_sync()
        nxt = kt + STAGES - 1
        if nxt < K // 64:
            T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], As_words.sub[nxt % STAGES], A_t.sub[by, nxt], chunk_bytes=16, scope="cta")
            T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], Bs_words.sub[nxt % STAGES], B_t.sub[bx, nxt], chunk_bytes=16, scope="cta")
        T.ptx.cp.async_.commit_group()
        T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x4.shared.b16"], a_regs, As_rows.sub[kt % STAGES], scope="cta")
        T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x4.shared.b16"], b_regs, Bs_rows.sub[kt % STAGES], scope="cta")
        T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"], acc, a, b, acc, scope="cta")
    acc_pairs = acc.view(8, 32, 32, 2, layout=TileLayout(S[(8, 32, 32, 2) : (1 @ warpid, 1 @ laneid, 2, 1)]))
    C_t = C.view(M // 128, N // 128, 8, 32, 32, 2, layout=C_TILES)
    T.cuda.tile.apply(T.ptx["st.global.v2.b32"], C_t.sub[by, bx], acc_pairs, scope="cta")


import torch
import tvm_tirx

torch.manual_seed(0)  # random small integers: exact products and sums, no periodic pattern
a = (torch.floor(torch.rand(M * K, device="cuda") * 7) - 3).to(torch.bfloat16).reshape(M, K)
b = (torch.floor(torch.rand(N * K, device="cuda") * 5) - 2).to(torch.bfloat16).reshape(N, K)
c = torch.zeros(M, N, dtype=torch.float32, device="cuda")
tvm_tirx.compile(gemm_bf16_128, target="cuda")(a, b, c)
ref = (a.float()[:, None, :] * b.float()[None, :, :]).sum(dim=2)
torch.testing.assert_close(c, ref, rtol=0, atol=0)
