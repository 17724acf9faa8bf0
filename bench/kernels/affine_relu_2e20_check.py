# The arithmetic guide's affine_relu scaled to 2^20 float32 elements (1024 CTAs of 256 threads)
# with the guide's torch check: the Results dock plots a 2^20-element output and reference
# (bench/gui_bench_studio.cpp measures the GUI thread while it does).
from tvm_tirx.script import tirx as T
from tvm_tirx.tirx.layout import S, TileLayout
from tvm_tirx.backend.cuda.axis import laneid, warpid

register_layout = TileLayout(S[(8, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


@T.function
def affine_relu_2e20(
    A: T.Tensor((1024, 8, 32, 4), "float32", align=16),
    B: T.Tensor((1024, 8, 32, 4), "float32", align=16),
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1024, block=256))
    bx = T.cuda.block_idx("x")
    registers = T.alloc_local((8, 32, 4), "float32", layout=register_layout)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], registers, A.sub[bx, :, :, :], scope="cta")
    scalars = registers.view(8, 32, 4, 1)
    T.cuda.tile.apply(
        T.ptx["fma.rn.f32"], scalars, scalars, T.float32(2), T.float32(1), scope="cta"
    )
    T.cuda.tile.apply(T.ptx["max.f32"], scalars, scalars, T.float32(0), scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B.sub[bx, :, :, :], registers, scope="cta")


import torch
import tvm_tirx

a = torch.linspace(-4, 4, 1048576, device="cuda").reshape(1024, 8, 32, 4)
b = torch.empty_like(a)
compiled = tvm_tirx.compile(affine_relu_2e20, target="cuda")
compiled(a, b)
torch.testing.assert_close(b, torch.clamp_min(a * 2 + 1, 0))
