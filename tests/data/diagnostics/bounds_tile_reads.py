# static bounds of tile reads: element reads and regions of register and shared tiles, over the
# loop ranges (the analysis of E0291 for global stores, applied to tiles)
from tvm.script import tirx as T


@T.function
def k(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tx = T.cuda.thread_idx("x")
    tmp = T.alloc_local((2,), "float32")
    sh = T.alloc_shared((32,), "float32")
    for i in range(2):
        tmp[i] = A[tx * 2 + i]
    sh[tx] = tmp[0]
    T.cuda.cta_sync()
    for i in range(3):
        # expected-error@+1 E0291 {{access 'tmp[i]' reaches index 2 of dimension 0 (extent 2)}}
        B[tx * 2 + i % 2] = tmp[i]
    # expected-error@+1 E0291 {{access 'sh[tx + 1]' reaches index 32 of dimension 0 (extent 32)}}
    B[tx] = sh[tx + 1]
