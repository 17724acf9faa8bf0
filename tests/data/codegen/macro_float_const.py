# Codegen of @T.macro and module float constants (decisions L-1, L-2): each call inlines the macro
# body at its place (the #line directives point into the body), the second expansion's loop
# variable and local get fresh names, and LOG2E is a float32 immediate next to f32 operands and a
# half constant next to f16 ones (its f16 value, 1.44238281f, in the f32 arithmetic of DEC-SCALAR-1).
# CHECK: float t{};
# CHECK: float t_7{};
# CHECK: for (int k = 0; k < 5; k += 1) {
# CHECK-NEXT: #line 24
# CHECK: t = tirx_shfl0_;
# CHECK: s[0] = exp2f(__fmul_rn(__fsub_rn(A[(row * 32 + lane)], m[0]), 1.44269502f));
# CHECK-NEXT: #line 23
# CHECK-NEXT: for (int k_5 = 0; k_5 < 5; k_5 += 1) {
# CHECK: t_7 = tirx_shfl1_;
# CHECK: H[(row * 32 + lane)] = __half_as_ushort(__float2half_rn(__fmul_rn((float)(__half2float(__ushort_as_half(H[(row * 32 + lane)]))), 1.44238281f)));
# CHECK-PTX-COUNT-10: shfl.sync.bfly.b32
from tvm.script import tirx as T

LOG2E = 1.4426950408889634


@T.macro
def warp_sum(acc):
    for k in range(5):
        t = T.cuda.__shfl_xor_sync(0xFFFFFFFF, acc[0], 16 >> k)
        acc[0] = acc[0] + t


@T.function
def k(A: T.Tensor((4, 32), "float32"), H: T.Tensor((4, 32), "float16"), L: T.Tensor((4,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
    lane = T.cuda.lane_id()
    row = T.cuda.warp_id()
    m = T.alloc_local((1,), "float32")
    s = T.alloc_local((1,), "float32")
    m[0] = A[row, lane]
    warp_sum(m)
    s[0] = T.exp2((A[row, lane] - m[0]) * LOG2E)
    warp_sum(s)
    H[row, lane] = H[row, lane] * LOG2E
    if lane == 0:
        L[row] = s[0]
