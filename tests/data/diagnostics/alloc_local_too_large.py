# limits: local (per-thread) arrays are bounded by CUDA's local-memory limit of 512 KiB per thread
# (a huge T.alloc_local made the simulator throw std::bad_alloc)
from tvm.script import tirx as T

@T.function
def k(A: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    # expected-error@+1 E0243 {{allocation 'R' needs more than 524288 bytes per thread, more than CUDA's local-memory limit of 524288 bytes (512 KiB) per thread}}
    R = T.alloc_local((1 << 36,), "float32")
    P = T.alloc_local((131072,), "float32")
    # expected-error@+1 E0243 {{allocation 'Q' needs 8 bytes per thread after 524288 bytes of earlier local allocations}}
    Q = T.alloc_local((2,), "float32")
    P[0] = T.float32(1)
    A[0] = P[0]
