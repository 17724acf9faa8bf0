# bar.sync without a count waits for every thread of the block (like __syncthreads, on another
# barrier id) and orders the shared accesses; bar.sync with a count of 128 completes twice here,
# once per 128 arrivals.
# expected-no-faults
from tvm.script import tirx as T


@T.function
def whole(Out: T.Tensor((256,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=256))
    tid = T.cuda.thread_idx("x")
    S = T.alloc_shared((256,), "float32", layout="default")
    S[tid] = T.float32(tid)
    T.ptx.bar.sync(7)
    Out[tid] = S[255 - tid]
    T.ptx.bar.sync(8, 128)
    Out[tid] = Out[tid] + T.float32(1)
