# One warp, one tensor-core instruction: C = A · Bᵀ with mma.sync m16n8k16 (bf16 in, f32 out).
# The fragments are per-lane register tiles whose layouts are the PTX fragment maps written as
# TileLayouts (spec TC §7.1, in 32-bit words: a uint32 view packs two bf16 per register). A and B
# go straight from global memory into the fragments with per-lane 32-bit loads; the accumulator
# starts at zero and is stored with 8-byte vector stores. Small integers keep the check exact.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid
from tvm.tirx.layout import S, TileLayout

# Fragments over the instruction's atoms: A (16 rows, 8 words), B (8 columns n, 8 words of k),
# C (16, 8) floats. Lane 4g + t holds A words (g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4).
A_FRAG = TileLayout(S[(2, 8, 2, 4) : (1, 4 @ laneid, 2, 1 @ laneid)])
B_FRAG = TileLayout(S[(8, 2, 4) : (4 @ laneid, 1, 1 @ laneid)])
C_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
# The same registers lane by lane, for the per-thread loads and stores: (lane, register, atom).
LANE_REGS = TileLayout(S[(32, 4, 1) : (1 @ laneid, 1, 1)])
LANE_B = TileLayout(S[(32, 2, 1) : (1 @ laneid, 1, 1)])
LANE_C = TileLayout(S[(32, 2, 2) : (1 @ laneid, 2, 1)])


@T.function
def mma_16x8x16(
    A: T.Tensor((16, 16), "bfloat16"),
    B: T.Tensor((8, 16), "bfloat16"),
    C: T.Tensor((16, 8), "float32"),
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    a = T.alloc_local((16, 8), "uint32", layout=A_FRAG)
    b = T.alloc_local((8, 8), "uint32", layout=B_FRAG)
    c = T.alloc_local((16, 8), "float32", layout=C_FRAG)
    # Register j of lane l: A word (l // 4 + 8 * (j % 2), l % 4 + 4 * (j // 2)).
    Aw = A.view("uint32").view(32, 4, 1, layout=TileLayout(S[(8, 4, 2, 2, 1) : (8, 1, 4, 64, 1)]))
    # Register j of lane l: B word (l // 4, l % 4 + 4 * j) of row n = l // 4.
    Bw = B.view("uint32").view(32, 2, 1, layout=TileLayout(S[(8, 4, 2, 1) : (8, 1, 4, 1)]))
    T.cuda.tile.apply(T.ptx["ld.global.b32"], a.view(32, 4, 1, layout=LANE_REGS), Aw, scope="warp")
    T.cuda.tile.apply(T.ptx["ld.global.b32"], b.view(32, 2, 1, layout=LANE_B), Bw, scope="warp")
    T.cuda.tile.apply(T.ptx["mov.b32"], c.view(32, 4, 1, layout=LANE_REGS), T.float32(0), scope="warp")
    T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"], c, a, b, c, scope="warp")
    # Registers 2h, 2h + 1 of lane l are C (l // 4 + 8h, 2 (l % 4)), (..., 2 (l % 4) + 1).
    Cv = C.view(32, 2, 2, layout=TileLayout(S[(8, 4, 2, 2) : (8, 2, 64, 1)]))
    T.cuda.tile.apply(T.ptx["st.global.v2.b32"], Cv, c.view(32, 2, 2, layout=LANE_C), scope="warp")


import torch
import tvm_tirx

torch.manual_seed(0)  # random small integers: exact products and sums, no periodic pattern
a = (torch.floor(torch.rand(256, device="cuda") * 7) - 3).to(torch.bfloat16).reshape(16, 16)
b = (torch.floor(torch.rand(128, device="cuda") * 5) - 2).to(torch.bfloat16).reshape(8, 16)
c = torch.zeros(16, 8, dtype=torch.float32, device="cuda")
tvm_tirx.compile(mma_16x8x16, target="cuda")(a, b, c)
ref = (a.float()[:, None, :] * b.float()[None, :, :]).sum(dim=2)
torch.testing.assert_close(c, ref, rtol=0, atol=0)
