# Codegen checks for the ewise page's shared-memory kernel: a 16-byte aligned shared tile, 32-bit
# shared-window addresses bound with "r", barriers, element loops with floor modulo.
# CHECK: extern "C" __global__ void __launch_bounds__(64) shared_affine(
# CHECK: __shared__ alignas(16) float S[256];
# CHECK-NEXT: #line
# CHECK-NEXT: float R[4];
# CHECK: int tid = (int)threadIdx.x;
# CHECK: for (int j = 0; j < 4; j += 1) {
# CHECK: __syncthreads();
# CHECK: asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];" : "=f"(R[0]), "=f"(R[1]), "=f"(R[2]), "=f"(R[3]) : "r"((unsigned)__cvta_generic_to_shared(S + (4 * tirx_tid))) : "memory");
# CHECK-COUNT-4: = affine(R[
# CHECK: asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};"
# CHECK: __syncthreads();
# CHECK: tirx_floormod(
# CHECK-PTX-COUNT-1: ld.shared.v4.b32 {
# CHECK-PTX-COUNT-1: st.shared.v4.b32 [
# CHECK-PTX-COUNT-2: bar.sync
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout

reg_layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


@T.function(private=True)
def affine(x: T.float32) -> T.float32:
    return x * T.float32(2) + T.float32(1)


@T.function
def shared_affine(A: T.Tensor((64, 4), "float32"), Out: T.Tensor((64, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    S = T.alloc_shared((64, 4), "float32", layout="default", align=16)
    for j in range(4):
        S[tid, j] = A[tid, j]
    T.cuda.cta_sync()
    sv = S.view(2, 32, 4)
    R = T.alloc_local((2, 32, 4), "float32", layout=reg_layout)
    T.cuda.tile.apply(T.ptx["ld.shared.v4.b32"], R, sv, scope="cta")
    T.cuda.tile.ewise(affine, R, R, scope="cta")
    T.cuda.tile.apply(T.ptx["st.shared.v4.b32"], sv, R, scope="cta")
    T.cuda.cta_sync()
    for j in range(4):
        Out[tid, j] = S[(tid + 1) % 64, j]
