# Unknown asynchronous spellings get a "did you mean"; the statements produce no value.
from tvm.script import tirx as T


@T.function
def spelling(Out: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    bars = T.alloc_shared((2,), "uint64", layout="default")
    # expected-error@+1 E0101 {{unknown TIRx name 'T.ptx.mbarrier.arive.shared.b64'}}
    T.ptx.mbarrier.arive.shared.b64(bars.ptr_to([0]))
    # expected-error@+1 E0101 {{unknown TIRx name 'T.ptx.cp.async_.commit'}}
    T.ptx.cp.async_.commit()
    # expected-error@+1 E0155 {{does not produce a value}}
    x = T.ptx.cp.async_.commit_group()
    Out[tid] = T.float32(1)
