# The ping-pong of pingpong_ok.py without warpgroup 1's first bar.arrive: warpgroup 0 waits on
# barrier 1 for the 128 arrivals that never come, and warpgroup 1 waits on barrier 2 for
# warpgroup 0. On a GPU both would hang; the simulator names the barrier, the arrivals against the
# count, the waiting warps and the other barrier's waiters.
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
    for i in range(4):
        # expected-fault@+1 E0734 {{deadlock at named barrier 1: 128 of 256 threads arrived}} {{warps 0–3 wait here}}
        T.ptx.bar.sync(1 + wg, 256)
        S[tid % 128] = S[tid % 128] * T.float32(2) + T.float32(wg + 1)
        T.ptx.bar.arrive(2 - wg, 256)
    T.cuda.cta_sync()
    if wg == 0:
        Out[tid] = S[tid]
