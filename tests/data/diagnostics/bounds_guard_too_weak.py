# static bounds: a guard that still lets some index through is not enough
from tvm.script import tirx as T

@T.function
def k(A: T.Tensor((100,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=2, block=64))
    i = T.cuda.block_idx("x") * 64 + T.cuda.thread_idx("x")
    if i <= 100:
        # expected-error@+1 E0291 {{reaches index 100 of dimension 0 (extent 100)}}
        A[i] = T.float32(1)
