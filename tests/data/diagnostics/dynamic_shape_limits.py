# symbolic extents: only the leading dimension, default layout, no views or open slices, and tile
# operands with static shapes (E0292)
from tvm.script import tirx as T

n = T.dynamic("n")

@T.function
# expected-error@+2 E0292 {{only the leading dimension of a tensor may be symbolic}}
# expected-error@+1 E0292 {{strides= is not supported}}
def k(A: T.Tensor((n, 4), "float32"), B: T.Tensor((4, n), "float32"), C: T.Tensor((n,), "float32", strides=(1,)), D: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 64), block=64))
    R = T.alloc_local((4,), "float32")
    # expected-error@+1 E0292 {{tile operand 'D' has a symbolic extent}}
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, D)
    # expected-error@+1 E0292 {{a view of 'A'}}
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A.view(-1).sub[0])
    # expected-error@+1 E0292 {{needs both bounds}}
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[4:, 0])
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, D[4:8])

@T.function
def g(m: T.int32, A: T.Tensor((m,), "float32"), x: T.float32):
    # expected-error@+1 E0120 {{runtime grid extent is integer arithmetic}}
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.cuda.thread_idx("x") + m, block=64))

@T.function
def h(m: T.int32, A: T.Tensor((m,), "float32")):
    # expected-error@+1 E0120 {{static integers}}
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=m))
