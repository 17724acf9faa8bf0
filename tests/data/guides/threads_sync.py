# Threads and synchronisation (guide style): a block stages its slice in shared memory, waits at
# T.cuda.cta_sync(), then every thread reads another thread's element (a reversal); a tree
# reduction in shared memory gives the block's sum; a warp all-reduce with __shfl_xor_sync gives
# each warp's maximum without shared memory.
import numpy as np
import tvm
from tvm.script import tirx as T

BLOCK = 128


@T.function
def reverse_and_sum(x: T.Tensor((2 * BLOCK,), "float32"), rev: T.Tensor((2 * BLOCK,), "float32"),
                    sums: T.Tensor((2,), "float32"), wmax: T.Tensor((8,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=2, block=BLOCK))
    bx = T.cuda.block_idx("x")
    tx = T.cuda.thread_idx("x")
    buf = T.alloc_shared((BLOCK,), "float32")
    part = T.alloc_shared((BLOCK,), "float32")
    v = x[bx * BLOCK + tx]
    buf[tx] = v
    part[tx] = v
    T.cuda.cta_sync()
    rev[bx * BLOCK + tx] = buf[BLOCK - 1 - tx]
    stride = BLOCK // 2
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[bx] = part[0]
    m = v
    for k in range(5):
        other = T.cuda.__shfl_xor_sync(0xFFFFFFFF, m, 1 << k)
        m = T.max(m, other)
    if tx % 32 == 0:
        wmax[bx * 4 + tx // 32] = m


x = np.linspace(-1, 1, 2 * BLOCK, dtype="float32") ** 3
rev = np.zeros(2 * BLOCK, dtype="float32")
sums = np.zeros(2, dtype="float32")
wmax = np.zeros(8, dtype="float32")
f = tvm.tirx.compile(reverse_and_sum, target="cuda")
f(x, rev, sums, wmax)
np.testing.assert_allclose(rev, x.reshape(2, BLOCK)[:, ::-1].reshape(-1), rtol=0, atol=0)
np.testing.assert_allclose(sums, x.reshape(2, BLOCK).sum(axis=1), rtol=1e-5, atol=1e-5)
np.testing.assert_allclose(wmax, x.reshape(8, 32).max(axis=1), rtol=0, atol=0)
