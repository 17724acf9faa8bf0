# a kernel built inside a Python function (a builder returning a prim_func): refused at the call
from tvm.script import tirx as T


def make_scale(n):
    @T.function
    def scale(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        tid = T.cuda.thread_idx("x")
        B[tid] = A[tid] * T.float32(2)

    return scale


# expected-error@+1 E0118 {{'make_scale' builds the kernel 'scale' inside a Python function}} {{define 'scale' at module level with @T.function}}
kernel = make_scale(64)
