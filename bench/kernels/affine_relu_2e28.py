# The arithmetic guide's affine_relu (seed 002) scaled to 2^28 float32 elements: 262144 CTAs of
# 256 threads, each CTA one (8, 32, 4) tile selected with T.cuda.block_idx.
from tvm_tirx.script import tirx as T
from tvm_tirx.tirx.layout import S, TileLayout
from tvm_tirx.backend.cuda.axis import laneid, warpid

register_layout = TileLayout(S[(8, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


@T.function
def affine_relu_2e28(
    A: T.Tensor((262144, 8, 32, 4), "float32", align=16),
    B: T.Tensor((262144, 8, 32, 4), "float32", align=16),
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=262144, block=256))
    bx = T.cuda.block_idx("x")
    registers = T.alloc_local((8, 32, 4), "float32", layout=register_layout)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], registers, A.sub[bx, :, :, :], scope="cta")
    scalars = registers.view(8, 32, 4, 1)
    T.cuda.tile.apply(
        T.ptx["fma.rn.f32"], scalars, scalars, T.float32(2), T.float32(1), scope="cta"
    )
    T.cuda.tile.apply(T.ptx["max.f32"], scalars, scalars, T.float32(0), scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B.sub[bx, :, :, :], registers, scope="cta")
