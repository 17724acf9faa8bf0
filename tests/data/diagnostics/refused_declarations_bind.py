# a refused parameter or allocation still binds its name: one error each, no "unknown name" at
# every later use, and a statement that uses it is skipped (with what it would define)
from tvm.script import tirx as T

@T.function
# expected-error@+1 E0114 {{expected a dtype}}
def k(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "floaty32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    # expected-error@+1 E0114 {{expected a dtype}}
    C = T.alloc_shared((64,), "floot32")
    i = T.cuda.thread_idx("x")
    B[i] = A[i]
    C[i] = A[i]
    v = B[i] + T.float32(1)
    A[i] = v
    # later, independent errors are still reported
    # expected-error@+1 E0100 {{unknown name 'w'}}
    A[i] = w
