# a region start need not be affine in the block index: the extent is the symbolic difference
# stop - start, here exactly 4 (bx % 2 is one opaque integer on both sides)
from tvm.script import tirx as T

@T.function
def k(A: T.Tensor((8, 4), "float32"), B: T.Tensor((8, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=2, block=1))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((4, 4), "float32")
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx % 2 * 4 : bx % 2 * 4 + 4, :])
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[(bx + 1) % 2 * 4 : 4 + (bx + 1) % 2 * 4, :], R)
# expected-no-diagnostics
