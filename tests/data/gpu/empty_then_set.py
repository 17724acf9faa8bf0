# np.empty, then the check code defines part of it (b[32:] = 5) before the kernel writes the rest:
# the script's values must be uploaded, only the still-undefined elements poisoned.
from tvm.script import tirx as T


@T.function
def first_half(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    B[tid] = A[tid] + T.float32(1)


import numpy as np
import tvm

a = np.linspace(-4, 4, 64, dtype="float32")
b_np = np.empty((64,), dtype="float32")
b_np[32:] = 5
b = tvm.runtime.tensor(b_np, tvm.cuda())
compiled = tvm.tirx.compile(first_half, target="cuda")
compiled(tvm.runtime.tensor(a, tvm.cuda()), b)
expected = np.full((64,), 5.0, dtype="float32")
expected[:32] = a[:32] + 1
np.testing.assert_allclose(b.numpy(), expected)
