# Codegen checks for the float32 -> float16 conversion: 16-bit registers through uint16_t
# carriers bound with "h", one cvt per repeat, one 8-byte vector store.
# CHECK: extern "C" __global__ void __launch_bounds__(64) to_float16(float* __restrict__ A, unsigned short* __restrict__ B) {
# CHECK: float registers[4];
# CHECK: alignas(8) unsigned short converted[4];
# CHECK: asm("cvt.rn.f16.f32 %0, %1;" : "=h"(converted[0]) : "f"(registers[0]));
# CHECK-NEXT: #line
# CHECK-NEXT: asm("cvt.rn.f16.f32 %0, %1;" : "=h"(converted[1]) : "f"(registers[1]));
# CHECK: asm volatile("st.global.v4.b16 [%0], {%1, %2, %3, %4};" :  : "l"(B + (4 * tirx_tid)), "h"(converted[0]), "h"(converted[1]), "h"(converted[2]), "h"(converted[3]) : "memory");
# CHECK-NOT: cuda_fp16.h
# CHECK-PTX-COUNT-4: cvt.rn.f16.f32
# CHECK-PTX-COUNT-1: st.global.v4.b16
from tvm_tirx.script import tirx as T
from tvm_tirx.tirx.layout import S, TileLayout
from tvm_tirx.backend.cuda.axis import laneid, warpid

register_layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def to_float16(
    A: T.Tensor((2, 32, 4), "float32", align=16),
    B: T.Tensor((2, 32, 4), "float16", align=8),
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    registers = T.alloc_local((2, 32, 4), "float32", layout=register_layout)
    converted = T.alloc_local((2, 32, 4), "float16", layout=register_layout)
    words = converted.view("uint16")
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], registers, A, scope="cta")
    T.cuda.tile.apply(
        T.ptx["cvt.rn.f16.f32"],
        words.view(2, 32, 4, 1), registers.view(2, 32, 4, 1), scope="cta",
    )
    T.cuda.tile.apply(T.ptx["st.global.v4.b16"], B.view("uint16"), words, scope="cta")
