# Attention forward in the FlashAttention-3 style at the benchmark shape of issue 24 (Hopper, bf16,
# head dim 64, non-causal) with FA3's tile for head dim 64: 192 query rows a CTA, three consumer
# warpgroups of 64 rows each plus one TMA producer warpgroup (512 threads), 128-key K/V blocks.
# The d 64 benchmark kernel: on an H100 80GB HBM3 (2026-12-07 evening) 500.3 TFLOP/s, 106.9 % of
# cuDNN and 1.69x the flash backend of torch SDPA in the same call (docs/benchmarks.md), short of
# the 1.8x flash because the softmax's ex2 saturates the MUFU (the profile's heaviest
# line); POLY moves part of it to the FMA pipe (below). It is
# attention_fwd_bf16_d64.py's kernel (128 rows, two consumer warpgroups, 98.0 % of cuDNN and 1.53x
# flash in that call) with what the third consumer warpgroup needs, the tile FA3's tile-size table
# gives head dim 64 (one more m64 warpgroup per CTA: more tensor-core work per K/V byte and per CTA).
#   * Tile and stages: Q is 192 × 64 bf16 (24 KiB, one 64-column 128-byte-swizzled tile), a stage
#     16 KiB of K and 16 KiB of V, STAGES = 3 deep (decision ATT-1): 120 KiB of shared memory.
#     S = Q Kᵀ one m64n128k16 statement per consumer (four k16 steps), O one m64n64 accumulator,
#     P kept in registers as the A operand of the P V wgmma (RS); K and V on their own full and
#     empty barriers (the empty ones now count 12 consumer warps); intra-warpgroup overlap as in
#     the d 64 kernel (S_j and P_{j-1} V_{j-1} back to back, wait_group 1, softmax under P V).
#   * Registers: 4 warpgroups must fit 65536 a SM for one CTA: the producer drops to 32
#     (setmaxnreg.dec, as FA3 with three MMA warpgroups) and the consumers rise to 160
#     (3·128·160 + 128·32 = 65536). S 64 + P words 32 + O 32 = 128 live accumulator registers;
#     ptxas reports 128 at entry (65536 / 512 threads), no spill stores or loads, at STAGES 2 … 6.
#   * Ping-pong → round-robin over three warpgroups (FA3's scheduler barriers): consumer w takes
#     its turn at named barrier 1 + w (bar.sync, 256 threads: w's 128 + its predecessor's 128) and,
#     once both GEMMs of the turn are issued, hands over with bar.arrive on 1 + (w + 1) % 3 (256);
#     warpgroup 2 makes the first arrival on barrier 1 so warpgroup 0 issues first. Each warpgroup
#     takes NKV + 1 turns; the last hand-over (2 → 0) is left over at exit (BAR-1).
#   * Tail tile: SEQ is not a multiple of 192 (4096 = 21 · 192 + 64; 1024 = 5 · 192 + 64), so the
#     grid is ceildiv(SEQ, 192) query tiles per head. The Q box of the last tile reads the next
#     head's first rows (or zeros from the TMA fill past the tensor's end, expect_tx still counting
#     the whole box): those rows are computed harmlessly and never stored. The epilogue stores O per
#     warpgroup (64-row tiles of st.global.b32), guarded by that warpgroup's tile lying inside the
#     head (qt · 3 + w < SEQ / 64, uniform across the warpgroup; SEQ is a multiple of 128 because
#     K/V blocks are 128 keys), so no row past SEQ is written into the next head.
#   * Exponentials off the MUFU (POLY). At head dim 64 a 192 × 128 block's 24,576 ex2.approx take
#     1,536 cycles of the SM's MUFU (16 a clock), as long as both of the block's GEMMs on the tensor
#     cores; on an H100 the ex2 tile op was the kernel's heaviest line (docs/benchmarks.md). So POLY
#     of each thread's 64 score registers (the last POLY: registers 64 − POLY … 63, both of its rows
#     alike) may get exp2 as a polynomial on the FMA and integer pipes, FlashAttention-4's technique:
#       x ← max(x, −127)                       (2^−127 is 0 in the result; masked −inf rows stay 0)
#       t ← x + 1.5·2^23, rounded toward −inf  (t's low mantissa bits are floor(x), exactly)
#       f ← x − (t − 1.5·2^23)                 (the fraction, in [0, 1), exact)
#       p ← 1 + f·(C1 + f·(C2 + f·C3))         (2^f within 8.6e-5 relative: bf16 P keeps 8 bits)
#       bits(result) ← bits(p) + bits(t)·2^23  (adds floor(x) to p's exponent; 0x4B400000·2^23
#                                                wraps to 0 in 32 bits, so only floor(x) lands there)
#     C1 … C3 are a minimax fit of 2^f on [0, 1) with p(0) = 1 (so integer x gives 2^x exactly).
#     Eight FMA/ALU-pipe operations an element against one quarter-rate MUFU one: both pipes should
#     finish together near POLY = 16 … 24 (the FMA pipe also carries the scale, sums, conversions).
#     POLY = 0, the default until a GPU has timed the others, is the kernel the figures above are
#     of: `if POLY == 0` is decided while the script is read (decision STATIC-IF-1), so the
#     polynomial branch is not compiled. `tirx tune` sweeps POLY with the ring depth;
#     resources/examples/exp2_poly.py checks the polynomial alone against numpy.
# The shape is module constants: tests/cli/tst_cli_attention_bench.cpp verifies this very file on the
# simulator with BATCH, HEADS and SEQ made small.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, wid_in_wg
from tvm.tirx.layout import S, TileLayout, ComposeLayout

BATCH = 4
HEADS = 32
SEQ = 4096
D = 64
STAGES = 3
POLY = 0  # score registers a thread (of 64) whose exp2 is the FMA-pipe polynomial: 0 or a multiple of 8
# `tirx tune` (docs/tune.md): the share of exponentials off the MUFU, and the K/V ring depth (32 KiB
# a stage beside 24 KiB of Q; 6 is 216 KiB).
TUNE = {"POLY": [0, 8, 16, 24, 32], "STAGES": [3, 4]}
NMUFU = 64 - POLY
MAGIC = 12582912.0  # 1.5 · 2^23
C1 = 0.69511652
C2 = 0.22764611
C3 = 0.07706602
BH = BATCH * HEADS
NKV = SEQ // 128
BM = 192  # query rows a CTA: three consumer warpgroups of 64
NQT = (SEQ + BM - 1) // BM  # query tiles a head; the last one may reach past SEQ
LAST = (NKV - 1) % STAGES  # the stage of the last K/V block
SCALE_LOG2 = 0.18033688011112042  # log2(e) / sqrt(64)
SW_Q = ComposeLayout(3, 3, 3, TileLayout(S[BM, 64]))
SW_KV = ComposeLayout(3, 3, 3, TileLayout(S[STAGES * 128, 64]))
# A consumer's 64 × 128 f32 score accumulator (spec TC §8.4): warp w, lane (g, t), register
# 4·j + 2·h + c holds (16 w + g + 8 h, 8 j + 2 t + c); the 64 × 64 O accumulator is the same with j < 8.
ACC_S = TileLayout(S[(4, 2, 8, 16, 4, 2) : (1 @ wid_in_wg, 2, 4 @ laneid, 4, 1 @ laneid, 1)])
ACC_O = TileLayout(S[(4, 2, 8, 8, 4, 2) : (1 @ wid_in_wg, 2, 4 @ laneid, 4, 1 @ laneid, 1)])
S_PAIRS = TileLayout(S[(4, 32, 32, 2) : (1 @ wid_in_wg, 1 @ laneid, 2, 1)])
S_REGS = TileLayout(S[(4, 32, 64, 1) : (1 @ wid_in_wg, 1 @ laneid, 1, 1)])
# Two scratch registers a polynomial element (t and f's partial products), per thread (the layout
# exists at POLY = 0 too, unused: a zero extent is no layout).
POLY_REGS = TileLayout(S[(4, 32, max(POLY, 8), 1) : (1 @ wid_in_wg, 1 @ laneid, 1, 1)])
O_PAIRS = TileLayout(S[(4, 32, 16, 2) : (1 @ wid_in_wg, 1 @ laneid, 2, 1)])
O_ALL = TileLayout(S[(4, 32, 32, 1) : (1 @ wid_in_wg, 1 @ laneid, 1, 1)])
# The registers of one thread, without thread axes (decision VIEW-1): index 4·j + 2·h + c.
MINE_S = TileLayout(S[64])
# The score registers of one thread's two rows (g and g + 8): registers 4·j + c and 4·j + 2 + c,
# so the softmax's S·scale − m·scale is one fma.rn.f32 tile op per row half.
S_ROW0 = TileLayout(S[(4, 32, 16, 2, 1) : (1 @ wid_in_wg, 1 @ laneid, 4, 1, 1)])
S_ROW1 = TileLayout(S[(4, 32, 16, 2, 1) : (1 @ wid_in_wg, 1 @ laneid, 4, 1, 1)] + 2)
MINE_O = TileLayout(S[32])
# P as the A operand of O += P V (64 × 128 bf16 = 64 × 64 words): register 4·s + i of k-step s is
# the accumulator's pair p = 2·j + h = 4·s + i.
P_WORDS = TileLayout(S[(4, 2, 8, 8, 2, 4) : (1 @ wid_in_wg, 1, 4 @ laneid, 4, 2, 1 @ laneid)])
P_REGS = TileLayout(S[(4, 32, 32, 1) : (1 @ wid_in_wg, 1 @ laneid, 1, 1)])
O_REGS = TileLayout(S[(4, 32, 16, 1) : (1 @ wid_in_wg, 1 @ laneid, 1, 1)])
# O as uint32 words (BH · SEQ, 32), tiled by 64 rows: word (16 w + g + 8 h, 4 j + t) of a tile.
O_TILES = TileLayout(S[(BH * SEQ // 64, 4, 8, 4, 8, 2, 1) : (64 * 32, 16 * 32, 32, 1, 4, 8 * 32, 1)])


@T.macro
def online_softmax(sv, st, s_row0, s_row1):
    # st holds (m_g, m_g+8, l_g, l_g+8, α_g, α_g+8): the running raw row maxima, this thread's part
    # of the row sums, and the factor exp2((m_old − m_new) · scale) that O and l are rescaled by.
    # Leaves x = S · scale − m · scale in sv; P = 2^x is exp2_split, after the macro.
    n0 = T.max(st[0], T.max(sv[0], sv[1]))
    n1 = T.max(st[1], T.max(sv[2], sv[3]))
    m0 = T.max(sv[4], sv[5])
    m1 = T.max(sv[6], sv[7])
    for i in range(1, 8):
        n0 = T.max(n0, T.max(sv[8 * i], sv[8 * i + 1]))
        n1 = T.max(n1, T.max(sv[8 * i + 2], sv[8 * i + 3]))
        m0 = T.max(m0, T.max(sv[8 * i + 4], sv[8 * i + 5]))
        m1 = T.max(m1, T.max(sv[8 * i + 6], sv[8 * i + 7]))
    n0 = T.max(n0, m0)
    n1 = T.max(n1, m1)
    n0 = T.max(n0, T.cuda.__shfl_xor_sync(0xFFFFFFFF, n0, 1))
    n0 = T.max(n0, T.cuda.__shfl_xor_sync(0xFFFFFFFF, n0, 2))
    n1 = T.max(n1, T.cuda.__shfl_xor_sync(0xFFFFFFFF, n1, 1))
    n1 = T.max(n1, T.cuda.__shfl_xor_sync(0xFFFFFFFF, n1, 2))
    st[4] = T.exp2((st[0] - n0) * SCALE_LOG2)
    st[5] = T.exp2((st[1] - n1) * SCALE_LOG2)
    st[0] = n0
    st[1] = n1
    b0 = T.float32(0) - n0 * SCALE_LOG2
    b1 = T.float32(0) - n1 * SCALE_LOG2
    T.cuda.tile.apply(T.ptx["fma.rn.f32"], s_row0, s_row0, T.float32(SCALE_LOG2), b0, scope="warpgroup")
    T.cuda.tile.apply(T.ptx["fma.rn.f32"], s_row1, s_row1, T.float32(SCALE_LOG2), b1, scope="warpgroup")


@T.macro
def exp2_split(s_regs):
    # P = 2^x for this block's scores: NMUFU registers on the MUFU, POLY on the FMA pipe (above).
    if POLY == 0:
        T.cuda.tile.apply(T.ptx["ex2.approx.ftz.f32"], s_regs, s_regs, scope="warpgroup")
    else:
        s_mufu = s_regs[:, :, 0:NMUFU, :]
        s_poly = s_regs[:, :, NMUFU:64, :]
        t = T.alloc_local((4, 32, POLY, 1), "float32", layout=POLY_REGS)
        u = T.alloc_local((4, 32, POLY, 1), "float32", layout=POLY_REGS)
        T.cuda.tile.apply(T.ptx["ex2.approx.ftz.f32"], s_mufu, s_mufu, scope="warpgroup")
        T.cuda.tile.apply(T.ptx["max.f32"], s_poly, s_poly, T.float32(-127.0), scope="warpgroup")
        T.cuda.tile.apply(T.ptx["add.rm.f32"], t, s_poly, T.float32(MAGIC), scope="warpgroup")
        T.cuda.tile.apply(T.ptx["sub.rn.f32"], u, t, T.float32(MAGIC), scope="warpgroup")
        T.cuda.tile.apply(T.ptx["sub.rn.f32"], s_poly, s_poly, u, scope="warpgroup")
        T.cuda.tile.apply(T.ptx["fma.rn.f32"], u, s_poly, T.float32(C3), T.float32(C2), scope="warpgroup")
        T.cuda.tile.apply(T.ptx["fma.rn.f32"], u, u, s_poly, T.float32(C1), scope="warpgroup")
        T.cuda.tile.apply(T.ptx["fma.rn.f32"], s_poly, u, s_poly, T.float32(1.0), scope="warpgroup")
        T.cuda.tile.apply(T.ptx["mul.lo.u32"], t.view("uint32"), t.view("uint32"), T.uint32(8388608), scope="warpgroup")
        T.cuda.tile.apply(T.ptx["add.u32"], s_poly.view("uint32"), s_poly.view("uint32"), t.view("uint32"), scope="warpgroup")


@T.macro
def row_sums(sv, st):
    # l ← α · l + this block's P (this thread's 32 values of each of its two rows).
    l0 = sv[0] + sv[1]
    l1 = sv[2] + sv[3]
    k0 = sv[4] + sv[5]
    k1 = sv[6] + sv[7]
    for i in range(1, 8):
        l0 = l0 + (sv[8 * i] + sv[8 * i + 1])
        l1 = l1 + (sv[8 * i + 2] + sv[8 * i + 3])
        k0 = k0 + (sv[8 * i + 4] + sv[8 * i + 5])
        k1 = k1 + (sv[8 * i + 6] + sv[8 * i + 7])
    st[2] = st[2] * st[4] + (l0 + k0)
    st[3] = st[3] * st[5] + (l1 + k1)


@T.macro
def rescale_o(ov, st):
    for i in range(8):
        ov[4 * i] = ov[4 * i] * st[4]
        ov[4 * i + 1] = ov[4 * i + 1] * st[4]
        ov[4 * i + 2] = ov[4 * i + 2] * st[5]
        ov[4 * i + 3] = ov[4 * i + 3] * st[5]


@T.function
def attention_fwd_bf16_d64_q192(Q: T.Tensor((BH * SEQ, D), "bfloat16"), K: T.Tensor((BH * SEQ, D), "bfloat16"), V: T.Tensor((BH * SEQ, D), "bfloat16"), O: T.Tensor((BH * SEQ, D), "bfloat16")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=(NQT, BH), block=512))
    tid = T.cuda.thread_idx("x")
    qt = T.cuda.block_idx("x")
    bh = T.cuda.block_idx("y")
    wg = tid // 128
    Qs = T.alloc_shared((BM, 64), "bfloat16", layout=SW_Q, align=1024)
    Ks = T.alloc_shared((STAGES * 128, 64), "bfloat16", layout=SW_KV, align=1024)
    Vs = T.alloc_shared((STAGES * 128, 64), "bfloat16", layout=SW_KV, align=1024)
    qbar = T.alloc_shared((1,), "uint64", layout="default")
    fullk = T.alloc_shared((STAGES,), "uint64", layout="default")
    fullv = T.alloc_shared((STAGES,), "uint64", layout="default")
    emptyk = T.alloc_shared((STAGES,), "uint64", layout="default")
    emptyv = T.alloc_shared((STAGES,), "uint64", layout="default")
    s_acc = T.alloc_local((64, 128), "float32", layout=ACC_S)
    o_acc = T.alloc_local((64, 64), "float32", layout=ACC_O)
    p_words = T.alloc_local((64, 64), "uint32", layout=P_WORDS)
    o_words = T.alloc_local((4, 32, 16, 1), "uint32", layout=O_REGS)
    st = T.alloc_local((6,), "float32")
    sv = s_acc.view(64, layout=MINE_S)
    s_row0 = s_acc.view(4, 32, 16, 2, 1, layout=S_ROW0)
    s_row1 = s_acc.view(4, 32, 16, 2, 1, layout=S_ROW1)
    ov = o_acc.view(32, layout=MINE_O)
    s_regs = s_acc.view(4, 32, 64, 1, layout=S_REGS)
    s_pairs = s_acc.view(4, 32, 32, 2, layout=S_PAIRS)
    p_regs = p_words.view(4, 32, 32, 1, layout=P_REGS)
    O_t = O.view("uint32").view(BH * SEQ // 64, 4, 32, 16, 1, layout=O_TILES)
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(qbar.ptr_to([0]), 1)
        for s in range(STAGES):
            T.ptx.mbarrier.init.shared.b64(fullk.ptr_to([s]), 1)
            T.ptx.mbarrier.init.shared.b64(fullv.ptr_to([s]), 1)
            T.ptx.mbarrier.init.shared.b64(emptyk.ptr_to([s]), 12)
            T.ptx.mbarrier.init.shared.b64(emptyv.ptr_to([s]), 12)
    T.ptx.fence.mbarrier_init.release.cluster()
    T.cuda.cta_sync()
    if wg == 0:
        T.ptx.setmaxnreg(False, 32)
        if tid == 0:
            # The last tile's rows past SEQ read the next head (or TMA zeros past the tensor's end):
            # computed, never stored. expect_tx counts the whole box either way.
            T.ptx.mbarrier.arrive.expect_tx.shared.b64(qbar.ptr_to([0]), BM * 128)
            T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"], Qs, Q, box=[BM, 64], coords=[bh * SEQ + qt * BM, 0], mbar=qbar.ptr_to([0]), swizzle=3)
            for j in range(NKV):
                s = j % STAGES
                T.cuda.mbarrier_wait(emptyk.ptr_to([s]), 1 - j // STAGES % 2)
                T.ptx.mbarrier.arrive.expect_tx.shared.b64(fullk.ptr_to([s]), 16384)
                T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"], Ks[s * 128 : s * 128 + 128, :], K, box=[128, 64], coords=[bh * SEQ + j * 128, 0], mbar=fullk.ptr_to([s]), swizzle=3)
                T.cuda.mbarrier_wait(emptyv.ptr_to([s]), 1 - j // STAGES % 2)
                T.ptx.mbarrier.arrive.expect_tx.shared.b64(fullv.ptr_to([s]), 16384)
                T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"], Vs[s * 128 : s * 128 + 128, :], V, box=[128, 64], coords=[bh * SEQ + j * 128, 0], mbar=fullv.ptr_to([s]), swizzle=3)
    else:
        T.ptx.setmaxnreg(True, 160)
        cw = wg - 1  # the consumer warpgroup: query rows 64·cw … 64·cw + 63 of the tile
        T.cuda.tile.apply(T.ptx["mov.b32"], o_acc.view(4, 32, 32, 1, layout=O_ALL), T.float32(0), scope="warpgroup")
        st[0] = T.float32(-1.0e30)
        st[1] = T.float32(-1.0e30)
        st[2] = T.float32(0)
        st[3] = T.float32(0)
        nxt = 1 + (cw + 1) % 3  # the named barrier of the next warpgroup in the round-robin
        if cw == 2:
            T.ptx.bar.arrive(1, 256)  # warpgroup 0 issues first
        T.cuda.mbarrier_wait(qbar.ptr_to([0]), 0)
        # Block 0: S only (there is no P yet).
        T.cuda.mbarrier_wait(fullk.ptr_to([0]), 0)
        T.ptx.bar.sync(1 + cw, 256)
        T.ptx.wgmma.fence.sync.aligned()
        T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16"], s_acc, Qs[cw * 64 : cw * 64 + 64, :], Ks[0:128, :], scope="warpgroup", a_descriptor=(16, 1024, 3), b_descriptor=(16, 1024, 3), scale_d=0)
        T.ptx.wgmma.commit_group.sync.aligned()
        T.ptx.bar.arrive(nxt, 256)
        T.ptx.wgmma.wait_group.sync.aligned(0)
        if tid % 32 == 0:
            T.ptx.mbarrier.arrive.shared.b64(emptyk.ptr_to([0]))
        online_softmax(sv, st, s_row0, s_row1)
        exp2_split(s_regs)
        row_sums(sv, st)
        T.cuda.tile.apply(T.ptx["cvt.rn.bf16x2.f32"], p_regs, s_pairs[:, :, :, 1:2], s_pairs[:, :, :, 0:1], scope="warpgroup")
        for j in range(1, NKV):
            s = j % STAGES
            sp = (j - 1) % STAGES
            T.cuda.mbarrier_wait(fullk.ptr_to([s]), j // STAGES % 2)
            T.cuda.mbarrier_wait(fullv.ptr_to([sp]), (j - 1) // STAGES % 2)
            T.ptx.bar.sync(1 + cw, 256)
            T.ptx.wgmma.fence.sync.aligned()
            T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16"], s_acc, Qs[cw * 64 : cw * 64 + 64, :], Ks[s * 128 : s * 128 + 128, :], scope="warpgroup", a_descriptor=(16, 1024, 3), b_descriptor=(16, 1024, 3), scale_d=0)
            T.ptx.wgmma.commit_group.sync.aligned()
            T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], o_acc, p_words, Vs[sp * 128 : sp * 128 + 128, :], scope="warpgroup", b_descriptor=(16, 1024, 3), scale_d=1, trans_b=1)
            T.ptx.wgmma.commit_group.sync.aligned()
            T.ptx.bar.arrive(nxt, 256)
            T.ptx.wgmma.wait_group.sync.aligned(1)  # S_j is ready; P_{j-1} V_{j-1} still runs
            if tid % 32 == 0:  # K_j is read: the producer may refill its stage now
                T.ptx.mbarrier.arrive.shared.b64(emptyk.ptr_to([s]))
            online_softmax(sv, st, s_row0, s_row1)
            exp2_split(s_regs)
            row_sums(sv, st)
            T.ptx.wgmma.wait_group.sync.aligned(0)
            if tid % 32 == 0:  # V_{j-1} is read
                T.ptx.mbarrier.arrive.shared.b64(emptyv.ptr_to([sp]))
            rescale_o(ov, st)
            T.cuda.tile.apply(T.ptx["cvt.rn.bf16x2.f32"], p_regs, s_pairs[:, :, :, 1:2], s_pairs[:, :, :, 0:1], scope="warpgroup")
        # The last block's P V.
        T.cuda.mbarrier_wait(fullv.ptr_to([LAST]), (NKV - 1) // STAGES % 2)
        T.ptx.bar.sync(1 + cw, 256)
        T.ptx.wgmma.fence.sync.aligned()
        T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], o_acc, p_words, Vs[LAST * 128 : LAST * 128 + 128, :], scope="warpgroup", b_descriptor=(16, 1024, 3), scale_d=1, trans_b=1)
        T.ptx.wgmma.commit_group.sync.aligned()
        T.ptx.bar.arrive(nxt, 256)
        T.ptx.wgmma.wait_group.sync.aligned(0)
        if tid % 32 == 0:
            T.ptx.mbarrier.arrive.shared.b64(emptyv.ptr_to([LAST]))
        # The row sums of the quad, then O / l in bf16 pairs.
        l0 = st[2] + T.cuda.__shfl_xor_sync(0xFFFFFFFF, st[2], 1)
        l0 = l0 + T.cuda.__shfl_xor_sync(0xFFFFFFFF, l0, 2)
        l1 = st[3] + T.cuda.__shfl_xor_sync(0xFFFFFFFF, st[3], 1)
        l1 = l1 + T.cuda.__shfl_xor_sync(0xFFFFFFFF, l1, 2)
        inv0 = T.float32(1) / l0
        inv1 = T.float32(1) / l1
        for i in range(8):
            ov[4 * i] = ov[4 * i] * inv0
            ov[4 * i + 1] = ov[4 * i + 1] * inv0
            ov[4 * i + 2] = ov[4 * i + 2] * inv1
            ov[4 * i + 3] = ov[4 * i + 3] * inv1
        opairs = o_acc.view(4, 32, 16, 2, layout=O_PAIRS)
        T.cuda.tile.apply(T.ptx["cvt.rn.bf16x2.f32"], o_words, opairs[:, :, :, 1:2], opairs[:, :, :, 0:1], scope="warpgroup")
        if qt * 3 + cw < SEQ // 64:  # the tail tile's warpgroups past SEQ store nothing
            T.cuda.tile.apply(T.ptx["st.global.b32"], O_t.sub[bh * (SEQ // 64) + qt * 3 + cw], o_words, scope="warpgroup")


import torch
import tvm_tirx

torch.manual_seed(0)  # random normal Q, K, V: no periodic pattern to hide a wrong row or lane
q = torch.randn(BH, SEQ, D, dtype=torch.bfloat16, device="cuda")
k = torch.randn(BH, SEQ, D, dtype=torch.bfloat16, device="cuda")
v = torch.randn(BH, SEQ, D, dtype=torch.bfloat16, device="cuda")
o = torch.zeros(BH * SEQ, D, dtype=torch.bfloat16, device="cuda")
tvm_tirx.compile(attention_fwd_bf16_d64_q192, target="cuda")(q.reshape(BH * SEQ, D), k.reshape(BH * SEQ, D), v.reshape(BH * SEQ, D), o)
# Every 9th head and every 13th query row against SDPA: rows are independent without a mask, and
# the whole 4 × 32 × 4096 reference would take minutes in the check harness. 13 is odd and prime to
# 64, so the samples reach every warpgroup, warp and quad of the 192-row tiles, and row 4095 = 13 ·
# 315 is the last row of the tail tile (rows 4032 … 4095, stored by its warpgroup 0 alone).
ref = torch.nn.functional.scaled_dot_product_attention(q[::9, ::13], k[::9], v[::9])
torch.testing.assert_close(o.reshape(BH, SEQ, D)[::9, ::13].float(), ref.float(), rtol=2e-2, atol=2e-2)
# The same rows against SDPA in float32, by their mean error: the elementwise tolerance above has to
# allow bf16 differences at every element, so it passes a wrong exponential (the normalisation
# cancels most of it). P and O rounded to bf16 leave 0.21 % of the mean |O|; exp2's linear
# coefficient 2 % off in a quarter of P gives 0.31 % (bench/attention_bench.h, kAttentionMeanRel).
ref32 = torch.nn.functional.scaled_dot_product_attention(q[::9, ::13].float(), k[::9].float(), v[::9].float())
mean_err = (o.reshape(BH, SEQ, D)[::9, ::13].float() - ref32).abs().mean().item() / ref32.abs().mean().item()
assert mean_err < 3e-3, ("mean |O - SDPA| / mean |O|", mean_err)
