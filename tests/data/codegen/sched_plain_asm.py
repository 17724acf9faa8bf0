# Codegen checks for decision SCHED-1: register-only tile arithmetic (mov, fma, ex2, cvt, ...) is
# plain `asm`, which the compiler may schedule around other work; loads, stores, warp shuffles,
# fences, wgmma and its waits stay `asm volatile` with a "memory" clobber, and each
# `wgmma.wait_group` is followed by an empty volatile asm per accumulator register (the pins), so
# the plain ex2 that reads the accumulator depends on the wait and cannot be hoisted above it.
# CHECK: asm("mov.b32 %0, %1;" : "=r"(a[0]) : "r"(1006648320u));
# A wait before the first wgmma pins nothing (acc has no value yet):
# CHECK: asm volatile("wgmma.wait_group.sync.aligned 0;" :: : "memory");
# CHECK-NEXT: #line
# CHECK-NEXT: asm volatile("wgmma.fence.sync.aligned;" :: : "memory");
# CHECK: asm volatile("wgmma.wait_group.sync.aligned 0;" :: : "memory");
# CHECK-NEXT: #line
# CHECK-NEXT: asm volatile("" : "+f"(acc[0]) :: "memory"); asm volatile("" : "+f"(acc[1]) :: "memory");
# CHECK-NOT: ex2.approx
# CHECK: asm volatile("" : "+f"(acc[63]) :: "memory");
# CHECK: asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(acc[0]) : "f"(acc[0]));
# CHECK: asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(acc[0]) : "f"(acc[0]), "f"(2.0f), "f"(1.0f));
# CHECK: asm volatile("shfl.sync.bfly.b32 %0, %1, %2, %3, %4;"
# CHECK: asm volatile("st.global.f32 [%0], %1;"
# CHECK-COUNT-64: asm("ex2.approx.ftz.f32
# CHECK-COUNT-3: asm volatile("wgmma.wait_group.sync.aligned 0;"
# CHECK-PTX-COUNT-64: ex2.approx.ftz.f32
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, wid_in_wg
from tvm.tirx.layout import S, TileLayout

ACC = TileLayout(S[(4, 2, 8, 32, 4, 2) : (1 @ wid_in_wg, 2, 4 @ laneid, 4, 1 @ laneid, 1)])
A_WORDS = TileLayout(S[(4, 2, 8, 2, 2, 4) : (1 @ wid_in_wg, 1, 4 @ laneid, 4, 2, 1 @ laneid)])
B_CORE = TileLayout(S[(32, 8, 4, 8) : (256, 8, 64, 1)])
MINE = TileLayout(S[(4, 32, 128, 1) : (1 @ wid_in_wg, 1 @ laneid, 1, 1)])
HALF = TileLayout(S[(4, 32, 64, 1) : (1 @ wid_in_wg, 1 @ laneid, 1, 1)])


@T.function
def sched_plain_asm(C: T.Tensor((128, 1), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
    Bs = T.alloc_shared((256, 32), "float16", layout=B_CORE, align=128)
    a = T.alloc_local((64, 16), "uint32", layout=A_WORDS)
    acc = T.alloc_local((64, 256), "float32", layout=ACC)
    T.cuda.tile.apply(T.ptx["mov.b32"], a.view(4, 32, 8, 1, layout=TileLayout(S[(4, 32, 8, 1) : (1 @ wid_in_wg, 1 @ laneid, 1, 1)])), T.uint32(0x3C003C00), scope="warpgroup")
    T.ptx.wgmma.wait_group.sync.aligned(0)
    T.ptx.wgmma.fence.sync.aligned()
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16"], acc, a, Bs, scope="warpgroup", b_descriptor=(128, 512, 0), scale_d=0, trans_b=0)
    T.ptx.wgmma.commit_group.sync.aligned()
    T.ptx.wgmma.wait_group.sync.aligned(0)
    mine = acc.view(4, 32, 128, 1, layout=MINE)
    T.cuda.tile.apply(T.ptx["ex2.approx.ftz.f32"], mine[:, :, 0:64, :], mine[:, :, 0:64, :], scope="warpgroup")
    T.cuda.tile.apply(T.ptx["fma.rn.f32"], mine[:, :, 0:64, :], mine[:, :, 0:64, :], T.float32(2.0), T.float32(1.0), scope="warpgroup")
    T.cuda.tile.apply(T.ptx["shfl.sync.bfly.b32"], mine[:, :, 0:1, :].view("uint32"), mine[:, :, 0:1, :].view("uint32"), T.uint32(1), T.uint32(31), T.uint32(0xFFFFFFFF), scope="warpgroup")
    T.ptx.wgmma.wait_group.sync.aligned(0)
    T.cuda.tile.apply(T.ptx["st.global.f32"], C.view(4, 32, 1, 1, layout=TileLayout(S[(4, 32, 1, 1) : (32, 1, 1, 1)])), mine[:, :, 0:1, :], scope="warpgroup")
