# module-level float constants (decision L-1): a Python float at each use, taking the dtype of the
# other operand; constant expressions of them fold; harness values stay refused with the reason
import math

import numpy as np
from tvm.script import tirx as T

LOG2E = 1.4426950408889634
SCALE = 1.0 / math.sqrt(64)
HALF = 1 / 2
TWO_PI = 2 * math.pi
NP_VALUE = np.float32(1.5)


@T.function
def k(A: T.Tensor((64,), "float32"), H: T.Tensor((64,), "float16"), I: T.Tensor((64,), "int32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tx = T.cuda.thread_idx("x")
    A[tx] = T.exp2(A[tx] * LOG2E) * SCALE + HALF - TWO_PI
    H[tx] = H[tx] * LOG2E
    scale = LOG2E
    A[tx] = A[tx] * scale
    # expected-error@+1 E0150 {{expects int32, found a float literal}}
    I[tx] = I[tx] * HALF
    # expected-error@+1 E0155 {{'NP_VALUE' cannot be used as a scalar value}}
    A[tx] = A[tx] * NP_VALUE
    # expected-error@+1 E0141 {{an index must be an integer, found 'HALF'}}
    for i in range(HALF):
        A[i] = 0.0
