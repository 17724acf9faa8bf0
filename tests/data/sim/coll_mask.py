# lanes 0-15 shuffle with mask 0xffff, and lane l reads lane l + 4: lanes 12-15 read 16-19, outside
from tvm.script import tirx as T


@T.function
def k(A: T.Tensor((32,), "int32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    lane = T.cuda.lane_id()
    v = A[lane]
    if lane < 16:
        v = T.cuda.__shfl_sync(0xFFFF, v, lane + 4)  # SHFL
    A[lane] = v
