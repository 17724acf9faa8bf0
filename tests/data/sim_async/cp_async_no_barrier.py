# wait_group(0) without the cta_sync: each copy is complete for its own thread only. Thread 0
# reads row 1 before thread 1 has even issued it (never-written shared memory), and thread 63
# reads row 0, landed by thread 0 with no barrier in between (a race naming the cp.async line).
from tvm.script import tirx as T


@T.function
def no_barrier(A: T.Tensor((64, 4), "float32"), Out: T.Tensor((64, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    S = T.alloc_shared((64, 4), "float32", layout="default", align=16)
    T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], S.sub[tid, :], A.sub[tid, :], chunk_bytes=16)
    T.ptx.cp.async_.wait_all()
    # expected-fault@+2 E0721 {{read of never-written shared memory}}
    # expected-fault@+1 E0701 {{read by cta 0 thread 63 (warp 1, lane 31) (line 16) after a write by thread 0 (line 12)}}
    Out[tid, 0] = S[(tid + 1) % 64, 0]
