# The correct order for a TMA store of thread-written data: ordinary stores, fence.proxy.async in
# the writing threads, cta_sync, then one thread issues the store and waits for its bulk group.
# expected-no-faults
from tvm.script import tirx as T


@T.function
def fenced(B: T.Tensor((8, 32), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    Bs = T.alloc_shared((8, 32), "float32", align=128)
    for i in range(8):
        Bs[i, tid] = T.float32(i)
    T.ptx.fence.proxy.async_.shared__cta()
    T.cuda.cta_sync()
    if tid == 0:
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.global.shared::cta.bulk_group"], B, Bs, box=[8, 32], coords=[0, 0])
        T.ptx.cp.async_.bulk.commit_group()
        T.ptx.cp.async_.bulk.wait_group(0)
