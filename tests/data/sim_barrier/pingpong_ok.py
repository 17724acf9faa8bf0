# Two warpgroups take turns (FA3's ping-pong between consumer warpgroups): warpgroup w waits on
# named barrier 1 + w (its own 128 threads with bar.sync plus the other warpgroup's 128 with
# bar.arrive: 256), does its turn on the shared tile and hands the turn over with bar.arrive on the
# other's barrier. Warpgroup 1 first arrives on barrier 1 so that warpgroup 0 starts. Each turn
# reads what the other warpgroup wrote in the previous one: the barriers order the accesses, so the
# race detector stays silent.
# expected-no-faults
from tvm.script import tirx as T


@T.function
def pingpong(Out: T.Tensor((128,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=256))
    tid = T.cuda.thread_idx("x")
    wg = tid // 128
    S = T.alloc_shared((128,), "float32", layout="default")
    if wg == 0:
        S[tid] = T.float32(0)
    T.cuda.cta_sync()
    if wg == 1:
        T.ptx.bar.arrive(1, 256)
    for i in range(4):
        T.ptx.bar.sync(1 + wg, 256)
        S[tid % 128] = S[tid % 128] * T.float32(2) + T.float32(wg + 1)
        T.ptx.bar.arrive(2 - wg, 256)
    T.cuda.cta_sync()
    if wg == 0:
        Out[tid] = S[tid]
