# Check code that edits its reference in place (issue 8): an element, a slice and a whole array
# (through an alias) each make the reference differ from the kernel, so those checks FAIL; the
# last check undoes its edit and passes.
from tvm.script import tirx as T


@T.function
def double(A: T.Tensor((4, 8), "float32"), B: T.Tensor((4, 8), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    for r in range(4):
        B[r, tid % 8] = A[r, tid % 8] * T.float32(2)


import numpy as np
import tvm

f = tvm.tirx.compile(double, target="cuda")
a = np.arange(32, dtype="float32").reshape(4, 8)
b = np.zeros((4, 8), dtype="float32")
f(a, b)

ref = a * 2
ref[1, 5] += 0.5
np.testing.assert_allclose(b, ref)

ref = a * 2
ref[0:2, 3] -= 1
np.testing.assert_allclose(b, ref)

ref = a * 2
alias = ref
ref *= 3
np.testing.assert_allclose(b, alias)

ref = a * 2
ref[2] += 0.25
ref[2, :] -= 0.25
np.testing.assert_allclose(b, ref)
