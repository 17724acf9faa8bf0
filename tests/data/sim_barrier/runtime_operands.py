# Named barrier operands known only at run time are checked when a thread arrives: here the count
# comes from the scalar parameter n, which this run passes as 0 (not a positive multiple of 32).
from tvm.script import tirx as T


@T.function
def runtime_count(Out: T.Tensor((128,), "float32"), n: T.int32):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
    tid = T.cuda.thread_idx("x")
    # expected-fault@+1 E0735 {{bar.sync 2 with a thread count of 0: a count is a positive multiple of 32 and at most the block's 128 threads}}
    T.ptx.bar.sync(2, n * 32)
    Out[tid] = T.float32(1)
