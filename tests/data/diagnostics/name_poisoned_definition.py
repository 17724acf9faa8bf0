# one typo, one error (issue 22): a module constant defined from an unknown name is reported at
# its definition, naming the unknown name; every use of the constant (shapes, launch sizes,
# layouts, loops, constants defined from it) is silent
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout

# expected-error@+1 E0100 {{unknown name 'foo'}}
STAGES = 4 + foo
N = STAGES * 16
lay = TileLayout(S[(STAGES, 16) : (16, 1)])
ROWS, COLS = 8, STAGES
# Python builtins and names something in the module binds (here a def further down) are not reported
K = max(2, 3)
later = helper_defined_below


@T.function
def k(A: T.Tensor((STAGES, 64), "float32"), C: T.Tensor((N,), "float32"), D: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=STAGES, block=32))
    s = T.alloc_shared((STAGES, 16), "float32", layout=lay)
    for i in range(STAGES):
        A[i, 0] = T.float32(STAGES)
    x = A[0:STAGES, 0:4]
    C[0] = T.float32(COLS)


@T.function
def inside(D: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    # expected-error@+1 E0100 {{unknown name 'bar'}}
    depth = 4 + bar
    for i in range(depth):
        D[i] = T.float32(depth)
    D[depth] = T.float32(0)


def helper_defined_below():
    pass
