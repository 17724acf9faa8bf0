# divergent warp collective: lanes 0-15 shuffle inside an if, lanes 16-31 at the next shuffle
from tvm.script import tirx as T


@T.function
def k(A: T.Tensor((32,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    lane = T.cuda.lane_id()
    v = A[lane]
    if lane < 16:
        v = T.cuda.__shfl_xor_sync(0xFFFFFFFF, v, 1)  # FIRST
    v = T.cuda.__shfl_xor_sync(0xFFFFFFFF, v, 2)  # SECOND
    A[lane] = v
