# Descriptors must be identical in the four warps of the warpgroup (spec TC §8.2): here the A
# region's stage depends on the warp, so warps 0 and 2 read stage 0 and warps 1 and 3 stage 1.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, wid_in_wg
from tvm.tirx.layout import S, TileLayout

ACC = TileLayout(S[(4, 2, 8, 1, 4, 2) : (1 @ wid_in_wg, 2, 4 @ laneid, 4, 1 @ laneid, 1)])
CORE_A2 = TileLayout(S[(2, 8, 8, 2, 8) : (1024, 128, 8, 64, 1)])
CORE_B = TileLayout(S[(1, 8, 2, 8) : (128, 8, 64, 1)])


@T.function
def k(C: T.Tensor((128, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
    tid = T.cuda.thread_idx("x")
    As = T.alloc_shared((2, 64, 16), "bfloat16", layout=CORE_A2, align=128)
    Bs = T.alloc_shared((8, 16), "bfloat16", layout=CORE_B, align=128)
    acc = T.alloc_local((64, 8), "float32", layout=ACC)
    for i in range(16):
        e = tid + 128 * i
        As[e // 1024, (e // 16) % 64, e % 16] = T.bfloat16(1)
    Bs[tid // 16, tid % 16] = T.bfloat16(2)
    T.ptx.fence.proxy.async_.shared__cta()
    T.cuda.cta_sync()
    T.ptx.wgmma.fence.sync.aligned()
    # expected-fault@+1 E0789 {{the A descriptor differs between the warps of warpgroup 0}} {{in warp 1}}
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16"], acc, As.sub[(tid // 32) % 2], Bs, scope="warpgroup", a_descriptor=(128, 256, 0), b_descriptor=(128, 0, 0), scale_d=0)
    T.ptx.wgmma.commit_group.sync.aligned()
    T.ptx.wgmma.wait_group.sync.aligned(0)
