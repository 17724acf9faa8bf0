# wgmma operands (spec TC §8.4, §8.8): D a local f32 (64·R, N) tile owned by the accumulator map,
# A in registers a uint32 (64·R, 8·K/16) tile owned by the A map, shared A/B of the instruction's
# 16-bit type with one K (E0220 shapes and types, E0221 fragment ownership).
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, wid_in_wg
from tvm.tirx.layout import S, TileLayout, ComposeLayout

ACC = TileLayout(S[(4, 2, 8, 8, 4, 2) : (1 @ wid_in_wg, 2, 4 @ laneid, 4, 1 @ laneid, 1)])
# lane = g + 8 t instead of 4 g + t: not the accumulator map (a permutation of the slots would be)
BAD_ACC = TileLayout(S[(4, 2, 8, 8, 4, 2) : (1 @ wid_in_wg, 2, 1 @ laneid, 4, 8 @ laneid, 1)])
A_WORDS = TileLayout(S[(4, 2, 8, 2, 4) : (1 @ wid_in_wg, 1, 4 @ laneid, 2, 1 @ laneid)])
BAD_A = TileLayout(S[(4, 2, 8, 2, 4) : (1 @ wid_in_wg, 1, 1 @ laneid, 2, 8 @ laneid)])
SW128 = ComposeLayout(3, 3, 3, TileLayout(S[64, 64]))


@T.function
def k(C: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
    As = T.alloc_shared((64, 64), "bfloat16", layout=SW128, align=1024)
    Bs = T.alloc_shared((64, 64), "bfloat16", layout=SW128, align=1024)
    Hs = T.alloc_shared((64, 64), "float16", layout=SW128, align=1024)
    acc = T.alloc_local((64, 64), "float32", layout=ACC)
    bad = T.alloc_local((64, 64), "float32", layout=BAD_ACC)
    wide = T.alloc_local((64, 128), "float32", layout=TileLayout(S[(4, 2, 8, 16, 4, 2) : (1 @ wid_in_wg, 2, 4 @ laneid, 4, 1 @ laneid, 1)]))
    a = T.alloc_local((64, 8), "uint32", layout=A_WORDS)
    a_bad = T.alloc_local((64, 8), "uint32", layout=BAD_A)
    T.ptx.wgmma.fence.sync.aligned()
    # expected-error@+1 E0221 {{element (0, 2) of 'bad' is in thread 8 (warp 0, lane 8), the instruction needs thread 1 (warp 0, lane 1)}}
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], bad, As, Bs, scope="warpgroup", a_descriptor=(16, 1024, 3), b_descriptor=(16, 1024, 3))
    # expected-error@+1 E0220 {{operand 'd' of wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 must be a local float32 tile (64·R, 64)}}
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], wide, As, Bs, scope="warpgroup", a_descriptor=(16, 1024, 3), b_descriptor=(16, 1024, 3))
    # expected-error@+1 E0220 {{holds bf16 elements, but 'Hs' is float16}}
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], acc, As, Hs, scope="warpgroup", a_descriptor=(16, 1024, 3), b_descriptor=(16, 1024, 3))
    # expected-error@+1 E0220 {{has K = 32, but A has K = 64}}
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], acc, As, Bs[0:64, 0:32], scope="warpgroup", a_descriptor=(16, 1024, 3), b_descriptor=(16, 1024, 3))
    # expected-error@+1 E0221 {{operand 'a' of wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16: element (0, 1) of 'a_bad' is in thread 8}}
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], acc, a_bad, Bs[0:64, 0:16], scope="warpgroup", b_descriptor=(16, 1024, 3))
    # expected-error@+1 E0222 {{a_descriptor= belongs to a shared A}}
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], acc, a, Bs[0:64, 0:16], scope="warpgroup", a_descriptor=(16, 1024, 3), b_descriptor=(16, 1024, 3))
    # expected-error@+1 E0220 {{must be a shared region (64, K) with K a multiple of 16}}
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], acc, As, Bs[0:64, 0:8], scope="warpgroup", a_descriptor=(16, 1024, 3), b_descriptor=(16, 1024, 3))
    # the rs form, one k-step: accepted
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], acc, a, Bs[0:64, 0:16], scope="warpgroup", b_descriptor=(16, 1024, 3))
    T.ptx.wgmma.commit_group.sync.aligned()
    T.ptx.wgmma.wait_group.sync.aligned(0)
