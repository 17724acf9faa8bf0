# symbolic extents: the leading dimension and at most one other, default layout, no views or open
# slices, and tile operands with static shapes (E0292)
from tvm.script import tirx as T

n = T.dynamic("n")

@T.function
# expected-error@+2 E0292 {{at most one dimension after the leading one may be symbolic, found 'n' as dimension 2}}
# expected-error@+1 E0292 {{strides= is not supported}}
def k(A: T.Tensor((n, 4), "float32"), B: T.Tensor((4, n, n), "float32"), C: T.Tensor((n,), "float32", strides=(1,)), D: T.Tensor((n,), "float32")):
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
def rows(E: T.Tensor((n, n), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 64), block=64))
    R = T.alloc_local((1, 4), "float32")
    # expected-error@+1 E0292 {{needs both bounds}}
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, E[0:1, 4:])
    # expected-error@+1 E0292 {{a view of 'E[0:1, 0:4]', which has a symbolic extent in a non-leading dimension}}
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, E[0:1, 0:4].view("uint32"))
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, E[3:4, 4:8])

@T.function
def g(m: T.int32, A: T.Tensor((m,), "float32"), x: T.float32):
    # expected-error@+1 E0120 {{runtime grid extent is integer arithmetic}}
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.cuda.thread_idx("x") + m, block=64))

@T.function
def h(m: T.int32, A: T.Tensor((m,), "float32")):
    # expected-error@+1 E0120 {{static integers}}
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=m))
