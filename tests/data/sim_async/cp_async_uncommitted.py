# A copy that is never committed nor waited on: legal PTX, but its bytes may land after the
# thread exits. A lint (warning), not an error.
from tvm.script import tirx as T


@T.function
def uncommitted(A: T.Tensor((32, 4), "float32"), Out: T.Tensor((32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    S = T.alloc_shared((32, 4), "float32", layout="default", align=16)
    # expected-fault@+1 W0700 {{never committed}}
    T.cuda.tile.apply(T.ptx["cp.async.ca.shared.global"], S.sub[tid, :], A.sub[tid, :], chunk_bytes=16)
    Out[tid, 0] = A[tid, 0]
