# The Asynchronous Copies guide's pattern: every thread cp.async's its own 16-byte row, waits for
# its group, and after a cta_sync reads its neighbour's row. No fault: the wait lands each copy,
# the barrier after it makes it visible to the neighbour.
# expected-no-faults
from tvm.script import tirx as T


@T.function
def next_row(A: T.Tensor((64, 4), "float32"), Out: T.Tensor((64, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    S = T.alloc_shared((64, 4), "float32", layout="default", align=16)
    T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], S.sub[tid, :], A.sub[tid, :], chunk_bytes=16)
    T.ptx.cp.async_.commit_group()
    T.ptx.cp.async_.wait_group(0)
    T.cuda.cta_sync()
    for j in range(4):
        Out[tid, j] = S[(tid + 1) % 64, j]
