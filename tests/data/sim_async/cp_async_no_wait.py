# Each thread reads its own row right after issuing the copy: the bytes are still in flight (the
# simulator lands a cp.async at the issuing thread's covering wait_group).
from tvm.script import tirx as T


@T.function
def no_wait(A: T.Tensor((64, 4), "float32"), Out: T.Tensor((64, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    S = T.alloc_shared((64, 4), "float32", layout="default", align=16)
    T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], S.sub[tid, :], A.sub[tid, :], chunk_bytes=16)
    T.ptx.cp.async_.commit_group()
    # expected-fault@+1 E0702 {{read of 'S' byte offset 0 by cta 0 thread 0 (warp 0, lane 0) before the async copy that writes it completed}}
    Out[tid, 0] = S[tid, 0]
    T.ptx.cp.async_.wait_group(0)
