# A tiled kernel over a grid that writes every other row of a 2-D output the check code zeroed:
# half of the output is never written and must stay 0 on every device.
from tvm.script import tirx as T


@T.function
def even_rows(A: T.Tensor((16, 64), "float32"), B: T.Tensor((16, 64), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=8, block=64))
    row = T.cuda.block_idx("x") * 2
    tid = T.cuda.thread_idx("x")
    B[row, tid] = A[row, tid] * T.float32(-1)


import numpy as np
import tvm

a = np.arange(16 * 64, dtype="float32").reshape(16, 64)
b = tvm.runtime.tensor(np.zeros((16, 64), dtype="float32"), tvm.cuda())
compiled = tvm.tirx.compile(even_rows, target="cuda")
compiled(tvm.runtime.tensor(a, tvm.cuda()), b)
expected = np.zeros((16, 64), dtype="float32")
expected[0::2] = -a[0::2]
np.testing.assert_allclose(b.numpy(), expected)
