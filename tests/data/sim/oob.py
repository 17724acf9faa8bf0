# Every thread stores one row below its own: thread 63 writes row 64 of a (64, 4) tensor (E0710).
# (`% 64` keeps the index opaque to the checker's static bounds proof (E0291): this file tests the
# simulator's fault.)
from tvm.script import tirx as T


@T.function
def shift_down(A: T.Tensor((64, 4), "float32"), Out: T.Tensor((64, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x") % 64
    for j in range(4):
        Out[tid + 1, j] = A[tid, j]
