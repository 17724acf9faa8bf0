# Reads a shared tile nobody wrote (E0721).
from tvm.script import tirx as T


@T.function
def read_garbage(A: T.Tensor((64,), "float32"), Out: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    S = T.alloc_shared((64,), "float32")
    T.cuda.cta_sync()
    Out[tid] = S[tid]
