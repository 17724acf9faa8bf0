# wgmma context and keywords (spec TC §8.2, §8.3, §13.2): scope="warpgroup" (E0224), no
# lane-dependent control flow around the .sync.aligned statements (E0224), immediates and counts
# (E0225): scale_a/scale_b ±1, trans 0/1, trans_a only with a shared A, scale_d 0/1/runtime,
# wait_group 0..7, setmaxnreg 24..256 step 8, warpgroup_sync ids 1..15.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, wid_in_wg
from tvm.tirx.layout import S, TileLayout, ComposeLayout

ACC = TileLayout(S[(4, 2, 8, 8, 4, 2) : (1 @ wid_in_wg, 2, 4 @ laneid, 4, 1 @ laneid, 1)])
A_WORDS = TileLayout(S[(4, 2, 8, 2, 4) : (1 @ wid_in_wg, 1, 4 @ laneid, 2, 1 @ laneid)])
SW128 = ComposeLayout(3, 3, 3, TileLayout(S[64, 64]))


@T.function
def k(C: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=256))
    tid = T.cuda.thread_idx("x")
    As = T.alloc_shared((64, 64), "bfloat16", layout=SW128, align=1024)
    Bs = T.alloc_shared((64, 64), "bfloat16", layout=SW128, align=1024)
    acc = T.alloc_local((64, 64), "float32", layout=ACC)
    a = T.alloc_local((64, 8), "uint32", layout=A_WORDS)
    T.ptx.wgmma.fence.sync.aligned()
    # expected-error@+1 E0224 {{scope= must be "warpgroup", found "warp"}}
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], acc, As, Bs, scope="warp", a_descriptor=(16, 1024, 3), b_descriptor=(16, 1024, 3))
    if tid % 32 < 16:
        # expected-error@+1 E0224 {{inside control flow that may differ between the lanes of a warp}}
        T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], acc, As, Bs, scope="warpgroup", a_descriptor=(16, 1024, 3), b_descriptor=(16, 1024, 3))
        # expected-error@+1 E0224 {{wgmma.commit_group.sync.aligned inside control flow}}
        T.ptx.wgmma.commit_group.sync.aligned()
        # expected-error@+1 E0224 {{T.cuda.elect_sync() inside control flow}}
        if T.cuda.elect_sync():
            C[0] = T.float32(1)
    # expected-error@+1 E0225 {{scale_a= of wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 is a constant 1 or -1, found '2'}}
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], acc, As, Bs, scope="warpgroup", a_descriptor=(16, 1024, 3), b_descriptor=(16, 1024, 3), scale_a=2)
    # expected-error@+1 E0225 {{scale_d= of wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 is 0 (D = A·B), 1 (D = A·B + D) or a runtime integer, found 2}}
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], acc, As, Bs, scope="warpgroup", a_descriptor=(16, 1024, 3), b_descriptor=(16, 1024, 3), scale_d=2)
    # expected-error@+1 E0225 {{trans_a=1 needs A in shared memory}}
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], acc, a, Bs[0:64, 0:16], scope="warpgroup", b_descriptor=(16, 1024, 3), trans_a=1)
    # a runtime scale_d and a transposed (MN-major) B: accepted (B is (K, N) = (64, 64) here; its
    # LBO is never exercised: N is one 128-byte swizzle atom)
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], acc, As, Bs, scope="warpgroup", a_descriptor=(16, 1024, 3), b_descriptor=(16, 1024, 3), scale_d=tid < 512, trans_b=1)
    T.ptx.wgmma.commit_group.sync.aligned()
    # expected-error@+1 E0225 {{needs a constant group count N from 0 to 7, found '8'}}
    T.ptx.wgmma.wait_group.sync.aligned(8)
    T.ptx.wgmma.wait_group.sync.aligned(0)
    # expected-error@+1 E0225 {{from 24 to 256 in steps of 8, found '20'}}
    T.ptx.setmaxnreg(True, 20)
    # expected-error@+1 E0225 {{is True (setmaxnreg.inc) or False (.dec)}}
    T.ptx.setmaxnreg(2, 240)
    # expected-error@+1 E0225 {{the barrier id of T.cuda.warpgroup_sync is 1..15, found 0}}
    T.cuda.warpgroup_sync(0)
    T.cuda.warpgroup_sync(1 + tid // 128)
