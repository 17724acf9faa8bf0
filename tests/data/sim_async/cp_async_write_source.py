# A thread overwrites the global source of its in-flight copy before waiting for it: the GPU reads
# the source at an unspecified time before completion, so the copied value is undefined.
from tvm.script import tirx as T


@T.function
def write_source(A: T.Tensor((32, 4), "float32"), Out: T.Tensor((32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    S = T.alloc_shared((32, 4), "float32", layout="default", align=16)
    T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], S.sub[tid, :], A.sub[tid, :], chunk_bytes=16)
    T.ptx.cp.async_.commit_group()
    # expected-fault@+1 E0703 {{write to global 'A' byte offset 8 by cta 0 thread 0 (warp 0, lane 0) while an in-flight cp.async of thread 0 reads it}}
    A[tid, 2] = T.float32(0)
    T.ptx.cp.async_.wait_group(0)
    Out[tid, 0] = S[tid, 0]
