# wgmma, its fence/commit/wait and setmaxnreg are sm_90a instructions: refused for sm_100 (E0177).
# arch: sm_100
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, wid_in_wg
from tvm.tirx.layout import S, TileLayout, ComposeLayout

ACC = TileLayout(S[(4, 2, 8, 8, 4, 2) : (1 @ wid_in_wg, 2, 4 @ laneid, 4, 1 @ laneid, 1)])
SW128 = ComposeLayout(3, 3, 3, TileLayout(S[64, 64]))


@T.function
def k(C: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
    As = T.alloc_shared((64, 64), "bfloat16", layout=SW128, align=1024)
    acc = T.alloc_local((64, 64), "float32", layout=ACC)
    # expected-error@+1 E0177 {{wgmma.fence.sync.aligned is not available on sm_100}}
    T.ptx.wgmma.fence.sync.aligned()
    # expected-error@+1 E0177 {{wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 is not available on sm_100}}
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"], acc, As, As, scope="warpgroup", a_descriptor=(16, 1024, 3), b_descriptor=(16, 1024, 3))
    # expected-error@+1 E0177 {{setmaxnreg is not available on sm_100}}
    T.ptx.setmaxnreg(True, 240)
