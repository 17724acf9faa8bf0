# TMA box and dtype rules (spec TC §5.2): rank, extents 1..256, inner bytes a multiple of 16, the
# swizzled inner box within the swizzle span, the shared operand the dense box, one dtype
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout, ComposeLayout

@T.function
def k(A: T.Tensor((512, 64), "float16"), I: T.Tensor((64, 64), "int32"), C: T.Tensor((64, 64, 64), "float16")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    s = T.alloc_shared((8, 64), "float16", align=1024)
    big = T.alloc_shared((512, 8), "float16", align=1024)
    odd = T.alloc_shared((8, 4), "float16", align=128)
    si = T.alloc_shared((8, 32), "int32", align=128)
    sw = T.alloc_shared((8, 64), "float16", layout=ComposeLayout(3, 2, 3, TileLayout(S[8, 64])), align=512)
    wide = T.alloc_shared((16, 8), "float16", align=128)
    bar = T.alloc_shared((1,), "uint64")
    if T.cuda.thread_idx("x") == 0:
        # expected-error@+1 E0281 {{is a 3-d copy, but box= has 2 dimensions}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.3d.shared::cta.global.mbarrier::complete_tx::bytes"], s, A, box=[8, 64], coords=[0, 0], mbar=bar.ptr_to([0]))
        # expected-error@+1 E0281 {{but 'C' has 3 dimensions}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], s, C, box=[8, 64], coords=[0, 0], mbar=bar.ptr_to([0]))
        # expected-error@+1 E0282 {{box extent 512 is outside 1..256}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], big, A, box=[512, 8], coords=[0, 0], mbar=bar.ptr_to([0]))
        # expected-error@+1 E0282 {{the inner box dimension is 8 bytes (4 x 2); TMA needs a multiple of 16 bytes}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], odd, A, box=[8, 4], coords=[0, 0], mbar=bar.ptr_to([0]))
        # expected-error@+1 E0282 {{the inner box dimension is 128 bytes, more than the 64B swizzle span (64 bytes)}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], sw, A, box=[8, 64], coords=[0, 0], mbar=bar.ptr_to([0]), swizzle=2)
        # expected-error@+1 E0282 {{has shape [8, 64], the box is [8, 32]}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], s, A, box=[8, 32], coords=[0, 0], mbar=bar.ptr_to([0]))
        # expected-error@+1 E0282 {{is the dense row-major box, but element (0, 1) of 's.view(8, 32, layout=TileLayout(S[(8, 32) : (64, 2)]))'}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], s.view(8, 32, layout=TileLayout(S[(8, 32) : (64, 2)])), A, box=[8, 32], coords=[0, 0], mbar=bar.ptr_to([0]))
        # expected-error@+1 E0286 {{'s' is float16 but 'I' is int32}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], s, I, box=[8, 64], coords=[0, 0], mbar=bar.ptr_to([0]))
        # expected-error@+1 E0286 {{oob_fill="nan" needs a floating-point tensor}}
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], si, I, box=[8, 32], coords=[0, 0], mbar=bar.ptr_to([0]), oob_fill="nan")
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], wide, A, box=[16, 8], coords=[500, 0], mbar=bar.ptr_to([0]), oob_fill="nan")
