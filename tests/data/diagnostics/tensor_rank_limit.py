# limits: tensors, allocations and views have at most 16 dimensions (the simulator's coordinate
# arrays held 8 or 12 and silently dropped the rest)
from tvm.script import tirx as T

@T.function
# expected-error@+1 E0242 {{a tensor of 17 dimensions; at most 16 are supported}}
def k(A: T.Tensor((1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2), "float32"), B: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    # expected-error@+1 E0242 {{an allocation of 17 dimensions}}
    S = T.alloc_shared((1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2), "float32")
    # expected-error@+1 E0242 {{a view of 17 dimensions}}
    V = B.view(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 64)
    W = B.view(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 64)
    W[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3] = T.float32(1)
