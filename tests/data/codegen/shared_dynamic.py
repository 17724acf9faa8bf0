# Shared tiles over 48 KiB (here 64 KiB + 32 KiB + 16 B) become one dynamic shared array with the
# tiles at their planned offsets; NVRTC and ptxas accept it for sm_90 (a static 96 KiB array would
# be refused: "uses too much shared data").
# CHECK: extern "C" __global__ void __launch_bounds__(64) big_shared(
# CHECK: extern __shared__ __align__(16) unsigned char tirx_smem[];
# CHECK: float* const S1 = reinterpret_cast<float*>(tirx_smem + 0);
# CHECK: float* const S2 = reinterpret_cast<float*>(tirx_smem + 65536);
# CHECK: float* const S3 = reinterpret_cast<float*>(tirx_smem + 98304);
# CHECK-NOT: __shared__ alignas
# CHECK-PTX: .extern .shared .align 16 .b8 tirx_smem[];
# CHECK-PTX-COUNT-2: bar.sync
from tvm.script import tirx as T


@T.function
def big_shared(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    S1 = T.alloc_shared((16384,), "float32")
    S2 = T.alloc_shared((8192,), "float32")
    S3 = T.alloc_shared((4,), "float32")
    for j in range(256):
        S1[tid * 256 + j] = A[tid]
        S2[tid * 128 + j % 128] = A[tid] * T.float32(2)
    if tid < 4:
        S3[tid] = A[tid]
    T.cuda.cta_sync()
    B[tid] = S1[((tid + 1) % 64) * 256 + 255] + S2[tid * 128] + S3[tid % 4]
    T.cuda.cta_sync()
