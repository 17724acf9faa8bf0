# T.ceildiv on static integers folds like (a + b - 1) // b: a launch extent, a shape, a constant
from tvm.script import tirx as T

N = 1000
BLOCKS = T.ceildiv(N, 256)

@T.function
def k(A: T.Tensor((T.ceildiv(N, 8) * 8,), "float32"), B: T.Tensor((BLOCKS * 256,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(N, 256), block=256))
    i = T.cuda.block_idx("x") * 256 + T.cuda.thread_idx("x")
    if i < N:
        B[i] = A[i] + T.float32(T.ceildiv(i, 3))
# expected-no-diagnostics
