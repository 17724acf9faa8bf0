# A wgmma committed but never waited for: the accumulators are undefined at exit (W0700, the lint
# of asynchronous operations left in flight).
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, wid_in_wg
from tvm.tirx.layout import S, TileLayout

ACC = TileLayout(S[(4, 2, 8, 1, 4, 2) : (1 @ wid_in_wg, 2, 4 @ laneid, 4, 1 @ laneid, 1)])
CORE_A = TileLayout(S[(8, 8, 2, 8) : (128, 8, 64, 1)])
CORE_B = TileLayout(S[(1, 8, 2, 8) : (128, 8, 64, 1)])


@T.function
def k(C: T.Tensor((128, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
    tid = T.cuda.thread_idx("x")
    As = T.alloc_shared((64, 16), "bfloat16", layout=CORE_A, align=128)
    Bs = T.alloc_shared((8, 16), "bfloat16", layout=CORE_B, align=128)
    acc = T.alloc_local((64, 8), "float32", layout=ACC)
    for i in range(8):
        e = tid + 128 * i
        As[e // 16, e % 16] = T.bfloat16(1)
    Bs[tid // 16, tid % 16] = T.bfloat16(2)
    T.ptx.fence.proxy.async_.shared__cta()
    T.cuda.cta_sync()
    T.ptx.wgmma.fence.sync.aligned()
    # expected-fault@+1 W0700 {{wgmma issued here was never waited for by thread 0}}
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16"], acc, As, Bs, scope="warpgroup", a_descriptor=(128, 256, 0), b_descriptor=(128, 0, 0), scale_d=0)
    T.ptx.wgmma.commit_group.sync.aligned()
