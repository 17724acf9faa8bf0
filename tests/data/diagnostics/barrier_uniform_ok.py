# barriers: a block-uniform condition is fine (no diagnostics)
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def k(A: T.Tensor((64,), "float32"), n: T.int32):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=2, block=64))
    tid = T.cuda.thread_idx("x")
    if T.cuda.block_idx("x") < n:
        A[tid] = T.float32(1)
        T.cuda.cta_sync()
# expected-no-diagnostics
