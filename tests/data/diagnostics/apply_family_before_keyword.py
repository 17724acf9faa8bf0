# an unsupported instruction family and an unsupported keyword in one call: the family is the
# root cause and the only error
from tvm.script import tirx as T

@T.function
def k(A: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    R = T.alloc_local((4,), "float32")
    # expected-error@+1 E0350 {{family 'tcgen05'}}
    T.cuda.tile.apply(T.ptx["tcgen05.ld.sync.aligned.32x32b.x4.b32"], R, A[0:4], bogus=3)
