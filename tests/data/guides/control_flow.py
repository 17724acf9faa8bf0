# Control flow (guide style): Python `for`/`while`/`if`-`elif`-`else`, `break` and `continue`
# inside device code, and T.if_then_else as an expression. Each thread classifies its element and
# computes a small running sum with an early exit.
import numpy as np
import tvm
from tvm.script import tirx as T

N = 256


@T.function
def classify(x: T.Tensor((N,), "float32"), kind: T.Tensor((N,), "int32"), acc: T.Tensor((N,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=2, block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    v = x[i]
    if v < T.float32(-1):
        kind[i] = -1
    elif v > T.float32(1):
        kind[i] = 1
    else:
        kind[i] = 0
    s = T.float32(0)
    for j in range(8):
        if j % 2 == 1:
            continue
        if s > T.float32(3):
            break
        s = s + T.if_then_else(v > T.float32(0), v, -v)
    k = 0
    while k < 3:
        s = s + T.float32(0.5)
        k = k + 1
    acc[i] = s


x = np.linspace(-3, 3, N, dtype="float32")
kind = np.zeros(N, dtype="int32")
acc = np.zeros(N, dtype="float32")
f = tvm.tirx.compile(classify, target="cuda")
f(x, kind, acc)
np.testing.assert_allclose(kind, np.where(x < -1, -1, np.where(x > 1, 1, 0)), rtol=0, atol=0)
ref = np.zeros(N, dtype="float32")
a = np.abs(x)
for i in range(N):
    s = np.float32(0)
    for j in range(0, 8, 2):
        if s > 3:
            break
        s = np.float32(s + a[i])
    ref[i] = s + np.float32(1.5)
np.testing.assert_allclose(acc, ref, rtol=1e-6, atol=1e-6)
