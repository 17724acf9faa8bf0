# ... but two different non-affine bounds have no static difference
from tvm.script import tirx as T

@T.function
def k(A: T.Tensor((8, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=2, block=1))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((4, 4), "float32")
    # expected-error@+1 E0139 {{must be static}}
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx % 2 * 4 : bx % 3 * 4 + 4, :])
