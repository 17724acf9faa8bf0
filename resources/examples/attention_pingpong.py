# The ping-pong of two consumer warpgroups that FlashAttention-3 schedules its GEMMs with, on named
# barriers (PTX bar.sync / bar.arrive with a thread count; decision BAR-1). Warpgroup w waits with
# bar.sync(1 + w, 256) — its own 128 threads plus the other warpgroup's 128 arrivals — takes its
# turn on the shared tile, and hands the turn over with bar.arrive(2 - w, 256), which does not
# wait. Warpgroup 1 arrives on barrier 1 once before the loop so that warpgroup 0 goes first. Each
# turn doubles the tile and adds the warpgroup's number, reading what the other warpgroup wrote
# in the turn before: the barriers order every access (the simulator's race detector checks it),
# and the result 2·x + 1, 2·x + 2, ... over 8 turns is 170 in every element. Without the first
# bar.arrive both warpgroups wait forever; the simulator reports the deadlock (E0734) with the
# barrier, its arrivals and the waiting warps.
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


import numpy as np
import tvm

out = tvm.runtime.tensor(np.zeros(128, dtype="float32"), tvm.cuda())
tvm.tirx.compile(pingpong, target="cuda", pipeline="tirx")(out)
x = 0.0
for turn in range(8):
    x = 2 * x + turn % 2 + 1
np.testing.assert_array_equal(out.numpy(), np.full(128, x, dtype="float32"))
