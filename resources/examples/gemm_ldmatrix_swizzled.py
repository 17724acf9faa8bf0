# A one-CTA 64×64×64 GEMM on tensor cores: C = A · Bᵀ, bf16 in, f32 out, 4 warps.
#  1. Every thread copies 4 × 16 bytes of A and of B from global memory into shared tiles whose
#     layout is a 128-byte XOR swizzle (ComposeLayout(3, 3, 3, ...): chunk' = chunk ^ row % 8).
#  2. ldmatrix.x4 loads the fragments: warp w's A rows 16w..16w+15 (one x4 per k16 step), and all
#     of B (one x4 per 8 columns and two k16 steps). The swizzle makes the eight 16-byte rows of
#     each matrix hit eight different chunks: no bank conflicts (the simulator counts them).
#  3. mma.sync m16n8k16 over (n, k) = (8, 4) repeats per warp, accumulating in f32 registers.
#  4. Each lane stores its accumulators with 8-byte vector stores.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout, ComposeLayout

SWIZZLE_128B = ComposeLayout(3, 3, 3, TileLayout(S[64, 64]))
# Fragments (warp, [M], K | N, atom) in 32-bit words; slot = 4k + register for A, 8n + 2k + register
# for B, 4n + 2 (row // 8) + col % 2 for the accumulator.
A_FRAG = TileLayout(S[(4, 1, 4, 2, 8, 2, 4) : (1 @ warpid, 1, 4, 1, 4 @ laneid, 2, 1 @ laneid)])
B_FRAG = TileLayout(S[(4, 8, 4, 8, 2, 4) : (1 @ warpid, 8, 2, 4 @ laneid, 1, 1 @ laneid)])
ACC = TileLayout(S[(4, 1, 8, 2, 8, 4, 2) : (1 @ warpid, 1, 4, 2, 4 @ laneid, 1 @ laneid, 1)])


@T.function
def gemm_64(
    A: T.Tensor((64, 64), "bfloat16"),
    B: T.Tensor((64, 64), "bfloat16"),
    C: T.Tensor((64, 64), "float32"),
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
    As = T.alloc_shared((64, 64), "bfloat16", layout=SWIZZLE_128B, align=1024)
    Bs = T.alloc_shared((64, 64), "bfloat16", layout=SWIZZLE_128B, align=1024)
    stage = T.alloc_local((4, 32, 4, 4), "uint32", layout=TileLayout(S[(4, 32, 4, 4) : (1 @ warpid, 1 @ laneid, 4, 1)]))
    # 1. global -> registers -> shared: thread t copies 64 bytes, half of row t // 2.
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], stage, A.view("uint32").view(4, 32, 4, 4), scope="cta")
    T.cuda.tile.apply(T.ptx["st.shared.v4.b32"], As.view("uint32").view(4, 32, 4, 4), stage, scope="cta")
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], stage, B.view("uint32").view(4, 32, 4, 4), scope="cta")
    T.cuda.tile.apply(T.ptx["st.shared.v4.b32"], Bs.view("uint32").view(4, 32, 4, 4), stage, scope="cta")
    T.cuda.cta_sync()
    # 2. fragments. A: (warp, k, matrix, row, half) -> row 16w + 8 (matrix % 2) + row,
    #    column 16k + 8 (matrix // 2) + half.
    a = T.alloc_local((4, 1, 4, 16, 8), "uint32", layout=A_FRAG)
    b = T.alloc_local((4, 8, 4, 8, 8), "uint32", layout=B_FRAG)
    As_rows = As.view(4, 4, 4, 8, 8, layout=ComposeLayout(3, 3, 3, TileLayout(S[(4, 4, 2, 2, 8, 8) : (1024, 16, 8, 512, 64, 1)])))
    a_regs = a.view(4, 4, 4, 8, 4, layout=TileLayout(S[(4, 4, 4, 8, 4) : (1 @ warpid, 4, 1, 4 @ laneid, 1 @ laneid)]))
    T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x4.shared.b16"], a_regs, As_rows, scope="cta")
    # B: (warp, n, k pair, matrix, row, half) -> B row 8n + row, column 32p + 8 matrix + half;
    #    every warp reads all of B (a zero warp stride).
    Bs_rows = Bs.view(4, 8, 2, 4, 8, 8, layout=ComposeLayout(3, 3, 3, TileLayout(S[(4, 8, 2, 4, 8, 8) : (0, 512, 32, 8, 64, 1)])))
    b_regs = b.view(4, 8, 2, 4, 8, 4, layout=TileLayout(S[(4, 8, 2, 4, 8, 4) : (1 @ warpid, 8, 4, 1, 4 @ laneid, 1 @ laneid)]))
    T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x4.shared.b16"], b_regs, Bs_rows, scope="cta")
    # 3. 32 mma.sync per warp: (m, n, k) = (1, 8, 4), K innermost.
    acc = T.alloc_local((4, 1, 8, 16, 8), "float32", layout=ACC)
    T.cuda.tile.apply(T.ptx["mov.b32"], acc.view(4, 32, 32, 1, layout=TileLayout(S[(4, 32, 32, 1) : (1 @ warpid, 1 @ laneid, 1, 1)])), T.float32(0), scope="cta")
    T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"], acc, a, b, acc, scope="cta")
    # 4. registers 4n + 2h + q of lane l in warp w: C[16w + l // 4 + 8h, 8n + 2 (l % 4) + q].
    acc_pairs = acc.view(4, 32, 16, 2, layout=TileLayout(S[(4, 32, 16, 2) : (1 @ warpid, 1 @ laneid, 2, 1)]))
    C_pairs = C.view(4, 32, 16, 2, layout=TileLayout(S[(4, 8, 4, 8, 2, 2) : (1024, 64, 2, 8, 512, 1)]))
    T.cuda.tile.apply(T.ptx["st.global.v2.b32"], C_pairs, acc_pairs, scope="cta")


import torch
import tvm_tirx

torch.manual_seed(0)  # random small integers: exact products and sums, no periodic pattern
a = (torch.floor(torch.rand(4096, device="cuda") * 7) - 3).to(torch.bfloat16).reshape(64, 64)
b = (torch.floor(torch.rand(4096, device="cuda") * 5) - 2).to(torch.bfloat16).reshape(64, 64)
c = torch.zeros(64, 64, dtype=torch.float32, device="cuda")
tvm_tirx.compile(gemm_64, target="cuda")(a, b, c)
ref = (a.float()[:, None, :] * b.float()[None, :, :]).sum(dim=2)
torch.testing.assert_close(c, ref, rtol=0, atol=0)
