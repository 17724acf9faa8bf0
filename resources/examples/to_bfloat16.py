# float32 -> bfloat16 with cvt.rn.bf16.f32 (sm_80 or newer). Like float16, a scalar .bf16 operand
# is carried in a uint16 register, so the bfloat16 tiles are used through their uint16 views; the
# conversion is the only numeric step, the views only reinterpret bits.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout

reg_layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


@T.function
def to_bfloat16(
    A: T.Tensor((2, 32, 4), "float32", align=16),
    B: T.Tensor((2, 32, 4), "bfloat16", align=8),
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    values = T.alloc_local((2, 32, 4), "float32", layout=reg_layout)
    converted = T.alloc_local((2, 32, 4), "bfloat16", layout=reg_layout)
    bits = converted.view("uint16")
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], values, A, scope="cta")
    T.cuda.tile.apply(
        T.ptx["cvt.rn.bf16.f32"], bits.view(2, 32, 4, 1), values.view(2, 32, 4, 1), scope="cta"
    )
    T.cuda.tile.apply(T.ptx["st.global.v4.b16"], B.view("uint16"), bits, scope="cta")


import torch
import tvm_tirx

a = torch.linspace(-4, 4, 256, device="cuda").reshape(2, 32, 4)
b = torch.empty_like(a, dtype=torch.bfloat16)
tvm_tirx.compile(to_bfloat16, target="cuda")(a, b)
torch.testing.assert_close(b, a.to(torch.bfloat16))
