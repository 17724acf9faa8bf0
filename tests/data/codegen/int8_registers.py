# Codegen checks for 8-bit register operands (found by `tirx ptx-conform`): inline asm has no
# 8-bit constraint, so an int8/uint8 register travels in a 16-bit "h" register — sources as
# (unsigned short)(unsigned char)(x), destinations through a temporary assigned back — and NVRTC
# accepts the kernel (before, "r" on a 1-byte operand did not compile).
# CHECK: { unsigned short tirx_b0; asm volatile("ld.global.b8 %0, [%1];" : "=h"(tirx_b0) : "l"(A) : "memory"); a[0] = (signed char)tirx_b0; }
# CHECK: asm("cvt.rn.f32.s8 %0, %1;" : "=f"(g[0]) : "h"((unsigned short)(unsigned char)(a[0])));
# CHECK: asm("cvt.rni.s8.f32 %0, %1;" : "=h"(tirx_b0) : "f"(f[0])); a[0] = (signed char)tirx_b0; }
# CHECK: asm volatile("st.global.b8 [%0], %1;" :  : "l"(Out8), "h"((unsigned short)(unsigned char)(a[0])) : "memory");
# CHECK-PTX-COUNT-1: cvt.rni.s8.f32
# CHECK-PTX-COUNT-1: cvt.rn.f32.s8
from tvm.script import tirx as T


@T.function
def int8_registers(
    A: T.Tensor((1, 1), "int8"),
    F: T.Tensor((1, 1), "float32"),
    Out8: T.Tensor((1, 1), "int8"),
    OutF: T.Tensor((1, 1), "float32"),
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    a = T.alloc_local((1, 1), "int8", layout="default")
    f = T.alloc_local((1, 1), "float32", layout="default")
    g = T.alloc_local((1, 1), "float32", layout="default")
    T.cuda.tile.apply(T.ptx["ld.global.b8"], a, A)
    T.cuda.tile.apply(T.ptx["ld.global.f32"], f, F)
    T.cuda.tile.apply(T.ptx["cvt.rn.f32.s8"], g, a)
    T.cuda.tile.apply(T.ptx["cvt.rni.s8.f32"], a, f)
    T.cuda.tile.apply(T.ptx["st.global.b8"], Out8, a)
    T.cuda.tile.apply(T.ptx["st.global.f32"], OutF, g)
