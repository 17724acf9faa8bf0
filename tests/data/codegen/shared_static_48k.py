# Exactly 48 KiB of shared tiles stay static `__shared__` arrays (the dynamic form starts above it).
# CHECK: __shared__ alignas(16) float S[12288];
# CHECK-NOT: extern __shared__
# CHECK-PTX: .shared .align 16 .b8
from tvm.script import tirx as T


@T.function
def at_limit(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    S = T.alloc_shared((12288,), "float32")
    for j in range(192):
        S[tid * 192 + j] = A[tid]
    T.cuda.cta_sync()
    B[tid] = S[((tid + 1) % 64) * 192]
