# Threads fill a tile with ordinary stores and a TMA store reads it after cta_sync, without the
# generic->async proxy fence (spec TC §1.2): the TMA may read stale bytes.
from tvm.script import tirx as T


@T.function
def nofence(B: T.Tensor((8, 32), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    Bs = T.alloc_shared((8, 32), "float32", align=128)
    for i in range(8):
        Bs[i, tid] = T.float32(i)
    T.cuda.cta_sync()
    if tid == 0:
        # expected-fault@+1 E0785 {{without a fence.proxy.async}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.global.shared::cta.bulk_group"], B, Bs, box=[8, 32], coords=[0, 0])
        T.ptx.cp.async_.bulk.commit_group()
        T.ptx.cp.async_.bulk.wait_group(0)
