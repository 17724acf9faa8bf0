# T.cuda.__shfl_xor_sync and friends: a warp collective used in the value of an assignment
from tvm.script import tirx as T


@T.function(private=True)
def twice(x: T.float32) -> T.float32:
    # expected-error@+1 E0270 {{is a warp collective; use it in the value of an assignment}}
    return T.cuda.__shfl_xor_sync(0xFFFFFFFF, x, 1) * T.float32(2)


@T.function
def k(A: T.Tensor((32,), "float32"), D: T.Tensor((32,), "float64")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    lane = T.cuda.lane_id()
    v = A[lane]
    v = v + T.cuda.__shfl_xor_sync(0xFFFFFFFF, v, 16)
    v += T.cuda.__shfl_down_sync(0xFFFFFFFF, v, 1, width=8)
    w = T.cuda.__shfl_sync(0xFFFF, lane, 0, 16)
    u = T.cuda.__shfl_up_sync(0xFFFFFFFF, v, 2)
    # expected-error@+1 E0270 {{use it in the value of an assignment or of an expression statement}}
    if T.cuda.__shfl_xor_sync(0xFFFFFFFF, v, 1) > v:
        A[lane] = v
    d = D[lane]
    # expected-error@+1 E0271 {{moves a 32-bit register (int32, uint32 or float32), found float64}}
    d = T.cuda.__shfl_xor_sync(0xFFFFFFFF, d, 1)
    # expected-error@+1 E0272 {{must be a static power of two from 1 to 32, found '3'}}
    v = T.cuda.__shfl_xor_sync(0xFFFFFFFF, v, 1, 3)
    # expected-error@+1 E0101 {{unknown TIRx name 'T.cuda.__shfl_or_sync'}}
    v = T.cuda.__shfl_or_sync(0xFFFFFFFF, v, 1)
    A[lane] = v
