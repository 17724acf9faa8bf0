# bar.arrive orders what the arriving threads wrote before it with what the bar.sync threads do
# after, but the arriving threads themselves go on at once: warpgroup 0 writing S after its
# bar.arrive races with warpgroup 1 reading S after its bar.sync.
from tvm.script import tirx as T


@T.function
def arrive_race(Out: T.Tensor((128,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=256))
    tid = T.cuda.thread_idx("x")
    wg = tid // 128
    S = T.alloc_shared((128,), "float32", layout="default")
    if wg == 0:
        S[tid] = T.float32(1)
        T.ptx.bar.arrive(5, 256)
        S[tid] = T.float32(2)
    else:
        T.ptx.bar.sync(5, 256)
        # expected-fault@+1 E0701 {{race on 'S'}} {{after a write by thread 127 (line 16)}}
        Out[tid - 128] = S[tid - 128]
