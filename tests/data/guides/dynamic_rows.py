# Dynamic shapes in two dimensions (guide style): matrices whose row count and row length are both
# symbolic, so the row stride is the row length and comes from the call. `row_normalize` takes one
# block per row: each thread sums a strided slice of the row, a shared-memory tree reduction gives
# the row's sum, and every element is divided by it. `scale_rows` moves 4-element chunks with v4
# tile loads and stores on regions with a static extent; the chunk start is computed once into a
# variable (`c = ... * 4`), which proves the atoms aligned within a row, and across rows they stay
# aligned only when the row length is a multiple of 4: every call is checked for that (E0772).
import numpy as np
import tvm
from tvm.script import tirx as T

m = T.dynamic("m")
n = T.dynamic("n")


@T.function
def row_normalize(A: T.Tensor((m, n), "float32"), B: T.Tensor((m, n), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=m, block=64))
    row = T.cuda.block_idx("x")
    tid = T.cuda.thread_idx("x")
    part = T.alloc_shared((64,), "float32")
    acc = T.float32(0)
    j = tid
    while j < n:
        acc = acc + A[row, j]
        j = j + 64
    part[tid] = acc
    T.cuda.cta_sync()
    stride = 32
    while stride > 0:
        if tid < stride:
            part[tid] = part[tid] + part[tid + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    total = part[0]
    k = tid
    while k < n:
        B[row, k] = A[row, k] / total
        k = k + 64


@T.function
def scale_rows(rows: T.int32, cols: T.int32, A: T.Tensor((rows, cols), "float32"), B: T.Tensor((rows, cols), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=(T.ceildiv(cols, 128), rows), block=32))
    bx = T.cuda.block_idx("x")
    row = T.cuda.block_idx("y")
    tid = T.cuda.thread_idx("x")
    c = (bx * 32 + tid) * 4
    R = T.alloc_local((1, 4), "float32")
    if c < cols:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[row : row + 1, c : c + 4])
        s = R.view(1, 4, 1)
        T.cuda.tile.apply(T.ptx["mul.f32"], s, s, T.float32(-2))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[row : row + 1, c : c + 4], R)


norm = tvm.tirx.compile(row_normalize, target="cuda")
for rows, cols in [(3, 5), (2, 130), (1, 64)]:
    a = np.arange(1, rows * cols + 1, dtype="float32").reshape(rows, cols) / 8
    b = np.zeros((rows, cols), dtype="float32")
    norm(a, b)
    np.testing.assert_allclose(b, a / a.sum(axis=1, keepdims=True), rtol=1e-5, atol=0)
    np.testing.assert_allclose(b.sum(axis=1), np.ones(rows), rtol=1e-5, atol=0)

scale = tvm.tirx.compile(scale_rows, target="cuda")
for rows, cols in [(2, 8), (3, 132)]:
    a = np.linspace(-3, 3, rows * cols, dtype="float32").reshape(rows, cols)
    b = np.zeros((rows, cols), dtype="float32")
    scale(rows, cols, a, b)
    np.testing.assert_allclose(b, a * -2, rtol=0, atol=0)
    np.testing.assert_allclose(b.T, np.transpose(a * -2), rtol=0, atol=0)
