# static bounds: the note naming a loop variable's range, for a loop variable with a high index (the fuzzer
# found the note read past "xyz" for variable numbers ending in 3..9)
from tvm.script import tirx as T

@T.function
def k(A: T.Tensor((64,), "float32"), B: T.Tensor((16, 8), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tx = T.cuda.thread_idx("x")
    a = tx + 1
    b = a + 1
    c = b + 1
    d = c + 1
    e = d + 1
    f = e + 1
    g = f + 1
    h = g + 1
    for j in range(0, 9, 2):
        # expected-error@+1 E0291 {{reaches index 8 of dimension 1 (extent 8)}}
        B[tx % 16, j] = A[h % 64]
