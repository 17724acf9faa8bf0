# Native basics (guide style): a kernel is a Python function with @T.function; its parameters are
# annotated tensors; T.device_entry starts the device code with a launch configuration; every
# thread computes its global index and handles one element. Written with
# `from __future__ import annotations` and a module-level dtype alias, as the guides do.
from __future__ import annotations

import numpy as np
import tvm
from tvm.script import tirx as T

dtype = T.float32
N = 1000
THREADS = 128


@T.function
def scale_add(x: T.Tensor((N,), dtype), y: T.Tensor((N,), dtype), out: T.Tensor((N,), dtype)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(N, THREADS), block=THREADS))
    i = T.cuda.block_idx("x") * THREADS + T.cuda.thread_idx("x")
    if i < N:
        a: dtype = x[i]
        out[i] = a * T.float32(2.5) + y[i]


x = np.linspace(-3, 3, N, dtype="float32")
y = np.linspace(1, 2, N, dtype="float32")
out = np.zeros(N, dtype="float32")
f = tvm.tirx.compile(scale_add, target="cuda")
f(x, y, out)
np.testing.assert_allclose(out, x * np.float32(2.5) + y, rtol=1e-6, atol=1e-6)
