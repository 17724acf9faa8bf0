# Check code using a library the harness does not model: a diagnostic at the import, not a crash.
from tvm.script import tirx as T


@T.function
def copy(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=4))
    tid = T.cuda.thread_idx("x")
    B[tid] = A[tid]


import scipy
