#!/usr/bin/env python3
"""cuBLAS reference timing for the GEMM benchmarks: torch.matmul(A, B.T) with A (M x K) and B (N x K)
in bf16 on the GPU (the layout of the project's GEMM kernels), 5 warm-ups then the median of 20
runs timed with CUDA events. Prints a description line and `torch_matmul_tflops T` (2*M*N*K flops).
scripts/gemm-bench.sh and scripts/gpu-check.sh both call it, so the kernel and the reference are
always measured in the same run. Usage: torch_matmul.py N | M N K"""
import sys

import torch

dims = [int(x) for x in sys.argv[1:]] or [4096]
m, n, k = dims * 3 if len(dims) == 1 else dims
a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
for _ in range(5):
    torch.matmul(a, b.T)
torch.cuda.synchronize()
ms = []
for _ in range(20):
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    e0.record()
    torch.matmul(a, b.T)
    e1.record()
    torch.cuda.synchronize()
    ms.append(e0.elapsed_time(e1))
ms.sort()
print("torch %s, cuBLAS; bf16 x bf16 -> bf16 %dx%dx%d, median of 20: %.3f ms" % (torch.__version__, m, n, k, ms[10]))
print("torch_matmul_tflops %.2f" % (2 * m * n * k / (ms[10] * 1e-3) / 1e12))
