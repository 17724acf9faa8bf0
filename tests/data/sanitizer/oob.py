# Every thread stores one row below its own: thread 63 writes row 64 of a (64, 4) tensor (E0710).
from tvm.script import tirx as T


@T.function
def shift_down(A: T.Tensor((64, 4), "float32"), Out: T.Tensor((64, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    for j in range(4):
        Out[tid + 1, j] = A[tid, j]
