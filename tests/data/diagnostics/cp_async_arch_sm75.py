# arch: sm_75
# cp.async needs sm_80.
from tvm.script import tirx as T


@T.function
def arch(A: T.Tensor((64, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    S = T.alloc_shared((64, 4), "float32", layout="default", align=16)
    # expected-error@+1 E0177 {{cp.async.cg.shared.global with 2 operands is not available on sm_75}}
    T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], S.sub[tid, :], A.sub[tid, :], chunk_bytes=16)
    # expected-error@+1 E0177 {{cp.async.commit_group is not available on sm_75}}
    T.ptx.cp.async_.commit_group()
