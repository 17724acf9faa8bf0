#!/usr/bin/env python3
"""Attention schedule variants for an A/B call on a GPU (issue 24; tests/gpu/attention_ab.sh).

Derives, from the three benchmark kernels in bench/kernels/, the variants whose throughput the
next GPU call compares with the kernels as they are (each variant is a complete script: its own
check code verifies it, at the benchmark shape or made small):
  ffma    the softmax's S*scale - m*scale as one fma.rn.f32 tile op per row half (the scalar
          form is two roundings, DEC-SCALAR-1, so ptxas may not contract it);
  ilp     the row max and row sum over four chains instead of two;
  split   K and V freed on their own barriers: K when S_j has completed (wait_group 1), V when
          P V has, so the producer refills K a whole iteration before it is needed (with one
          shared 'empty' barrier and two stages, K_{j+1} is loaded only after P V_{j-1} ends);
  s3      three ring stages;
  qtfast  causal: query tiles of one head adjacent in the grid (K/V reuse in L2);
  gemmonly (ablation, not a result) the softmax removed, the GEMMs' own ceiling.
Usage: bench/attention_variants.py OUT_DIR   (writes OUT_DIR/v_*.py and OUT_DIR/small_v_*.py, the
latter at BATCH 1, HEADS 1, SEQ 1024 for the simulator: eight K/V blocks, so every ring wraps).
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'kernels') + '/'
OUT = sys.argv[1].rstrip('/') + '/' if len(sys.argv) > 1 else None

def ffma(src):
    src = src.replace('''MINE_S = TileLayout(S[64])''', '''MINE_S = TileLayout(S[64])
S_ROW0 = TileLayout(S[(4, 32, 16, 2, 1) : (1 @ wid_in_wg, 1 @ laneid, 4, 1, 1)])
S_ROW1 = TileLayout(S[(4, 32, 16, 2, 1) : (1 @ wid_in_wg, 1 @ laneid, 4, 1, 1)] + 2)''')
    old = '''    b0 = n0 * SCALE_LOG2
    b1 = n1 * SCALE_LOG2
    for i in range(16):
        sv[4 * i] = sv[4 * i] * SCALE_LOG2 - b0
        sv[4 * i + 1] = sv[4 * i + 1] * SCALE_LOG2 - b0
        sv[4 * i + 2] = sv[4 * i + 2] * SCALE_LOG2 - b1
        sv[4 * i + 3] = sv[4 * i + 3] * SCALE_LOG2 - b1
'''
    new = '''    b0 = T.float32(0) - n0 * SCALE_LOG2
    b1 = T.float32(0) - n1 * SCALE_LOG2
    T.cuda.tile.apply(T.ptx["fma.rn.f32"], s_row0, s_row0, T.float32(SCALE_LOG2), b0, scope="warpgroup")
    T.cuda.tile.apply(T.ptx["fma.rn.f32"], s_row1, s_row1, T.float32(SCALE_LOG2), b1, scope="warpgroup")
'''
    assert old in src
    src = src.replace(old, new)
    src = src.replace('def online_softmax(sv, st):', 'def online_softmax(sv, st, s_row0, s_row1):')
    src = src.replace('online_softmax(sv, st)\n', 'online_softmax(sv, st, s_row0, s_row1)\n')
    src = src.replace('''    sv = s_acc.view(64, layout=MINE_S)''', '''    sv = s_acc.view(64, layout=MINE_S)
    s_row0 = s_acc.view(4, 32, 16, 2, 1, layout=S_ROW0)
    s_row1 = s_acc.view(4, 32, 16, 2, 1, layout=S_ROW1)''')
    return src

def ilp(src):
    old_max = '''    n0 = st[0]
    n1 = st[1]
    for i in range(16):
        n0 = T.max(n0, T.max(sv[4 * i], sv[4 * i + 1]))
        n1 = T.max(n1, T.max(sv[4 * i + 2], sv[4 * i + 3]))
'''
    new_max = '''    n0 = T.max(st[0], T.max(sv[0], sv[1]))
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
'''
    assert old_max in src
    src = src.replace(old_max, new_max)
    old_sum = '''    l0 = st[2] * st[4]
    l1 = st[3] * st[5]
    for i in range(16):
        l0 = l0 + sv[4 * i] + sv[4 * i + 1]
        l1 = l1 + sv[4 * i + 2] + sv[4 * i + 3]
    st[2] = l0
    st[3] = l1
'''
    new_sum = '''    l0 = sv[0] + sv[1]
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
'''
    assert old_sum in src
    return src.replace(old_sum, new_sum)

def qt_fast(src):
    old = '''    T.device_entry(launch=T.cuda.LaunchConfig(grid=(BH, SEQ // 128), block=384))'''
    assert old in src
    src = src.replace(old, '''    T.device_entry(launch=T.cuda.LaunchConfig(grid=(SEQ // 128, BH), block=384))''')
    old = '''    bh = T.cuda.block_idx("x")
    qt = SEQ // 128 - 1 - T.cuda.block_idx("y")'''
    assert old in src
    return src.replace(old, '''    bh = T.cuda.block_idx("y")
    qt = SEQ // 128 - 1 - T.cuda.block_idx("x")''')

def gemm_only(src):
    for name in ['online_softmax', 'row_sums', 'rescale_o']:
        src, n = re.subn(r'\n *' + name + r'\([^\n]*\)(?=\n)', '', src)
        assert n >= 1, name
    src = re.sub(r'\n *T\.cuda\.tile\.apply\(T\.ptx\["ex2\.approx\.ftz\.f32"\][^\n]*', '', src)
    return src


def split_release(src):
    """K and V freed on their own barriers: K when S_j has completed, V when P V has."""
    old = '    empty = T.alloc_shared((STAGES,), "uint64", layout="default")\n'
    assert old in src
    src = src.replace(old, '    emptyk = T.alloc_shared((STAGES,), "uint64", layout="default")\n    emptyv = T.alloc_shared((STAGES,), "uint64", layout="default")\n')
    old = '            T.ptx.mbarrier.init.shared.b64(empty.ptr_to([s]), 8)\n'
    assert old in src
    src = src.replace(old, '            T.ptx.mbarrier.init.shared.b64(emptyk.ptr_to([s]), 8)\n            T.ptx.mbarrier.init.shared.b64(emptyv.ptr_to([s]), 8)\n')
    m = re.search(r'\n( *)T\.cuda\.mbarrier_wait\(empty\.ptr_to\(\[s\]\), 1 - j // STAGES % 2\)', src)
    ind = m.group(1)
    src = src.replace(m.group(0), '\n' + ind + 'T.cuda.mbarrier_wait(emptyk.ptr_to([s]), 1 - j // STAGES % 2)')
    old = '\n' + ind + 'T.ptx.mbarrier.arrive.expect_tx.shared.b64(fullv.ptr_to([s]), '
    assert old in src
    src = src.replace(old, '\n' + ind + 'T.cuda.mbarrier_wait(emptyv.ptr_to([s]), 1 - j // STAGES % 2)' + old, 1)
    # block 0: S done -> K stage 0 free
    i = src.index('T.ptx.wgmma.wait_group.sync.aligned(0)\n')
    line_start = src.rindex('\n', 0, i) + 1
    ind = src[line_start:i]
    end = i + len('T.ptx.wgmma.wait_group.sync.aligned(0)\n')
    src = src[:end] + ind + 'if tid % 32 == 0:\n' + ind + '    T.ptx.mbarrier.arrive.shared.b64(emptyk.ptr_to([0]))\n' + src[end:]
    m = re.search(r'\n( *)T\.ptx\.wgmma\.wait_group\.sync\.aligned\(1\)[^\n]*\n', src)
    ind = m.group(1)
    src = src.replace(m.group(0), m.group(0) + ind + 'if tid % 32 == 0:\n' + ind + '    T.ptx.mbarrier.arrive.shared.b64(emptyk.ptr_to([s]))\n')
    src = src.replace('empty.ptr_to(', 'emptyv.ptr_to(')
    assert 'empty.' not in src
    return src

def stages(src, n):
    src, k = re.subn(r'\nSTAGES = \d+\n', '\nSTAGES = %d\n' % n, src)
    assert k == 1
    return src

def small(src):
    # eight K/V blocks: rings of two and three stages wrap; the causal CTAs stream 1 to 8 blocks
    return src.replace('BATCH = 4\n', 'BATCH = 1\n').replace('HEADS = 32\n', 'HEADS = 1\n').replace('SEQ = 4096\n', 'SEQ = 1024\n')

if OUT is None:
    sys.exit('usage: attention_variants.py OUT_DIR')
os.makedirs(OUT, exist_ok=True)
d128 = open(ROOT + 'attention_fwd_bf16_d128.py').read()
cau = open(ROOT + 'attention_fwd_bf16_d128_causal.py').read()
d64 = open(ROOT + 'attention_fwd_bf16_d64.py').read()
V = {
    'v_d128_ffma': ffma(d128),
    'v_d128_ffma_ilp': ilp(ffma(d128)),
    'v_d128_gemmonly': gemm_only(ilp(ffma(d128))),
    'v_d128_causal_qtfast': qt_fast(cau),
    'v_d128_causal_all': ilp(ffma(qt_fast(cau))),
    'v_d64_ffma_ilp': ilp(ffma(d64)),
    'v_d128_s3': stages(ilp(ffma(d128)), 3),
    'v_d128_split': split_release(ilp(ffma(d128))),
    'v_d128_split_s3': stages(split_release(ilp(ffma(d128))), 3),
    'v_d128_gemmonly_split': gemm_only(split_release(ilp(ffma(d128)))),
    'v_d128_causal_split': split_release(ilp(ffma(qt_fast(cau)))),
    'v_d128_causal_split_s3': stages(split_release(ilp(ffma(qt_fast(cau)))), 3),
    'v_d64_split': split_release(ilp(ffma(d64))),
}
for k, s in V.items():
    open(OUT + k + '.py', 'w').write(s)
    open(OUT + 'small_' + k + '.py', 'w').write(small(s))
