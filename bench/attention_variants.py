#!/usr/bin/env python3
"""Attention schedule variants for an A/B call on a GPU (issue 24; tests/gpu/attention_ab.sh).

The schedule that the GPU calls of 2026-12-07 found (split K/V release, the softmax's fma tile op,
four-chain reductions, the causal grid with a head's query tiles adjacent, three causal stages) is
now the kernels of bench/kernels/ themselves; their ring depths are swept by `tirx tune` (TUNE).
What remains here are the derived scripts that are not kernels in their own right:
  gemmonly (ablation, not a result) the softmax removed, the GEMMs' own ceiling: the schedule's
           distance from it is what the softmax costs; its output is wrong, so
           bench_gpu_attention runs it with --unchecked and its own check must fail;
  s3       the d128 kernel with three ring stages (the depth the causal kernel uses);
  poly16   the d64 q192 kernel with 16 of each thread's 64 exponentials on the FMA pipe (POLY, its
           default is 0 until a GPU has timed it): the A/B step's B side.
Every variant is a complete script with the kernel's own check code.
Usage: bench/attention_variants.py OUT_DIR   (writes OUT_DIR/v_*.py and OUT_DIR/small_v_*.py, the
latter at BATCH 1, HEADS 1, SEQ 1024 for the simulator: eight K/V blocks, so every ring wraps).
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'kernels') + '/'
OUT = sys.argv[1].rstrip('/') + '/' if len(sys.argv) > 1 else None


def gemm_only(src):
    """The softmax macros and the ex2 tile op removed: S and P V still run, on stale P."""
    for name in ['online_softmax', 'row_sums', 'rescale_o']:
        src, n = re.subn(r'\n *' + name + r'\([^\n]*\)(?=\n)', '', src)
        assert n >= 1, name
    src, n = re.subn(r'\n *T\.cuda\.tile\.apply\(T\.ptx\["ex2\.approx\.ftz\.f32"\][^\n]*', '', src)
    assert n >= 1, 'ex2'
    return src


def stages(src, n):
    src, k = re.subn(r'\nSTAGES = \d+\n', '\nSTAGES = %d\n' % n, src)
    assert k == 1
    return src


def poly(src, n):
    src, k = re.subn(r'\nPOLY = \d+ ', '\nPOLY = %d ' % n, src)
    assert k == 1
    return src


def small(src):
    # eight K/V blocks: rings of two and three stages wrap; the causal CTAs stream 1 to 8 blocks
    for line, to in [('BATCH = 4\n', 'BATCH = 1\n'), ('HEADS = 32\n', 'HEADS = 1\n'),
                     ('SEQ = 4096\n', 'SEQ = 1024\n')]:
        assert src.count(line) == 1, line
        src = src.replace(line, to)
    return src


if OUT is None:
    sys.exit('usage: attention_variants.py OUT_DIR')
os.makedirs(OUT, exist_ok=True)
d128 = open(ROOT + 'attention_fwd_bf16_d128.py').read()
d64 = open(ROOT + 'attention_fwd_bf16_d64.py').read()
q192 = open(ROOT + 'attention_fwd_bf16_d64_q192.py').read()
V = {
    'v_d128_gemmonly': gemm_only(d128),
    'v_d64_gemmonly': gemm_only(d64),
    'v_d128_s3': stages(d128, 3),
    'v_d64_q192_poly16': poly(q192, 16),
}
for k, s in V.items():
    open(OUT + k + '.py', 'w').write(s)
    open(OUT + 'small_' + k + '.py', 'w').write(small(s))
