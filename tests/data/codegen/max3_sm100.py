# Codegen checks for a three-input max.f32 (needs sm_100): four 3-input instructions, scalar
# operand bound as an "f" constant, and a cubin for sm_100.
# ARCH: sm_100
# CHECK: asm("max.f32 %0, %1, %2, %3;" : "=f"(a[0]) : "f"(a[0]), "f"(b[0]), "f"(0.0f));
# CHECK-COUNT-4: asm("max.f32 %0, %1, %2, %3;"
# CHECK-PTX-COUNT-4: max.f32
# CHECK-PTX: .target sm_100
from tvm.script import tirx as T

@T.function
def max3(A: T.Tensor((4, 1), "float32", align=16), B: T.Tensor((4, 1), "float32", align=16),
         C: T.Tensor((4, 1), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    a = T.alloc_local((4, 1), "float32", layout="default")
    b = T.alloc_local((4, 1), "float32", layout="default")
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], a.view(4), A.view(4))
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], b.view(4), B.view(4))
    T.cuda.tile.apply(T.ptx["max.f32"], a, a, b, T.float32(0))
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], C.view(4), a.view(4))
