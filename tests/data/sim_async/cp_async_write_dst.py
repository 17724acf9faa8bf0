# A thread overwrites the destination of its own in-flight copy.
from tvm.script import tirx as T


@T.function
def write_dst(A: T.Tensor((32, 4), "float32"), Out: T.Tensor((32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    S = T.alloc_shared((32, 4), "float32", layout="default", align=16)
    T.cuda.tile.apply(T.ptx["cp.async.ca.shared.global"], S.sub[tid, :], A.sub[tid, :], chunk_bytes=16)
    T.ptx.cp.async_.commit_group()
    # expected-fault@+1 E0702 {{write to 'S' byte offset 4 by cta 0 thread 0 (warp 0, lane 0) before the async copy that writes it completed}}
    S[tid, 1] = T.float32(0)
    T.ptx.cp.async_.wait_group(0)
    Out[tid, 0] = S[tid, 0]
