# Dynamic shapes (guide style): the length is a symbol, `n = T.dynamic("n")`, bound when the
# kernel is called from the arrays' shapes; the grid is computed from it on the host; a guard keeps
# the last block's threads inside the tensor. Each thread adds one element; the same compiled
# kernel runs for several sizes, including one that is not a multiple of the block.
import numpy as np
import tvm
from tvm.script import tirx as T

n = T.dynamic("n")
BLOCK = 128


@T.function
def vector_add(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, BLOCK), block=BLOCK))
    i = T.cuda.block_idx("x") * BLOCK + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] + b[i]


f = tvm.tirx.compile(vector_add, target="cuda")
for size in [1000, 37, 4096]:
    a = np.linspace(-1, 1, size, dtype="float32")
    b = np.linspace(2, 3, size, dtype="float32")
    c = np.zeros(size, dtype="float32")
    f(a, b, c)
    np.testing.assert_allclose(c, a + b, rtol=0, atol=0)
