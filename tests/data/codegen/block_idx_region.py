# Codegen checks for a kernel over many CTAs: a runtime region start (block index) becomes integer
# arithmetic in the address, the register slots stay constants.
# CHECK: extern "C" __global__ void __launch_bounds__(256) scaled(
# CHECK: [[maybe_unused]] int bx = (int)blockIdx.x;
# CHECK: asm volatile("ld.global.v4.b32 {%0, %1, %2, %3}, [%4];" : "=f"(R[0]), "=f"(R[1]), "=f"(R[2]), "=f"(R[3]) : "l"(A + (bx * 1024 + tirx_warp * 128 + tirx_lane * 4)) : "memory");
# CHECK-PTX-COUNT-1: ld.global.v4.b32 {
# CHECK-PTX-COUNT-1: st.global.v4.b32 [
# CHECK-PTX-NOT: ld.local
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout

reg_layout = TileLayout(S[(8, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


@T.function
def scaled(A: T.Tensor((16, 8, 32, 4), "float32", align=16), B: T.Tensor((16, 8, 32, 4), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=16, block=256))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((8, 32, 4), "float32", layout=reg_layout)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A.sub[bx, :, :, :], scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B.sub[bx, :, :, :], R, scope="cta")
