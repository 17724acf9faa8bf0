# An uninitialised output (np.empty) that the kernel writes only half of, and a check of that half:
# the other half is undefined on every device (poisoned), so `--device both` compares only the
# written half and says how many elements neither device defines.
from tvm.script import tirx as T


@T.function
def first_half(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    B[tid] = A[tid] * T.float32(2) + T.float32(1)


import numpy as np
import tvm

a = np.linspace(-4, 4, 64, dtype="float32")
b = tvm.runtime.tensor(np.empty((64,), dtype="float32"), tvm.cuda())
compiled = tvm.tirx.compile(first_half, target="cuda")
compiled(tvm.runtime.tensor(a, tvm.cuda()), b)
np.testing.assert_allclose(b.numpy()[:32], a[:32] * 2 + 1)
