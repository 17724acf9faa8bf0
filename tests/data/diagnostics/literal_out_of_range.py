# literals: a bare integer takes the dtype of the other operand only when that dtype can hold it
# (the simulator wrapped 4294967296 to 0 in int32 code; the GPU code kept it 64-bit)
from tvm.script import tirx as T

@T.function
def k(A: T.Tensor((64,), "int32"), U: T.Tensor((64,), "uint32"), n: T.int32):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    # expected-error@+1 E0241 {{integer 4294967296 does not fit in int32}}
    A[tid] = tid + 4294967296
    # expected-error@+1 E0241 {{integer 2147483648 does not fit in int32 (store to 'A')}}
    A[0] = 2147483648
    # expected-error@+1 E0241 {{integer -1 does not fit in uint32}}
    U[tid] = U[tid] + -1
    # expected-error@+1 E0241 {{integer 300 does not fit in int8}}
    b = T.int8(300)
    # expected-error@+1 E0241 {{integer 4294967296 does not fit in int32}}
    x: T.int32 = 4294967296
    # expected-error@+1 E0241 {{integer 4294967295 does not fit in int32}}
    A[1] = n & 0xFFFFFFFF
    # in range: no diagnostic
    A[2] = 2147483647
    U[3] = 4294967295
    y = 4294967296
    z = y + 1
