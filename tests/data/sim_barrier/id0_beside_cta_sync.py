# Named barrier 0 is the one T.cuda.cta_sync() (__syncthreads) uses for the whole block; a kernel
# that calls cta_sync and also uses barrier 0 with a count is refused when it arrives (BAR-1).
from tvm.script import tirx as T


@T.function
def id0(Out: T.Tensor((128,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
    tid = T.cuda.thread_idx("x")
    T.cuda.cta_sync()
    # expected-fault@+1 E0735 {{named barrier 0 is the one T.cuda.cta_sync() (__syncthreads) uses}}
    T.ptx.bar.sync(0, 128)
    Out[tid] = T.float32(1)
