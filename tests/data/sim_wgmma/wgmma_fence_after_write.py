# WgmmaMissingFence (spec TC §8.3 rule 1): the accumulators are written (zeroed) after the fence;
# the fault names the wgmma and, in a note, the write.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, wid_in_wg
from tvm.tirx.layout import S, TileLayout

# D (64, 8): 4 registers per thread; A (64, 16) and B (8, 16) bf16 in 8 x 16-byte core matrices,
# K neighbours 128 bytes apart (LBO), 8-row groups 256 bytes apart (SBO).
ACC = TileLayout(S[(4, 2, 8, 1, 4, 2) : (1 @ wid_in_wg, 2, 4 @ laneid, 4, 1 @ laneid, 1)])
CORE_A = TileLayout(S[(8, 8, 2, 8) : (128, 8, 64, 1)])
CORE_B = TileLayout(S[(1, 8, 2, 8) : (128, 8, 64, 1)])
REGS = TileLayout(S[(4, 32, 1, 4) : (1 @ wid_in_wg, 1 @ laneid, 4, 1)])
ROWS = TileLayout(S[(4, 32, 1, 4) : (128, 4, 4, 1)])


@T.function
def k(C: T.Tensor((128, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
    tid = T.cuda.thread_idx("x")
    As = T.alloc_shared((64, 16), "bfloat16", layout=CORE_A, align=128)
    Bs = T.alloc_shared((8, 16), "bfloat16", layout=CORE_B, align=128)
    acc = T.alloc_local((64, 8), "float32", layout=ACC)
    if tid < 128:
        for i in range(8):
            e = tid + 128 * i
            As[e // 16, e % 16] = T.bfloat16(e % 3)
        Bs[tid // 16, tid % 16] = T.bfloat16(tid % 5)
    T.ptx.fence.proxy.async_.shared__cta()
    T.cuda.cta_sync()
    T.ptx.wgmma.fence.sync.aligned()
    T.cuda.tile.apply(T.ptx["mov.b32"], acc.view(4, 32, 4, 1, layout=TileLayout(S[(4, 32, 4, 1) : (1 @ wid_in_wg, 1 @ laneid, 1, 1)])), T.float32(0), scope="warpgroup")
    # expected-fault@+1 E0787 {{uses register acc[0]}} {{accessed after the last wgmma.fence}}
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16"], acc, As, Bs, scope="warpgroup", a_descriptor=(128, 256, 0), b_descriptor=(128, 0, 0), scale_d=1)
    T.ptx.wgmma.commit_group.sync.aligned()
    T.ptx.wgmma.wait_group.sync.aligned(0)
