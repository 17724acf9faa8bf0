# A symbolic row length: a region one chunk past a row's end stays inside the tensor's storage (it
# is the next row's start), so the simulator checks every index of a region of such a tensor
# against its own dimension, whose extent the call bound (E0710). The static checker cannot: the
# extent is only known per call.
import numpy as np
import tvm
from tvm.script import tirx as T

m = T.dynamic("m")
n = T.dynamic("n")


@T.function
def second_chunk(A: T.Tensor((m, n), "float32"), B: T.Tensor((m, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=m, block=1))
    r = T.cuda.block_idx("x")
    R = T.alloc_local((1, 4), "float32")
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[r : r + 1, 4:8])
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[r : r + 1, 0:4], R)


f = tvm.tirx.compile(second_chunk, target="cuda")
a = np.ones((2, 4), dtype="float32")
b = np.zeros((2, 4), dtype="float32")
f(a, b)
np.testing.assert_allclose(b, a)
