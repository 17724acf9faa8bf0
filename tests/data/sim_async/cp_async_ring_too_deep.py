# The same ring with wait_group(2): the group of round r may still be in flight when round r is
# read (only groups older than the two newest have landed).
from tvm.script import tirx as T


@T.function
def too_deep(A: T.Tensor((8, 64, 4), "float32"), Out: T.Tensor((8, 64), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    S = T.alloc_shared((2, 64, 4), "float32", layout="default", align=16)
    T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], S.sub[0, tid, :], A.sub[0, tid, :], chunk_bytes=16)
    T.ptx.cp.async_.commit_group()
    for r in range(8):
        if r + 1 < 8:
            # expected-fault@+4 E0703 {{writes shared byte 0 while an earlier async copy by thread 0 that writes it is in flight}}
            # expected-fault@+3 E0703 {{writes shared byte 1024 while an earlier async copy by thread 0}}
            # expected-fault@+2 W0700 {{committed but never waited on}}
            # the read below finds the copies of rounds 0 and 1 in flight (two issue lines: two faults)
            T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], S.sub[(r + 1) % 2, tid, :], A.sub[r + 1, tid, :], chunk_bytes=16)
        T.ptx.cp.async_.commit_group()
        T.ptx.cp.async_.wait_group(2)
        T.cuda.cta_sync()
        # expected-fault@+2 E0702 {{read of 'S' byte offset 0 by cta 0 thread 0 (warp 0, lane 0) before the async copy}}
        # expected-fault@+1 E0702 {{read of 'S' byte offset 1024 by cta 0 thread 0 (warp 0, lane 0) before the async copy}}
        Out[r, tid] = S[r % 2, tid, 0]
        T.cuda.cta_sync()
