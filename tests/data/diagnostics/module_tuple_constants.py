# `ROWS, COLS = 8, 4` binds module constants pairwise; a swap reads the old values first, so
# it is left to the harness (its names are not static integers for TIRx code)
from tvm.script import tirx as T

ROWS, COLS = 8, 4
P, Q = 2, 3
P, Q = Q, P

@T.function
def k(A: T.Tensor((ROWS, COLS), "float32")):
    # expected-error@+1 E0155 {{'P' cannot be used as a scalar value}}
    T.device_entry(launch=T.cuda.LaunchConfig(grid=P, block=COLS))
