# A harness error quoting invalid UTF-8 from the script: --json must stay valid JSON (issue 8).
from tvm.script import tirx as T


@T.function
def double(A: T.Tensor((4, 8), "float32"), B: T.Tensor((4, 8), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    for r in range(4):
        B[r, tid % 8] = A[r, tid % 8] * T.float32(2)

import numpy as np
x = int("1˜")
