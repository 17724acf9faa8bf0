# TMA copies (spec TC §5.1): the keyword table, operands, the barrier operand and the issuer
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout

@T.function
def k(A: T.Tensor((64, 64), "float32"), B: T.Tensor((64, 64), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    s = T.alloc_shared((8, 32), "float32", align=128)
    bar = T.alloc_shared((2,), "uint64")
    flag = T.alloc_shared((2,), "uint32")
    tid = T.cuda.thread_idx("x")
    # expected-error@+1 E0285 {{issued by every thread of the block (64 copies of the same box)}}
    T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], s, A, box=[8, 32], coords=[0, 0], mbar=bar.ptr_to([0]))
    if tid == 0:
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], s, A, box=[8, 32], coords=[tid, 32], mbar=bar.ptr_to([1]))
        # expected-error@+1 E0280 {{coord_steps= needs group/repeat axes}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], s, A, box=[8, 32], coords=[0, 0], mbar=bar.ptr_to([0]), coord_steps=[[8, 0]])
        # expected-error@+1 E0280 {{pred= is not supported on a TMA copy}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], s, A, box=[8, 32], coords=[0, 0], mbar=bar.ptr_to([0]), pred=tid == 0)
        # expected-error@+1 E0280 {{a TMA load needs mbar=bar.ptr_to([i])}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], s, A, box=[8, 32], coords=[0, 0])
        # expected-error@+1 E0280 {{a TMA copy needs coords=[...]}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], s, A, box=[8, 32], mbar=bar.ptr_to([0]))
        # expected-error@+1 E0280 {{box= extents must be static integers}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], s, A, box=[tid, 32], coords=[0, 0], mbar=bar.ptr_to([0]))
        # expected-error@+1 E0280 {{a TMA store completes in the issuing thread's bulk group and takes no mbar=}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.global.shared::cta.bulk_group"], B, s, box=[8, 32], coords=[0, 0], mbar=bar.ptr_to([0]))
        # expected-error@+1 E0280 {{swizzle= expects 0, 1, 2 or 3}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.global.shared::cta.bulk_group"], B, s, box=[8, 32], coords=[0, 0], swizzle=4)
        # expected-error@+1 E0280 {{oob_fill= expects "zero" (0) or "nan" (1)}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.global.shared::cta.bulk_group"], B, s, box=[8, 32], coords=[0, 0], oob_fill="inf")
        # expected-error@+1 E0274 {{an mbarrier operand is `bar.ptr_to([i])`, an element of a shared uint64 tensor, found 'flag'}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], s, A, box=[8, 32], coords=[0, 0], mbar=flag.ptr_to([0]))
        # expected-error@+1 E0137 {{index 2 is out of bounds for dimension 0 of extent 2}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], s, A, box=[8, 32], coords=[0, 0], mbar=bar.ptr_to([2]))
        # expected-error@+1 E0274 {{an mbarrier operand is `bar.ptr_to([i])`, an element of a shared uint64 tensor, found 'bar'}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], s, A, box=[8, 32], coords=[0, 0], mbar=bar)
        # expected-error@+2 E0176 {{the source operand of cp.async.bulk.tensor.2d.global.shared::cta.bulk_group is shared memory, but 'B' is a global tensor}}
        # expected-error@+1 E0176 {{the destination operand of cp.async.bulk.tensor.2d.global.shared::cta.bulk_group is global memory, but 's' is a shared tensor}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.global.shared::cta.bulk_group"], s, B, box=[8, 32], coords=[0, 0])
        # expected-error@+1 E0285 {{scope= must be "thread"}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.global.shared::cta.bulk_group"], B, s, box=[8, 32], coords=[0, 0], scope="warp")
        # expected-error@+1 E0350 {{multicast TMA needs a thread-block cluster}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"], s, A, box=[8, 32], coords=[0, 0], mbar=bar.ptr_to([0]))
