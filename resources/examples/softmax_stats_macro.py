# Softmax row statistics with `@T.macro` and a module float constant: per row, the max m and the sum
# of exp2((x - m) * LOG2E) (= sum of exp(x - m)), one row per warp. Each warp reduction (five
# __shfl_xor_sync butterflies) is written once as a macro and inlined where it is called; LOG2E is a
# Python float that takes the float32 of the expression it is used in. Random data: a periodic
# pattern can hide a wrong shuffle offset.
from tvm.script import tirx as T

LOG2E = 1.4426950408889634


@T.macro
def warp_allreduce_max(out):
    for k in range(5):
        out[0] = T.max(out[0], T.cuda.__shfl_xor_sync(0xFFFFFFFF, out[0], 16 >> k))


@T.macro
def warp_allreduce_sum(acc):
    for k in range(5):
        t = T.cuda.__shfl_xor_sync(0xFFFFFFFF, acc[0], 16 >> k)
        acc[0] = acc[0] + t


@T.function
def stats(A: T.Tensor((4, 32), "float32"), M: T.Tensor((4,), "float32"), L: T.Tensor((4,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
    lane = T.cuda.lane_id()
    row = T.cuda.warp_id()
    m = T.alloc_local((1,), "float32")
    s = T.alloc_local((1,), "float32")
    m[0] = A[row, lane]
    warp_allreduce_max(m)
    s[0] = T.exp2((A[row, lane] - m[0]) * LOG2E)
    warp_allreduce_sum(s)
    if lane == 0:
        M[row] = m[0]
        L[row] = s[0]


import numpy as np
import tvm

np.random.seed(3)
x = np.random.standard_normal(size=(4, 32)).astype("float32")
compiled = tvm.tirx.compile(stats, target="cuda", pipeline="tirx")
mo = tvm.runtime.tensor(np.zeros(4, dtype="float32"), tvm.cuda())
lo = tvm.runtime.tensor(np.zeros(4, dtype="float32"), tvm.cuda())
compiled(tvm.runtime.tensor(x, tvm.cuda()), mo, lo)
np.testing.assert_allclose(mo.numpy(), x.max(axis=1), rtol=0, atol=0)
np.testing.assert_allclose(lo.numpy(), np.exp(x - x.max(axis=1, keepdims=True)).sum(axis=1), rtol=1e-5)
