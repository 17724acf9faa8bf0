# The arithmetic guide's float32 -> float16 conversion (seed 002) scaled to 2^28 elements:
# 262144 CTAs of 256 threads, each CTA one (8, 32, 4) tile selected with T.cuda.block_idx.
from tvm_tirx.script import tirx as T
from tvm_tirx.tirx.layout import S, TileLayout
from tvm_tirx.backend.cuda.axis import laneid, warpid

register_layout = TileLayout(S[(8, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


@T.function
def to_float16_2e28(
    A: T.Tensor((262144, 8, 32, 4), "float32", align=16),
    B: T.Tensor((262144, 8, 32, 4), "float16", align=8),
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=262144, block=256))
    bx = T.cuda.block_idx("x")
    registers = T.alloc_local((8, 32, 4), "float32", layout=register_layout)
    converted = T.alloc_local((8, 32, 4), "float16", layout=register_layout)
    words = converted.view("uint16")
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], registers, A.sub[bx, :, :, :], scope="cta")
    T.cuda.tile.apply(
        T.ptx["cvt.rn.f16.f32"],
        words.view(8, 32, 4, 1), registers.view(8, 32, 4, 1), scope="cta",
    )
    T.cuda.tile.apply(T.ptx["st.global.v4.b16"], B.view("uint16").sub[bx, :, :, :], words, scope="cta")
