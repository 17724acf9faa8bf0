# Scalar kernel parameters: an int32 bound and a float32 value, bound per thread by the simulator.
from tvm.script import tirx as T


@T.function
def guarded_fill(A: T.Tensor((64,), "float32"), n: T.int32, v: T.float32):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    if tid < n:
        A[tid] = v
