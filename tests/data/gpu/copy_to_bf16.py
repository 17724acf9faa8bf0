# A rounded to bfloat16 with exact instructions only (tst_device_compare): the twin of
# ex2_to_bf16.py without the approximate ex2, so `--device both` holds it to the plain tolerance and
# a one-ulp difference between the devices is a mismatch.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid
from tvm.tirx.layout import S, TileLayout

regs = TileLayout(S[(32, 2) : (1 @ laneid, 1)])


@T.function
def copy_to_bf16(A: T.Tensor((32, 2), "float32", align=8), B: T.Tensor((32, 2), "bfloat16", align=4)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    a = T.alloc_local((32, 2), "float32", layout=regs)
    b = T.alloc_local((32, 2), "bfloat16", layout=regs)
    bits = b.view("uint16")
    T.cuda.tile.apply(T.ptx["ld.global.v2.f32"], a, A, scope="warp")
    T.cuda.tile.apply(T.ptx["cvt.rn.bf16.f32"], bits.view(32, 2, 1), a.view(32, 2, 1), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.v2.b16"], B.view("uint16"), bits, scope="warp")


import torch
import tvm_tirx

torch.manual_seed(3)
a = torch.rand(32, 2, device="cuda") * 4 - 2
b = torch.empty(32, 2, dtype=torch.bfloat16, device="cuda")
tvm_tirx.compile(copy_to_bf16, target="cuda")(a, b)
torch.testing.assert_close(b, a.to(torch.bfloat16))
