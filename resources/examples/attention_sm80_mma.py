# Attention forward in the FlashAttention-2 style for Ampere (sm_80, mma.sync; bf16, head dim 64,
# non-causal): O = softmax(Q Kᵀ / √64) V for BH heads of SEQ tokens stored (BH · SEQ, 64) row-major.
# One CTA of 4 warps takes 64 query rows of one head, 16 rows a warp, and walks the head's keys in
# blocks of 64:
#   Q          copied once to a 128-byte-swizzled shared tile and loaded with ldmatrix.x4 into the
#              A fragments of mma.sync m16n8k16 (4 k16 steps), kept in registers for every block;
#   K, V       each block copied global → registers → swizzled shared (16 bytes a thread and copy);
#   S = Q Kᵀ   mma.sync m16n8k16 (8 n × 4 k per warp) with K's B fragments from ldmatrix.x4,
#              exactly the GEMM of gemm_ldmatrix_swizzled.py;
#   softmax    online, in registers (decisions VIEW-1, ROW-1): register 4 n + 2 h + c of lane 4 g + t
#              holds row g + 8 h, column 8 n + 2 t + c — the layout of the wgmma accumulator — so
#              the row maximum is the thread's 16 values then two quad shuffles, P = ex2.approx(S ·
#              log2(e)/8 − m), and O and the row sum are rescaled by ex2(m_old − m_new);
#   P → bf16   cvt.rn.bf16x2.f32 of the accumulator's pair 2 n + h is register 4 k + 2 b + h of
#              the A fragment of k step k = n / 2 (b = n % 2): P feeds the next mma.sync from the
#              registers it is in (FA2's trick, no shared-memory round trip);
#   O += P V   mma.sync with V's B fragments from ldmatrix.x4.trans: matrix (n, p, m) of a warp's
#              loads covers keys 32 p + 8 m … + 7 and columns 8 n … + 7 of the V tile, and the
#              transpose hands lane 4 g + t the key pair 2 t, 2 t + 1 of column g — the B fragment.
# The epilogue divides by the quad's row sum and stores bf16 pairs from the registers.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout, ComposeLayout

BH = 2
SEQ = 256
D = 64
NKV = SEQ // 64
SCALE_LOG2 = 0.18033688011112042  # log2(e) / sqrt(64)
SW = ComposeLayout(3, 3, 3, TileLayout(S[64, 64]))
# A 64-row block of a (BH · SEQ, 64) bf16 tensor as uint32 words, for the staged copy: thread
# (w, l) moves words 512 w + 16 l … + 15 (half of row 16 w + l / 2) as four v4 copies.
BLOCKS = TileLayout(S[(BH * SEQ // 64, 4, 32, 4, 4) : (64 * 32, 16 * 32, 16, 4, 1)])
STAGE = TileLayout(S[(4, 32, 4, 4) : (1 @ warpid, 1 @ laneid, 4, 1)])
# Fragments in 32-bit words (gemm_ldmatrix_swizzled.py): A register 4 k + 2 b + h is row 8 h + g,
# word 4 b + t of k step k; B register 8 n + 2 k + j is row (key or column) 8 n + g, word 8 k + 4 j + t;
# the accumulator's register 4 n + 2 h + c is row 8 h + g, column 8 n + 2 t + c.
A_FRAG = TileLayout(S[(4, 1, 4, 2, 8, 2, 4) : (1 @ warpid, 1, 4, 1, 4 @ laneid, 2, 1 @ laneid)])
B_FRAG = TileLayout(S[(4, 8, 4, 8, 2, 4) : (1 @ warpid, 8, 2, 4 @ laneid, 1, 1 @ laneid)])
ACC = TileLayout(S[(4, 1, 8, 2, 8, 4, 2) : (1 @ warpid, 1, 4, 2, 4 @ laneid, 1 @ laneid, 1)])
ACC_REGS = TileLayout(S[(4, 32, 32, 1) : (1 @ warpid, 1 @ laneid, 1, 1)])
ACC_PAIRS = TileLayout(S[(4, 32, 16, 2) : (1 @ warpid, 1 @ laneid, 2, 1)])
WORDS = TileLayout(S[(4, 32, 16, 1) : (1 @ warpid, 1 @ laneid, 1, 1)])
MINE = TileLayout(S[32])
# ldmatrix row addresses (element offsets in a swizzled 64 × 64 tile; (warp, …, matrix, row, 8)):
# Q rows 16 w + 8 (m % 2) + r, columns 16 k + 8 (m / 2); K rows 8 n + r, columns 32 p + 8 m (every
# warp reads all of K); V (transposed) rows 32 p + 8 m + r, columns 8 n.
Q_ROWS = ComposeLayout(3, 3, 3, TileLayout(S[(4, 4, 2, 2, 8, 8) : (1024, 16, 8, 512, 64, 1)]))
K_ROWS = ComposeLayout(3, 3, 3, TileLayout(S[(4, 8, 2, 4, 8, 8) : (0, 512, 32, 8, 64, 1)]))
V_ROWS = ComposeLayout(3, 3, 3, TileLayout(S[(4, 8, 2, 4, 8, 8) : (0, 8, 2048, 512, 64, 1)]))
A_REGS = TileLayout(S[(4, 4, 4, 8, 4) : (1 @ warpid, 4, 1, 4 @ laneid, 1 @ laneid)])
B_REGS = TileLayout(S[(4, 8, 2, 4, 8, 4) : (1 @ warpid, 8, 4, 1, 4 @ laneid, 1 @ laneid)])
# O as uint32 words (BH · SEQ, 32), tiled by 64 rows: word (16 w + g + 8 h, 4 n + t) of a tile.
O_TILES = TileLayout(S[(BH * SEQ // 64, 4, 8, 4, 8, 2, 1) : (64 * 32, 16 * 32, 32, 1, 4, 8 * 32, 1)])


@T.function
def attention_sm80_mma(Q: T.Tensor((BH * SEQ, D), "bfloat16"), K: T.Tensor((BH * SEQ, D), "bfloat16"), V: T.Tensor((BH * SEQ, D), "bfloat16"), O: T.Tensor((BH * SEQ, D), "bfloat16")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=(SEQ // 64, BH), block=128))
    qt = T.cuda.block_idx("x")
    bh = T.cuda.block_idx("y")
    Qs = T.alloc_shared((64, 64), "bfloat16", layout=SW, align=1024)
    Ks = T.alloc_shared((64, 64), "bfloat16", layout=SW, align=1024)
    Vs = T.alloc_shared((64, 64), "bfloat16", layout=SW, align=1024)
    stage = T.alloc_local((4, 32, 4, 4), "uint32", layout=STAGE)
    qa = T.alloc_local((4, 1, 4, 16, 8), "uint32", layout=A_FRAG)
    kb = T.alloc_local((4, 8, 4, 8, 8), "uint32", layout=B_FRAG)
    vb = T.alloc_local((4, 8, 4, 8, 8), "uint32", layout=B_FRAG)
    s_acc = T.alloc_local((4, 1, 8, 16, 8), "float32", layout=ACC)
    o_acc = T.alloc_local((4, 1, 8, 16, 8), "float32", layout=ACC)
    pa = T.alloc_local((4, 1, 4, 16, 8), "uint32", layout=A_FRAG)
    o_words = T.alloc_local((4, 32, 16, 1), "uint32", layout=WORDS)
    sv = s_acc.view(32, layout=MINE)
    ov = o_acc.view(32, layout=MINE)
    Q_b = Q.view("uint32").view(BH * SEQ // 64, 4, 32, 4, 4, layout=BLOCKS)
    K_b = K.view("uint32").view(BH * SEQ // 64, 4, 32, 4, 4, layout=BLOCKS)
    V_b = V.view("uint32").view(BH * SEQ // 64, 4, 32, 4, 4, layout=BLOCKS)
    O_t = O.view("uint32").view(BH * SEQ // 64, 4, 32, 16, 1, layout=O_TILES)
    # Q: global → shared → A fragments, once.
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], stage, Q_b.sub[bh * NKV + qt], scope="cta")
    T.cuda.tile.apply(T.ptx["st.shared.v4.b32"], Qs.view("uint32").view(4, 32, 4, 4), stage, scope="cta")
    T.cuda.cta_sync()
    T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x4.shared.b16"], qa.view(4, 4, 4, 8, 4, layout=A_REGS), Qs.view(4, 4, 4, 8, 8, layout=Q_ROWS), scope="cta")
    T.cuda.tile.apply(T.ptx["mov.b32"], o_acc.view(4, 32, 32, 1, layout=ACC_REGS), T.float32(0), scope="cta")
    m0 = T.float32(-1.0e30)
    m1 = T.float32(-1.0e30)
    l0 = T.float32(0)
    l1 = T.float32(0)
    for j in range(NKV):
        # K and V block j: global → registers → shared (the loop's last cta_sync freed them).
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], stage, K_b.sub[bh * NKV + j], scope="cta")
        T.cuda.tile.apply(T.ptx["st.shared.v4.b32"], Ks.view("uint32").view(4, 32, 4, 4), stage, scope="cta")
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], stage, V_b.sub[bh * NKV + j], scope="cta")
        T.cuda.tile.apply(T.ptx["st.shared.v4.b32"], Vs.view("uint32").view(4, 32, 4, 4), stage, scope="cta")
        T.cuda.cta_sync()
        T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x4.shared.b16"], kb.view(4, 8, 2, 4, 8, 4, layout=B_REGS), Ks.view(4, 8, 2, 4, 8, 8, layout=K_ROWS), scope="cta")
        T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"], vb.view(4, 8, 2, 4, 8, 4, layout=B_REGS), Vs.view(4, 8, 2, 4, 8, 8, layout=V_ROWS), scope="cta")
        T.cuda.cta_sync()
        # S = Q Kᵀ
        T.cuda.tile.apply(T.ptx["mov.b32"], s_acc.view(4, 32, 32, 1, layout=ACC_REGS), T.float32(0), scope="cta")
        T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"], s_acc, qa, kb, s_acc, scope="cta")
        # Row maxima (raw scores; the scale is positive), then P = 2^(S·scale − m·scale).
        n0 = m0
        n1 = m1
        for i in range(8):
            n0 = T.max(n0, T.max(sv[4 * i], sv[4 * i + 1]))
            n1 = T.max(n1, T.max(sv[4 * i + 2], sv[4 * i + 3]))
        n0 = T.max(n0, T.cuda.__shfl_xor_sync(0xFFFFFFFF, n0, 1))
        n0 = T.max(n0, T.cuda.__shfl_xor_sync(0xFFFFFFFF, n0, 2))
        n1 = T.max(n1, T.cuda.__shfl_xor_sync(0xFFFFFFFF, n1, 1))
        n1 = T.max(n1, T.cuda.__shfl_xor_sync(0xFFFFFFFF, n1, 2))
        a0 = T.exp2((m0 - n0) * SCALE_LOG2)
        a1 = T.exp2((m1 - n1) * SCALE_LOG2)
        m0 = n0
        m1 = n1
        b0 = n0 * SCALE_LOG2
        b1 = n1 * SCALE_LOG2
        for i in range(8):
            sv[4 * i] = sv[4 * i] * SCALE_LOG2 - b0
            sv[4 * i + 1] = sv[4 * i + 1] * SCALE_LOG2 - b0
            sv[4 * i + 2] = sv[4 * i + 2] * SCALE_LOG2 - b1
            sv[4 * i + 3] = sv[4 * i + 3] * SCALE_LOG2 - b1
        T.cuda.tile.apply(T.ptx["ex2.approx.ftz.f32"], s_acc.view(4, 32, 32, 1, layout=ACC_REGS), s_acc.view(4, 32, 32, 1, layout=ACC_REGS), scope="cta")
        l0 = l0 * a0
        l1 = l1 * a1
        for i in range(8):
            l0 = l0 + sv[4 * i] + sv[4 * i + 1]
            l1 = l1 + sv[4 * i + 2] + sv[4 * i + 3]
            ov[4 * i] = ov[4 * i] * a0
            ov[4 * i + 1] = ov[4 * i + 1] * a0
            ov[4 * i + 2] = ov[4 * i + 2] * a1
            ov[4 * i + 3] = ov[4 * i + 3] * a1
        # P → bf16 A fragments, O += P V.
        pairs = s_acc.view(4, 32, 16, 2, layout=ACC_PAIRS)
        T.cuda.tile.apply(T.ptx["cvt.rn.bf16x2.f32"], pa.view(4, 32, 16, 1, layout=WORDS), pairs[:, :, :, 1:2], pairs[:, :, :, 0:1], scope="cta")
        T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"], o_acc, pa, vb, o_acc, scope="cta")
    # The row sums of the quad, then O / l in bf16 pairs.
    l0 = l0 + T.cuda.__shfl_xor_sync(0xFFFFFFFF, l0, 1)
    l0 = l0 + T.cuda.__shfl_xor_sync(0xFFFFFFFF, l0, 2)
    l1 = l1 + T.cuda.__shfl_xor_sync(0xFFFFFFFF, l1, 1)
    l1 = l1 + T.cuda.__shfl_xor_sync(0xFFFFFFFF, l1, 2)
    for i in range(8):
        ov[4 * i] = ov[4 * i] / l0
        ov[4 * i + 1] = ov[4 * i + 1] / l0
        ov[4 * i + 2] = ov[4 * i + 2] / l1
        ov[4 * i + 3] = ov[4 * i + 3] / l1
    opairs = o_acc.view(4, 32, 16, 2, layout=ACC_PAIRS)
    T.cuda.tile.apply(T.ptx["cvt.rn.bf16x2.f32"], o_words, opairs[:, :, :, 1:2], opairs[:, :, :, 0:1], scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.b32"], O_t.sub[bh * NKV + qt], o_words, scope="cta")


import torch
import tvm_tirx

torch.manual_seed(0)
q = torch.randn(BH, SEQ, D, dtype=torch.bfloat16, device="cuda")
k = torch.randn(BH, SEQ, D, dtype=torch.bfloat16, device="cuda")
v = torch.randn(BH, SEQ, D, dtype=torch.bfloat16, device="cuda")
o = torch.zeros(BH * SEQ, D, dtype=torch.bfloat16, device="cuda")
tvm_tirx.compile(attention_sm80_mma, target="cuda")(q.reshape(BH * SEQ, D), k.reshape(BH * SEQ, D), v.reshape(BH * SEQ, D), o)
ref = torch.nn.functional.scaled_dot_product_attention(q, k, v)
# P is rounded to bf16 before P V and the exponentials are ex2.approx: bf16-level agreement.
torch.testing.assert_close(o.reshape(BH, SEQ, D).float(), ref.float(), rtol=2e-2, atol=2e-2)
