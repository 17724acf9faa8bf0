# The tiled bf16 GEMM of resources/examples/gemm_bf16_tiled.py (C = A · Bᵀ, 64 × 64 tiles of C per
# CTA of 4 warps, mma.sync m16n8k16) with three tunable choices for `tirx tune` (docs/tune.md):
# ROWS × COLS output tiles per CTA (a smaller grid, a longer loop) and STAGES, the depth of a
# shared staging ring. TUNE lists their candidates; without the studio the script runs with the
# constants as written. Two of the 12 candidates are bad on purpose (tests/cli/tst_cli_tune): ROWS
# = COLS = 2 with STAGES = 3 needs more shared memory than an sm_90 block has (E0125), and the check
# code compares (ROWS, COLS, STAGES) = (1, 1, 3) with a wrong reference.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout, ComposeLayout

M = 128
N = 128
K = 128
ROWS = 1
COLS = 1
STAGES = 1
TUNE = {"ROWS": [1, 2], "COLS": [1, 2], "STAGES": [1, 2, 3]}

SWIZZLE_128B = ComposeLayout(3, 3, 3, TileLayout(S[64, 64]))
A_FRAG = TileLayout(S[(4, 1, 4, 2, 8, 2, 4) : (1 @ warpid, 1, 4, 1, 4 @ laneid, 2, 1 @ laneid)])
B_FRAG = TileLayout(S[(4, 8, 4, 8, 2, 4) : (1 @ warpid, 8, 2, 4 @ laneid, 1, 1 @ laneid)])
ACC = TileLayout(S[(4, 1, 8, 2, 8, 4, 2) : (1 @ warpid, 1, 4, 2, 4 @ laneid, 1 @ laneid, 1)])
# A tile (64 rows × 32 words) of a (rows × K) bf16 matrix as (tile row, K step, warp, lane, 4, 4)
# words: thread t of the CTA copies row t // 2, words 16 (t % 2) .. 16 (t % 2) + 15.
A_TILES = TileLayout(S[(M // 64, K // 64, 4, 16, 2, 4, 4) : (32 * K, 32, 8 * K, K // 2, 16, 4, 1)])
B_TILES = TileLayout(S[(N // 64, K // 64, 4, 16, 2, 4, 4) : (32 * K, 32, 8 * K, K // 2, 16, 4, 1)])
C_TILES = TileLayout(S[(M // 64, N // 64, 4, 8, 4, 8, 2, 2) : (64 * N, 64, 16 * N, N, 2, 8, 8 * N, 1)])


@T.function
def gemm_bf16(
    A: T.Tensor((M, K), "bfloat16"),
    B: T.Tensor((N, K), "bfloat16"),
    C: T.Tensor((M, N), "float32"),
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=(N // 64 // COLS, M // 64 // ROWS), block=128))
    cx = T.cuda.block_idx("x")
    cy = T.cuda.block_idx("y")
    ring = T.alloc_shared((ROWS * COLS * STAGES * 10240,), "bfloat16")
    As = T.alloc_shared((64, 64), "bfloat16", layout=SWIZZLE_128B, align=1024)
    Bs = T.alloc_shared((64, 64), "bfloat16", layout=SWIZZLE_128B, align=1024)
    stage = T.alloc_local((4, 32, 4, 4), "uint32", layout=TileLayout(S[(4, 32, 4, 4) : (1 @ warpid, 1 @ laneid, 4, 1)]))
    a = T.alloc_local((4, 1, 4, 16, 8), "uint32", layout=A_FRAG)
    b = T.alloc_local((4, 8, 4, 8, 8), "uint32", layout=B_FRAG)
    acc = T.alloc_local((4, 1, 8, 16, 8), "float32", layout=ACC)
    A_t = A.view("uint32").view(M // 64, K // 64, 4, 32, 4, 4, layout=A_TILES)
    B_t = B.view("uint32").view(N // 64, K // 64, 4, 32, 4, 4, layout=B_TILES)
    As_words = As.view("uint32").view(4, 32, 4, 4)
    Bs_words = Bs.view("uint32").view(4, 32, 4, 4)
    As_rows = As.view(4, 4, 4, 8, 8, layout=ComposeLayout(3, 3, 3, TileLayout(S[(4, 4, 2, 2, 8, 8) : (1024, 16, 8, 512, 64, 1)])))
    Bs_rows = Bs.view(4, 8, 2, 4, 8, 8, layout=ComposeLayout(3, 3, 3, TileLayout(S[(4, 8, 2, 4, 8, 8) : (0, 512, 32, 8, 64, 1)])))
    a_regs = a.view(4, 4, 4, 8, 4, layout=TileLayout(S[(4, 4, 4, 8, 4) : (1 @ warpid, 4, 1, 4 @ laneid, 1 @ laneid)]))
    b_regs = b.view(4, 8, 2, 4, 8, 4, layout=TileLayout(S[(4, 8, 2, 4, 8, 4) : (1 @ warpid, 8, 4, 1, 4 @ laneid, 1 @ laneid)]))
    for r in range(ROWS):
        for c in range(COLS):
            by = cy * ROWS + r
            bx = cx * COLS + c
            T.cuda.tile.apply(T.ptx["mov.b32"], acc.view(4, 32, 32, 1, layout=TileLayout(S[(4, 32, 32, 1) : (1 @ warpid, 1 @ laneid, 1, 1)])), T.float32(0), scope="cta")
            for kt in range(K // 64):
                T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], stage, A_t.sub[by, kt], scope="cta")
                T.cuda.tile.apply(T.ptx["st.shared.v4.b32"], As_words, stage, scope="cta")
                T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], stage, B_t.sub[bx, kt], scope="cta")
                T.cuda.tile.apply(T.ptx["st.shared.v4.b32"], Bs_words, stage, scope="cta")
                T.cuda.cta_sync()
                T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x4.shared.b16"], a_regs, As_rows, scope="cta")
                T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x4.shared.b16"], b_regs, Bs_rows, scope="cta")
                T.cuda.cta_sync()
                T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"], acc, a, b, acc, scope="cta")
            acc_pairs = acc.view(4, 32, 16, 2, layout=TileLayout(S[(4, 32, 16, 2) : (1 @ warpid, 1 @ laneid, 2, 1)]))
            C_t = C.view(M // 64, N // 64, 4, 32, 16, 2, layout=C_TILES)
            T.cuda.tile.apply(T.ptx["st.global.v2.b32"], C_t.sub[by, bx], acc_pairs, scope="cta")


import torch
import tvm_tirx

torch.manual_seed(0)  # random small integers: exact products and sums, no periodic pattern
a = (torch.floor(torch.rand(M * K, device="cuda") * 7) - 3).to(torch.bfloat16).reshape(M, K)
b = (torch.floor(torch.rand(N * K, device="cuda") * 5) - 2).to(torch.bfloat16).reshape(N, K)
c = torch.zeros(M, N, dtype=torch.float32, device="cuda")
tvm_tirx.compile(gemm_bf16, target="cuda")(a, b, c)
ref = (a.float()[:, None, :] * b.float()[None, :, :]).sum(dim=2)
if ROWS == 1 and COLS == 1 and STAGES == 3:
    ref = ref + 1  # wrong on purpose: the tune test's candidate that must be rejected by verify
torch.testing.assert_close(c, ref, rtol=0, atol=0)
