# An mbarrier operand is `bar.ptr_to([i])` of a shared uint64 tensor (decision ASYNC-1).
from tvm.script import tirx as T


@T.function
def operands(Out: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    bars = T.alloc_shared((2,), "uint64", layout="default")
    words = T.alloc_shared((2,), "uint32", layout="default")
    # expected-error@+1 E0274 {{an mbarrier operand is `bar.ptr_to([i])`}} {{found 'bars[0]'}}
    T.ptx.mbarrier.init.shared.b64(bars[0], 1)
    # expected-error@+1 E0274 {{'words' (shared uint32)}}
    T.ptx.mbarrier.arrive.shared.b64(words.ptr_to([0]))
    # expected-error@+1 E0274 {{'Out' (global float32)}}
    T.ptx.mbarrier.arrive.shared.b64(Out.ptr_to([0]))
    # expected-error@+1 E0137 {{index 2 is out of bounds}}
    T.cuda.mbarrier_wait(bars.ptr_to([2]), 0)
    # expected-error@+1 E0138 {{needs 1 indices, found 2}}
    T.cuda.mbarrier_wait(bars.ptr_to([0, 0]), 0)
    Out[tid] = T.float32(1)
