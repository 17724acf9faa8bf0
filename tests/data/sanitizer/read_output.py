# Accumulates into an output the caller never initialised: `tirx run` without --input leaves Out
# undefined, so the simulator reports E0720 and compute-sanitizer --tool initcheck the read.
from tvm.script import tirx as T


@T.function
def accumulate(A: T.Tensor((64,), "float32"), Out: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    Out[tid] = Out[tid] + A[tid]
