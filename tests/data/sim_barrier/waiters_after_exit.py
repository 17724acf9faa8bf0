# Warpgroup 1 exits without arriving: warpgroup 0 waits at barrier 4 for 256 threads and only its
# own 128 can ever come. The deadlock names the waiting and the finished warps.
from tvm.script import tirx as T


@T.function
def waiters(Out: T.Tensor((256,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=256))
    tid = T.cuda.thread_idx("x")
    wg = tid // 128
    Out[tid] = T.float32(1)
    if wg == 0:
        # expected-fault@+1 E0734 {{deadlock at named barrier 4: 128 of 256 threads arrived}} {{warps 0–3 wait here, warps 4–7 finished}}
        T.ptx.bar.sync(4, 256)
