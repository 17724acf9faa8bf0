# Symbolic extents are bound per call: arrays that disagree on 'n' stop the call (E0772, reported
# by the harness at the call as E0812).
import numpy as np
import tvm
from tvm.script import tirx as T

n = T.dynamic("n")


@T.function
def vector_add(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] + b[i]


f = tvm.tirx.compile(vector_add, target="cuda")
a = np.ones(128, dtype="float32")
b = np.ones(100, dtype="float32")
c = np.zeros(128, dtype="float32")
f(a, b, c)
np.testing.assert_allclose(c, a + 1)
