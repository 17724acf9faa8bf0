# alignment through assigned variables (issue 13): a start held in a variable is proven exactly as
# if written inline, and refused the same way when its form does not give the atom's alignment; a
# variable assigned twice (here `+=` in the loop) is not known at all
from tvm.script import tirx as T

@T.function
def k(A: T.Tensor((1024,), "float32", align=16), p: T.int32):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=8, block=1))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((4,), "float32")
    base = bx * 2
    # expected-error@+1 E0182 {{only known to be a multiple of 2}}
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[base : base + 4])
    moved = bx * 16
    for j in range(4):
        # expected-error@+1 E0182 {{only known to be a multiple of 1}}
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], A[moved : moved + 4], R)
        moved += 4
    for j in range(4):
        odd = j * 8 + 2
        # expected-error@+1 E0182 {{only known to be a multiple of 2}}
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], A[odd + 512 : odd + 516], R)
    for j in range(2):
        if j == 1:
            p = p * 4
        # a parameter assigned once still holds the argument in the first iteration
        # expected-error@+1 E0182 {{only known to be a multiple of 1}}
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], A[p : p + 4], R)
