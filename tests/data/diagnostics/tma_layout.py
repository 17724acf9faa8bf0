# TMA swizzle and alignment (spec TC §5.2, §9.2): the swizzle= mode equals the destination's
# ComposeLayout, the shared box starts 128-byte (swizzle-period) aligned, the global view starts
# 16-byte aligned with 16-byte row strides, and is a static region of a tensor parameter
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout, ComposeLayout

SW128 = ComposeLayout(3, 3, 3, TileLayout(S[64, 64]))

@T.function
def k(A: T.Tensor((64, 64), "float16"), N: T.Tensor((64, 36), "float16"), row: T.int32):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    sw = T.alloc_shared((64, 64), "float16", layout=SW128, align=1024)
    plain = T.alloc_shared((64, 64), "float16", align=1024)
    small = T.alloc_shared((64, 64), "float16", align=64)
    other = T.alloc_shared((8, 64), "float16", layout=ComposeLayout(3, 2, 3, TileLayout(S[8, 64])), align=512)
    flat = T.alloc_shared((256,), "float16", align=128)
    s56 = T.alloc_shared((8, 56), "float16", align=128)
    s8 = T.alloc_shared((8, 8), "float16", align=128)
    h = T.alloc_shared((64, 32), "float16", align=128)
    bar = T.alloc_shared((1,), "uint64")
    if T.cuda.thread_idx("x") == 0:
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], sw, A, box=[64, 64], coords=[0, 0], mbar=bar.ptr_to([0]), swizzle=3)
        # expected-error@+1 E0283 {{swizzle=0 (none) writes a different image than 'sw' is laid out with (128B)}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], sw, A, box=[64, 64], coords=[0, 0], mbar=bar.ptr_to([0]))
        # expected-error@+1 E0283 {{swizzle=3 (128B) writes a different image than 'plain' is laid out with (none)}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], plain, A, box=[64, 64], coords=[0, 0], mbar=bar.ptr_to([0]), swizzle=3)
        # expected-error@+1 E0283 {{swizzle=3 (128B) writes a different image than 'other' is laid out with (64B)}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.global.shared::cta.bulk_group"], A[0:8, 0:64], other, box=[8, 64], coords=[0, 0], swizzle=3)
        # expected-error@+1 E0284 {{must start 1024-byte aligned (the 128B swizzle period); 'sw[4:12, 0:64]' starts at byte 512}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], sw[4:12, 0:64], A, box=[8, 64], coords=[0, 0], mbar=bar.ptr_to([0]), swizzle=3)
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], sw[8:16, 0:64], A, box=[8, 64], coords=[0, 0], mbar=bar.ptr_to([0]), swizzle=3)
        # expected-error@+1 E0284 {{must start 128-byte aligned; 'flat[8:72]' starts at byte 16}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.1d.shared::cta.global.mbarrier::complete_tx::bytes"], flat[8:72], A.view(4096)[0:64], box=[64], coords=[0], mbar=bar.ptr_to([0]))
        # expected-error@+1 E0284 {{must start 128-byte aligned; declare 'small' with align=128}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], small, A, box=[64, 64], coords=[0, 0], mbar=bar.ptr_to([0]))
        # expected-error@+1 E0284 {{the global view of a TMA copy must start 16-byte aligned; 'A[0:8, 4:60]' starts at byte 8}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], s56, A[0:8, 4:60], box=[8, 56], coords=[0, 0], mbar=bar.ptr_to([0]))
        # expected-error@+1 E0284 {{dimension 0 of 'N' is 72 bytes apart}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], s8, N, box=[8, 8], coords=[0, 0], mbar=bar.ptr_to([0]))
        # expected-error@+1 E0287 {{cannot start at a runtime offset}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], plain[0:8, 0:64], A[row:row + 8, 0:64], box=[8, 64], coords=[0, 0], mbar=bar.ptr_to([0]))
        # expected-error@+1 E0287 {{whose innermost dimension is contiguous; 'A.view(64, 32, layout=TileLayout(S[(64, 32) : (64, 2)]))' is not such a view}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], h, A.view(64, 32, layout=TileLayout(S[(64, 32) : (64, 2)])), box=[64, 32], coords=[0, 0], mbar=bar.ptr_to([0]))
        # expected-error@+1 E0176 {{is global memory, but 'plain' is a shared tensor}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], plain, plain, box=[64, 64], coords=[0, 0], mbar=bar.ptr_to([0]))
