# A 4-stage cp.async pipelined bf16 GEMM on tensor cores: C = A · Bᵀ (A is M × K, B is N × K, C is
# M × N, f32). Each CTA of 8 warps (2 along M × 4 along N) computes a 128 × 128 tile of C; each warp
# a 64 × 32 block with 4 × 4 mma.sync m16n8k16 per K step of 16. The K loop walks tiles of 64: A and
# B tiles (128 rows × 128 bytes) are copied global → shared with cp.async (16 bytes per thread and
# repeat, 8 lanes per 128-byte row) into three stages of 128-byte-swizzled shared tiles, two tiles
# ahead of the math: each iteration waits for its own stage (cp.async.wait_group 1), one CTA barrier
# makes every thread's copies visible and frees the stage read in the previous iteration, the copy
# of tile kt + 2 into that stage is issued and committed, then the warps load their fragments with
# ldmatrix.x4 and issue 16 mma.sync per K step.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout, ComposeLayout

M = 4096
N = 4096
K = 4096
STAGES = 4
SWIZZLE_128B = ComposeLayout(3, 3, 3, TileLayout(S[STAGES * 128, 64]))
# Fragments of one K step of 16 per warp: A 64 × 16 (4 m tiles), B 32 × 16 (4 n tiles of 8).
A_FRAG = TileLayout(S[(8, 4, 1, 2, 8, 2, 4) : (1 @ warpid, 4, 1, 1, 4 @ laneid, 2, 1 @ laneid)])
B_FRAG = TileLayout(S[(8, 4, 1, 8, 2, 4) : (1 @ warpid, 2, 1, 4 @ laneid, 1, 1 @ laneid)])
ACC = TileLayout(S[(8, 4, 4, 2, 8, 4, 2) : (1 @ warpid, 16, 4, 2, 4 @ laneid, 1 @ laneid, 1)])
# A tile (128 rows × 32 words) of a (rows × K) bf16 matrix as (tile row, K tile, warp, lane, 4, 4)
# words: lane l of warp w copies words 4 (l % 8) .. + 3 of rows 4 w + l // 8 + 32 j, j = 0..3.
A_TILES = TileLayout(S[(M // 128, K // 64, 8, 4, 8, 4, 4) : (64 * K, 32, 2 * K, K // 2, 4, 16 * K, 1)])
B_TILES = TileLayout(S[(N // 128, K // 64, 8, 4, 8, 4, 4) : (64 * K, 32, 2 * K, K // 2, 4, 16 * K, 1)])
# The same words in a stage of a shared tile (before the swizzle).
STAGE_WORDS = ComposeLayout(2, 3, 3, TileLayout(S[(STAGES, 8, 4, 8, 4, 4) : (4096, 128, 32, 4, 1024, 1)]))
# ldmatrix.x4 rows: (stage, K step, warp, m tile, matrix, row, element); matrix i = rows + 8 (i % 2),
# k + 8 (i // 2) for A; n + 8 (i // 2), k + 8 (i % 2) for B.
A_ROWS = ComposeLayout(3, 3, 3, TileLayout(S[(STAGES, 4, 2, 4, 4, 2, 2, 8, 8) : (8192, 16, 4096, 0, 1024, 8, 512, 64, 1)]))
B_ROWS = ComposeLayout(3, 3, 3, TileLayout(S[(STAGES, 4, 2, 4, 2, 2, 2, 8, 8) : (8192, 16, 0, 2048, 1024, 512, 8, 64, 1)]))
C_TILES = TileLayout(S[(M // 128, N // 128, 2, 4, 8, 4, 4, 4, 2, 2) : (128 * N, 128, 64 * N, 32, N, 2, 16 * N, 8, 8 * N, 1)])


@T.function
def gemm_bf16_pipelined(
    A: T.Tensor((M, K), "bfloat16"),
    B: T.Tensor((N, K), "bfloat16"),
    C: T.Tensor((M, N), "float32"),
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=(N // 128, M // 128), block=256))
    bx = T.cuda.block_idx("x")
    by = T.cuda.block_idx("y")
    As = T.alloc_shared((STAGES * 128, 64), "bfloat16", layout=SWIZZLE_128B, align=1024)
    Bs = T.alloc_shared((STAGES * 128, 64), "bfloat16", layout=SWIZZLE_128B, align=1024)
    a = T.alloc_local((8, 4, 1, 16, 8), "uint32", layout=A_FRAG)
    b = T.alloc_local((8, 4, 1, 8, 8), "uint32", layout=B_FRAG)
    acc = T.alloc_local((8, 4, 4, 16, 8), "float32", layout=ACC)
    A_t = A.view("uint32").view(M // 128, K // 64, 8, 32, 4, 4, layout=A_TILES)
    B_t = B.view("uint32").view(N // 128, K // 64, 8, 32, 4, 4, layout=B_TILES)
    As_words = As.view("uint32").view(STAGES, 8, 32, 4, 4, layout=STAGE_WORDS)
    Bs_words = Bs.view("uint32").view(STAGES, 8, 32, 4, 4, layout=STAGE_WORDS)
    As_rows = As.view(STAGES, 4, 8, 4, 4, 8, 8, layout=A_ROWS)
    Bs_rows = Bs.view(STAGES, 4, 8, 2, 4, 8, 8, layout=B_ROWS)
    a_regs = a.view(8, 4, 4, 8, 4, layout=TileLayout(S[(8, 4, 4, 8, 4) : (1 @ warpid, 4, 1, 4 @ laneid, 1 @ laneid)]))
    b_regs = b.view(8, 2, 4, 8, 4, layout=TileLayout(S[(8, 2, 4, 8, 4) : (1 @ warpid, 4, 1, 4 @ laneid, 1 @ laneid)]))
    T.cuda.tile.apply(T.ptx["mov.b32"], acc.view(8, 32, 64, 1, layout=TileLayout(S[(8, 32, 64, 1) : (1 @ warpid, 1 @ laneid, 1, 1)])), T.float32(0), scope="cta")
    for s in range(STAGES - 1):
        T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], As_words.sub[s], A_t.sub[by, s], chunk_bytes=16, scope="cta")
        T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], Bs_words.sub[s], B_t.sub[bx, s], chunk_bytes=16, scope="cta")
        T.ptx.cp.async_.commit_group()
    for kt in range(K // 64):
        T.ptx.cp.async_.wait_group(STAGES - 2)
        T.cuda.cta_sync()
        if kt + STAGES - 1 < K // 64:
            nxt = (kt + STAGES - 1) % STAGES
            T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], As_words.sub[nxt], A_t.sub[by, kt + STAGES - 1], chunk_bytes=16, scope="cta")
            T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], Bs_words.sub[nxt], B_t.sub[bx, kt + STAGES - 1], chunk_bytes=16, scope="cta")
        T.ptx.cp.async_.commit_group()
        cur = kt % STAGES
        for ks in range(4):
            T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x4.shared.b16"], a_regs, As_rows.sub[cur, ks], scope="cta")
            T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x4.shared.b16"], b_regs, Bs_rows.sub[cur, ks], scope="cta")
            T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"], acc, a, b, acc, scope="cta")
    acc_pairs = acc.view(8, 32, 32, 2, layout=TileLayout(S[(8, 32, 32, 2) : (1 @ warpid, 1 @ laneid, 2, 1)]))
    C_t = C.view(M // 128, N // 128, 8, 32, 32, 2, layout=C_TILES)
    T.cuda.tile.apply(T.ptx["st.global.v2.b32"], C_t.sub[by, bx], acc_pairs, scope="cta")


