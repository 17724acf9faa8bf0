# static bounds: guards, opaque indices, loops with break and scalar parameters stay silent
from tvm.script import tirx as T

N = 1000

@T.function
def k(A: T.Tensor((N,), "float32"), B: T.Tensor((64,), "float32"), n: T.int32):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(N, 128), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    tx = T.cuda.thread_idx("x")
    if i < N:
        A[i] = A[i] + T.float32(1)
    if i >= N:
        pass
    else:
        A[i] = T.float32(2)
    if tx < 64:
        B[tx] = T.float32(0)
    if tx < n:
        B[tx % 64] = T.float32(1)
    if tx < 64 and B[tx] > T.float32(0):
        B[tx] = T.float32(3)
    for j in range(100):
        if j == 64:
            break
        B[j] = T.float32(4)
    for j in range(100):
        if j >= 64:
            continue
        B[j] = T.float32(6)
    if tx - 1 >= 0 and tx < 65:
        B[tx - 1] = T.float32(5)
# expected-no-diagnostics
