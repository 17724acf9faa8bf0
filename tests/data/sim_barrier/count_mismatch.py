# Every arrival of a phase must name the same thread count (PTX leaves a mismatch undefined):
# warpgroup 0 arrives on barrier 3 with 256, warpgroup 1 waits on it with 128.
from tvm.script import tirx as T


@T.function
def mismatch(Out: T.Tensor((256,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=256))
    tid = T.cuda.thread_idx("x")
    wg = tid // 128
    if wg == 0:
        T.ptx.bar.arrive(3, 256)
    else:
        # expected-fault@+1 E0735 {{thread count mismatch at named barrier 3}} {{arrives with 128 threads, but the phase began with 256}}
        T.ptx.bar.sync(3, 128)
    Out[tid] = T.float32(1)
