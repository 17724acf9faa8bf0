# Codegen checks for the rs form of wgmma (A in registers, spec TC §8.4): the four A registers
# of each k-step as "r" operands in braces, no trans-a immediate (the rs operand list is d, a,
# b-desc, scale-d, imm-scale-a, imm-scale-b, imm-trans-b), B without swizzle (LBO 128 -> 8 << 16,
# SBO 512 -> 32 << 32, mode 0), scale_d=0 zeroing the accumulators first, N = 256 (128 registers).
# CHECK: acc[0] = 0.0f; acc[1] = 0.0f;
# CHECK-COUNT-2: %127}, {%128, %129, %130, %131}, %132, p, 1, -1, 0;
# CHECK: "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"((0x0000002000080000ull | (unsigned long long)(((tirx_wg0_b + 0u) & 0x3FFFFu) >> 4))), "r"((int)(0))
# CHECK: "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "l"((0x0000002000080000ull | (unsigned long long)(((tirx_wg0_b + 256u) & 0x3FFFFu) >> 4))), "r"(1)
# CHECK: asm volatile("" : "+r"(a[7]) :: "memory");
# CHECK-PTX: .target sm_90a
# CHECK-PTX-COUNT-2: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, wid_in_wg
from tvm.tirx.layout import S, TileLayout

ACC = TileLayout(S[(4, 2, 8, 32, 4, 2) : (1 @ wid_in_wg, 2, 4 @ laneid, 4, 1 @ laneid, 1)])
# A words (64, 16) = two k16 steps of (64, 8): register i of step k is slot 4 k + i.
A_WORDS = TileLayout(S[(4, 2, 8, 2, 2, 4) : (1 @ wid_in_wg, 1, 4 @ laneid, 4, 2, 1 @ laneid)])
# B (256, 32) f16 without swizzle: 8 x 8 core matrices, K-neighbours 128 bytes apart (LBO), 8-row
# groups 512 bytes apart (SBO); the second k16 step starts 256 bytes (two core matrices) on.
B_CORE = TileLayout(S[(32, 8, 4, 8) : (256, 8, 64, 1)])


@T.function
def wgmma_rs(C: T.Tensor((128,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
    Bs = T.alloc_shared((256, 32), "float16", layout=B_CORE, align=128)
    a = T.alloc_local((64, 16), "uint32", layout=A_WORDS)
    acc = T.alloc_local((64, 256), "float32", layout=ACC)
    T.cuda.tile.apply(T.ptx["mov.b32"], a.view(4, 32, 8, 1, layout=TileLayout(S[(4, 32, 8, 1) : (1 @ wid_in_wg, 1 @ laneid, 1, 1)])), T.uint32(0x3C003C00), scope="warpgroup")
    T.ptx.wgmma.fence.sync.aligned()
    T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16"], acc, a, Bs, scope="warpgroup", b_descriptor=(128, 512, 0), scale_d=0, scale_b=-1, trans_b=1 - 1)  # a static expression: 0
    T.ptx.wgmma.commit_group.sync.aligned()
    T.ptx.wgmma.wait_group.sync.aligned(0)
