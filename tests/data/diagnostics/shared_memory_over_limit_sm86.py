# shared memory per block: 128 KiB fits sm_90 but not sm_86 (99 KiB); 4 MiB fits nowhere
# arch: sm_86
from tvm.script import tirx as T


@T.function
def k(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    # expected-error@+1 E0125 {{limit of sm_86}}
    S = T.alloc_shared((32768,), "float32")
    S[tid] = A[tid]
    T.cuda.cta_sync()
    B[tid] = S[(tid + 1) % 64]


@T.function
def huge(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    # expected-error@+1 E0125 {{kernel 'huge' needs 4194304 bytes of shared memory per block}}
    S = T.alloc_shared((1048576,), "float32")
    S[tid] = A[tid]
    T.cuda.cta_sync()
    B[tid] = S[(tid + 1) % 64]
