# static bounds of element accesses: thread and loop ranges, a single assignment substituted
from tvm.script import tirx as T

@T.function
def k(A: T.Tensor((64,), "float32"), B: T.Tensor((16, 8), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tx = T.cuda.thread_idx("x")
    i = tx + 1
    # expected-error@+1 E0291 {{reaches index 64 of dimension 0 (extent 64)}}
    A[i] = T.float32(0)
    for j in range(0, 9, 2):
        # expected-error@+1 E0291 {{reaches index 8 of dimension 1 (extent 8)}}
        B[tx % 16, j] = A[tx]
    # expected-error@+1 E0291 {{reaches index -1}}
    A[tx] = A[tx - 1]
