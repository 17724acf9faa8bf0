# A kernel without check code: verified by a seeded run (simulator; and the GPU when present).
from tvm.script import tirx as T


@T.function
def scale(A: T.Tensor((256,), "float32"), B: T.Tensor((256,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=2, block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    B[i] = A[i] * T.float32(3) + T.float32(1)
