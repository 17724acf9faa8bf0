# Codegen checks for a predicated load that keeps the old destination (pred=, preserve_dst=True):
# the predicate is an extra "r" input tested with setp, the destinations are read-write "+f".
# CHECK: asm volatile("{ .reg .pred tirx_p; setp.ne.b32 tirx_p, %5, 0; @tirx_p ld.global.v4.b32 {%0, %1, %2, %3}, [%4]; }" : "+f"(R[0]), "+f"(R[1]), "+f"(R[2]), "+f"(R[3]) : "l"(A + (4 * tirx_tid)), "r"((unsigned)(
# CHECK-PTX: setp.ne.b32
# CHECK-PTX-COUNT-1: @tirx_p ld.global.v4.b32
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout

reg_layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


@T.function
def pred_load(A: T.Tensor((2, 32, 4), "float32"), Out: T.Tensor((2, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg_layout)
    T.cuda.tile.apply(T.ptx["mov.b32"], R.view(2, 32, 4, 1), T.float32(0), scope="cta")
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A, scope="cta", pred=tid < 32, preserve_dst=True)
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], Out, R, scope="cta")
