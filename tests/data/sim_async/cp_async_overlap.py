# Two copies of one group write the same 16 bytes: undefined in PTX.
from tvm.script import tirx as T


@T.function
def overlap(A: T.Tensor((64, 4), "float32"), Out: T.Tensor((64, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    S = T.alloc_shared((64, 4), "float32", layout="default", align=16)
    T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], S.sub[tid, :], A.sub[tid, :], chunk_bytes=16)
    # expected-fault@+1 E0704 {{two copies of one async group write shared byte}}
    T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], S.sub[tid, :], A.sub[tid + 32, :], chunk_bytes=16)
    T.ptx.cp.async_.commit_group()
    T.ptx.cp.async_.wait_group(0)
    Out[tid, 0] = S[tid, 0]
