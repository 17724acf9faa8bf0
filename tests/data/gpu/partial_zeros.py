# A kernel that writes only the first half of its output, which the check code created with
# contents (np.full): the second half must reach the kernel and come back unchanged on every
# device. Before the fix the GPU runner poisoned the whole output (write-only), so the second half
# came back NaN and the check failed on cuda while it passed on the simulator.
from tvm.script import tirx as T


@T.function
def zero_first_half(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    B[tid] = A[tid] * T.float32(0)


import numpy as np
import tvm

a = np.linspace(-4, 4, 64, dtype="float32")
b = tvm.runtime.tensor(np.full((64,), 3.0, dtype="float32"), tvm.cuda())
compiled = tvm.tirx.compile(zero_first_half, target="cuda")
compiled(tvm.runtime.tensor(a, tvm.cuda()), b)
expected = np.full((64,), 3.0, dtype="float32")
expected[:32] = 0
np.testing.assert_allclose(b.numpy(), expected)
