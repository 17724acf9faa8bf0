# Codegen checks for the seed's `activation` kernel (ewise doc page): one vector load and one
# vector store per thread as inline PTX, four inlined silu_affine calls, registers as R[4].
# CHECK: __device__ __forceinline__ float silu_affine(float x, float scale, float bias) {
# CHECK-NEXT: #line 28 "activation.py"
# CHECK-NEXT: float y = __fdiv_rn(x, __fadd_rn(1.0f, expf((-x))));
# CHECK: extern "C" __global__ void __launch_bounds__(64) activation(float* __restrict__ A, float* __restrict__ Out) {
# CHECK: float R[4];
# CHECK: asm volatile("ld.global.v4.b32 {%0, %1, %2, %3}, [%4];" : "=f"(R[0]), "=f"(R[1]), "=f"(R[2]), "=f"(R[3]) : "l"(A + (4 * tirx_tid)) : "memory");
# CHECK-NEXT: #line 37 "activation.py"
# CHECK-NEXT: R[0] = silu_affine(R[0], 2.0f, 1.0f);
# CHECK-COUNT-4: = silu_affine(R[
# CHECK: asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" :  : "l"(Out + (4 * tirx_tid)), "f"(R[0]), "f"(R[1]), "f"(R[2]), "f"(R[3]) : "memory");
# CHECK-NOT: R[4]
# CHECK-PTX-COUNT-1: ld.global.v4.b32 {
# CHECK-PTX-COUNT-1: st.global.v4.b32 [
# CHECK-PTX-COUNT-4: div.rn.f32
# CHECK-PTX-NOT: ld.local
# CHECK-PTX-NOT: st.local
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout

reg_layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


@T.function(private=True)
def silu_affine(x: T.float32, scale: T.float32, bias: T.float32) -> T.float32:
    y = x / (T.float32(1) + T.exp(-x))
    return y * scale + bias


@T.function
def activation(A: T.Tensor((2, 32, 4), "float32"), Out: T.Tensor((2, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    R = T.alloc_local((2, 32, 4), "float32", layout=reg_layout)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A, scope="cta")
    T.cuda.tile.ewise(silu_affine, R, R, T.float32(2), T.float32(1), scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], Out, R, scope="cta")
