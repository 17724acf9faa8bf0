# Codegen checks for wgmma (spec TC §8.6, decision TC-2): one asm per (k-step, m-repeat) with k
# outer, every accumulator register "+f", the descriptors as "l" operands built at run time from a
# 64-bit constant (LBO 16 -> 1 << 16, SBO 1024 -> 64 << 32, 128B swizzle -> 1 << 62) OR'ed with
# ((shared address + offset) & 0x3FFFF) >> 4; the stage of a pipelined buffer enters the origin
# once (one integer expression), k-steps add 32 bytes, the second m-repeat 8192; scale-d through
# a predicate (a runtime value on the first k-step, 1 after); the registers pinned before and
# after; setmaxnreg, elect.sync, bar.sync id, 128; the whole file compiled for sm_90a.
# CHECK: __device__ __forceinline__ bool tirx_elect_sync() {
# CHECK: setmaxnreg.dec.sync.aligned.u32 40;
# CHECK: if (tirx_elect_sync()) {
# CHECK: setmaxnreg.inc.sync.aligned.u32 232;
# CHECK: asm volatile("wgmma.fence.sync.aligned;" :: : "memory");
# CHECK: const unsigned tirx_wg0_a = (unsigned)__cvta_generic_to_shared(As) + (unsigned)(((tirx_floormod(s, 2)) * 8192)) * 2u;
# CHECK-NEXT: #line
# CHECK-NEXT: const unsigned tirx_wg0_b = (unsigned)__cvta_generic_to_shared(Bs) + (unsigned)(((tirx_floormod(s, 2)) * 8192)) * 2u;
# CHECK: asm volatile("" : "+f"(acc[0]) :: "memory");
# CHECK-COUNT-8: %63}, %64, %65, p, 1, 1, 0, 0;
# CHECK: "+f"(acc[63]) : "l"((0x4000004000010000ull | (unsigned long long)(((tirx_wg0_a + 0u) & 0x3FFFFu) >> 4))), "l"((0x4000004000010000ull | (unsigned long long)(((tirx_wg0_b + 0u) & 0x3FFFFu) >> 4))), "r"((int)((int)((s > 0)))) : "memory");
# CHECK-NEXT: #line
# CHECK-NEXT: "+f"(acc[127]) : "l"((0x4000004000010000ull | (unsigned long long)(((tirx_wg0_a + 8192u) & 0x3FFFFu) >> 4))), "l"((0x4000004000010000ull | (unsigned long long)(((tirx_wg0_b + 0u) & 0x3FFFFu) >> 4))), "r"((int)((int)((s > 0)))) : "memory");
# CHECK-NEXT: #line
# CHECK-NEXT: "+f"(acc[63]) : "l"((0x4000004000010000ull | (unsigned long long)(((tirx_wg0_a + 32u) & 0x3FFFFu) >> 4))), "l"((0x4000004000010000ull | (unsigned long long)(((tirx_wg0_b + 32u) & 0x3FFFFu) >> 4))), "r"(1) : "memory");
# CHECK: "+f"(acc[127]) : "l"((0x4000004000010000ull | (unsigned long long)(((tirx_wg0_a + 8288u) & 0x3FFFFu) >> 4))), "l"((0x4000004000010000ull | (unsigned long long)(((tirx_wg0_b + 96u) & 0x3FFFFu) >> 4))), "r"(1) : "memory");
# CHECK-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
# CHECK: asm volatile("wgmma.commit_group.sync.aligned;" :: : "memory");
# CHECK: asm volatile("wgmma.wait_group.sync.aligned 1;" :: : "memory");
# CHECK: asm volatile("wgmma.wait_group.sync.aligned 0;" :: : "memory");
# CHECK: asm volatile("bar.sync %0, 128;" :: "r"((int)(wg)) : "memory");
# CHECK-PTX: .target sm_90a
# CHECK-PTX: setmaxnreg.inc.sync.aligned.u32 232;
# CHECK-PTX: wgmma.fence.sync.aligned;
# CHECK-PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
# CHECK-PTX: wgmma.commit_group.sync.aligned;
# CHECK-PTX: elect.sync
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, wid_in_wg
from tvm.tirx.layout import S, TileLayout, ComposeLayout

# D (128, 128): two m64 repeats, 64 registers each (slot 64 r + 4 j + 2 h + e).
ACC2 = TileLayout(S[(2, 4, 2, 8, 16, 4, 2) : (64, 1 @ wid_in_wg, 2, 4 @ laneid, 4, 1 @ laneid, 1)])
STAGED = ComposeLayout(3, 3, 3, TileLayout(S[2, 128, 64]))


@T.function
def wgmma_ws(C: T.Tensor((128,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=384))
    tid = T.cuda.thread_idx("x")
    wg = tid // 128
    As = T.alloc_shared((2, 128, 64), "bfloat16", layout=STAGED, align=1024)
    Bs = T.alloc_shared((2, 128, 64), "bfloat16", layout=STAGED, align=1024)
    acc = T.alloc_local((128, 128), "float32", layout=ACC2)
    if wg == 0:
        T.ptx.setmaxnreg(False, 40)
        if T.cuda.elect_sync():
            C[0] = T.float32(1)
    else:
        T.ptx.setmaxnreg(True, 232)
        for s in range(4):
            T.ptx.wgmma.fence.sync.aligned()
            T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16"], acc, As.sub[s % 2], Bs.sub[s % 2], scope="warpgroup", a_descriptor=(16, 1024, 3), b_descriptor=(16, 1024, 3), scale_d=s > 0)
            T.ptx.wgmma.commit_group.sync.aligned()
            T.ptx.wgmma.wait_group.sync.aligned(1)
        T.ptx.wgmma.wait_group.sync.aligned(0)
        T.cuda.warpgroup_sync(wg)
