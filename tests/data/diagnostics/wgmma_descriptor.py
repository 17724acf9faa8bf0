# wgmma shared operands (spec TC §8.5, §9.3): the written descriptor tuple must be the one the
# operand's layout gives (E0222 names both), a layout no descriptor can read is E0223, a dynamic
# start that may leave the swizzle pattern is E0223.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, wid_in_wg
from tvm.tirx.layout import S, TileLayout, ComposeLayout

ACC = TileLayout(S[(4, 2, 8, 8, 4, 2) : (1 @ wid_in_wg, 2, 4 @ laneid, 4, 1 @ laneid, 1)])
SW128 = ComposeLayout(3, 3, 3, TileLayout(S[64, 64]))


@T.function
def k(C: T.Tensor((64,), "float32"), n: T.int32):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
    As = T.alloc_shared((64, 64), "bfloat16", layout=SW128, align=1024)
    Bs = T.alloc_shared((64, 64), "bfloat16", layout=SW128, align=1024)
    Rm = T.alloc_shared((64, 64), "bfloat16", layout="default", align=1024)
    St = T.alloc_shared((4, 64, 64), "bfloat16", layout=ComposeLayout(3, 3, 3, TileLayout(S[4, 64, 64])), align=1024)
    acc = T.alloc_local((64, 64), "float32", layout=ACC)
    T.ptx.wgmma.fence.sync.aligned()
    # expected-error@+1 E0222 {{b_descriptor=(16, 512, 3) does not describe 'Bs': its layout needs (16, 1024, 3)}}
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], acc, As, Bs, scope="warpgroup", a_descriptor=(16, 1024, 3), b_descriptor=(16, 512, 3))
    # expected-error@+1 E0222 {{a_descriptor=(16, 1024, 0) does not describe 'As'}}
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], acc, As, Bs, scope="warpgroup", a_descriptor=(16, 1024, 0), b_descriptor=(16, 1024, 3))
    # expected-error@+1 E0222 {{needs b_descriptor=(ldo_bytes, sdo_bytes, swizzle)}}
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], acc, As, Bs, scope="warpgroup", a_descriptor=(16, 1024, 3))
    # expected-error@+1 E0222 {{cannot be encoded: stride byte offset 1000 is not a multiple of 16 bytes}}
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], acc, As, Bs, scope="warpgroup", a_descriptor=(16, 1000, 3), b_descriptor=(16, 1024, 3))
    # expected-error@+1 E0222 {{is (ldo_bytes, sdo_bytes, swizzle)}}
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], acc, As, Bs, scope="warpgroup", a_descriptor=(16, 1024), b_descriptor=(16, 1024, 3))
    # expected-error@+1 E0223 {{cannot be read through a wgmma descriptor: element (1, 0) is at byte 128 of the tensor}}
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], acc, Rm, Bs, scope="warpgroup", a_descriptor=(16, 1024, 0), b_descriptor=(16, 1024, 3))
    # expected-error@+1 E0223 {{starts on a 1024-byte boundary}}
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], acc, St.view(256, 64)[n:n + 64, 0:64], Bs, scope="warpgroup", a_descriptor=(16, 1024, 3), b_descriptor=(16, 1024, 3))
    # the stage of a pipelined buffer moves by whole patterns: accepted
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], acc, St.sub[n % 4], Bs, scope="warpgroup", a_descriptor=(16, 1024, 3), b_descriptor=(16, 1024, 3))
    T.ptx.wgmma.commit_group.sync.aligned()
    T.ptx.wgmma.wait_group.sync.aligned(0)
