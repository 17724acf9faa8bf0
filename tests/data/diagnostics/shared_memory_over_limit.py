# shared memory per block: 200 KiB + 40 KiB crosses sm_90's 227 KiB at the second tile
from tvm.script import tirx as T


@T.function
def k(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    S1 = T.alloc_shared((51200,), "float32")
    # expected-error@+1 E0125 {{with 'S2' (40960 bytes) kernel 'k' needs 245760 bytes of shared memory per block, over the 232448-byte (227 KiB) limit of sm_90}}
    S2 = T.alloc_shared((10240,), "float32")
    S1[tid] = A[tid]
    S2[tid] = A[tid]
    T.cuda.cta_sync()
    B[tid] = S1[(tid + 1) % 64] + S2[tid]
