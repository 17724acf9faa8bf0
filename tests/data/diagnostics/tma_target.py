# TMA needs sm_90
# arch: sm_80
from tvm.script import tirx as T

@T.function
def k(A: T.Tensor((8, 32), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    s = T.alloc_shared((8, 32), "float32", align=128)
    bar = T.alloc_shared((1,), "uint64")
    if T.cuda.thread_idx("x") == 0:
        # expected-error@+1 E0177 {{is not available on sm_80}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], s, A, box=[8, 32], coords=[0, 0], mbar=bar.ptr_to([0]))
