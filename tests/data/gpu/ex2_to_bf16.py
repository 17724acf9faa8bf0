# 2^A through ex2.approx.ftz.f32, stored as bfloat16 (tst_device_compare): the GPU's ex2 bits are
# held to the ISA's bound, so a float32 result a few ulp away from the simulator's may round to the
# neighbouring bfloat16; `--device both` allows that one ulp here, and only here.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid
from tvm.tirx.layout import S, TileLayout

regs = TileLayout(S[(32, 2) : (1 @ laneid, 1)])


@T.function
def ex2_to_bf16(A: T.Tensor((32, 2), "float32", align=8), B: T.Tensor((32, 2), "bfloat16", align=4)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    a = T.alloc_local((32, 2), "float32", layout=regs)
    b = T.alloc_local((32, 2), "bfloat16", layout=regs)
    bits = b.view("uint16")
    T.cuda.tile.apply(T.ptx["ld.global.v2.f32"], a, A, scope="warp")
    T.cuda.tile.apply(T.ptx["ex2.approx.ftz.f32"], a.view(32, 2, 1), a.view(32, 2, 1), scope="warp")
    T.cuda.tile.apply(T.ptx["cvt.rn.bf16.f32"], bits.view(32, 2, 1), a.view(32, 2, 1), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.v2.b16"], B.view("uint16"), bits, scope="warp")


import torch
import tvm_tirx

torch.manual_seed(3)
a = torch.rand(32, 2, device="cuda") * 4 - 2
b = torch.empty(32, 2, dtype=torch.bfloat16, device="cuda")
tvm_tirx.compile(ex2_to_bf16, target="cuda")(a, b)
torch.testing.assert_close(b.float(), torch.exp2(a).to(torch.bfloat16).float(), rtol=1e-2, atol=1e-2)
