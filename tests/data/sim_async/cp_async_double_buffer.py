# A two-stage ring: the copy of round r + 1 is in flight while round r is read. wait_group(1)
# lands every group but the newest one, so the reads of stage r % 2 are safe, and the cta_sync
# after them keeps the next copy into that stage from racing with the neighbour's read.
# expected-no-faults
from tvm.script import tirx as T


@T.function
def double_buffer(A: T.Tensor((8, 64, 4), "float32"), Out: T.Tensor((8, 64), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    S = T.alloc_shared((2, 64, 4), "float32", layout="default", align=16)
    T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], S.sub[0, tid, :], A.sub[0, tid, :], chunk_bytes=16)
    T.ptx.cp.async_.commit_group()
    for r in range(8):
        if r + 1 < 8:
            T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], S.sub[(r + 1) % 2, tid, :], A.sub[r + 1, tid, :], chunk_bytes=16)
        T.ptx.cp.async_.commit_group()
        T.ptx.cp.async_.wait_group(1)
        T.cuda.cta_sync()
        Out[r, tid] = S[r % 2, (tid + 1) % 64, 0] + S[r % 2, tid, 3]
        T.cuda.cta_sync()
