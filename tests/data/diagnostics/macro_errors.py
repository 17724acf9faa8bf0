# @T.macro (decision L-2): findings in a macro body are reported at the call, with the body's line
# as a note; argument binding follows Python; hygiene decides where free names resolve
from tvm.script import tirx as T

SCALE = 2


@T.macro
def store_scaled(dst, i, v):
    dst[i] = v * SCALE


@T.macro
def uses_caller_local(dst):
    dst[0] = T.float32(depth)


@T.macro(hygienic=False)
def sees_caller_local(dst):
    dst[1] = T.float32(depth)


@T.macro
def typo(dst):
    dst[0] = valeu


@T.macro
def again(dst):
    again(dst)


@T.macro
def bumps(x):
    x += 1


@T.macro
def gives():
    # expected-error@+1 E0126 {{a T.macro body is inlined as statements and cannot return}}
    return 1


@T.macro
# expected-error@+1 E0126 {{macro parameters cannot be *args or **kwargs}}
def star(*args):
    pass


@T.function
def k(A: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tx = T.cuda.thread_idx("x")
    depth = 3
    store_scaled(A, tx, A[tx])
    store_scaled(A, i=tx, v=1.5)
    sees_caller_local(A)
    # expected-error@+1 E0100 {{unknown name 'depth'}}
    uses_caller_local(A)
    # expected-error@+1 E0100 {{unknown name 'valeu'}}
    typo(A)
    # expected-error@+1 E0126 {{macro 'again' expands itself}}
    again(A)
    # expected-error@+1 E0126 {{cannot update its caller's variable 'x'}}
    bumps(depth)
    # expected-error@+1 E0104 {{macro 'store_scaled' needs an argument for parameter 'v'}}
    store_scaled(A, tx)
    # expected-error@+1 E0103 {{macro 'store_scaled' has no parameter 'val'}}
    store_scaled(A, tx, val=1.0)
    # expected-error@+1 E0155 {{macro 'store_scaled' does not produce a value}}
    y = store_scaled(A, tx, 1.0)
    gives()
    star()
