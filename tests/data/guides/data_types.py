# Data types (guide style): tensors of float16, bfloat16, int32 and uint8; a dtype alias; scalar
# casts with T.Cast / T.float32(...); a tile conversion float32 -> float16 through the uint16
# carrier view that cvt's 16-bit operand needs.
from __future__ import annotations

import numpy as np
import torch
import tvm
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout, laneid, warpid

half = T.float16
reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


@T.function
def convert(x: T.Tensor((2, 32, 4), "float32"), h: T.Tensor((2, 32, 4), half),
            q: T.Tensor((256,), "int32"), u: T.Tensor((256,), "uint8"), bf: T.Tensor((256,), "bfloat16")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    values = T.alloc_local((2, 32, 4), "float32", layout=reg)
    halves = T.alloc_local((2, 32, 4), half, layout=reg)
    bits = halves.view("uint16")
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], values, x, scope="cta")
    T.cuda.tile.apply(T.ptx["cvt.rn.f16.f32"], bits.view(2, 32, 4, 1), values.view(2, 32, 4, 1), scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b16"], h.view("uint16"), bits, scope="cta")
    tx = T.cuda.thread_idx("x")
    for j in range(4):
        i = tx * 4 + j
        v: T.float32 = x[tx // 32, tx % 32, j]
        q[i] = T.Cast("int32", v * T.float32(10))
        u[i] = T.Cast("uint8", T.Cast("int32", v * T.float32(10)) + 128)
        bf[i] = T.Cast("bfloat16", v)


x = np.linspace(-8, 8, 256, dtype="float32")
h = np.zeros((2, 32, 4), dtype="float16")
q = np.zeros(256, dtype="int32")
u = np.zeros(256, dtype="uint8")
bft = torch.zeros(256, dtype=torch.bfloat16)
f = tvm.tirx.compile(convert, target="cuda")
f(x.reshape(2, 32, 4), h, q, u, bft)
np.testing.assert_allclose(h, x.reshape(2, 32, 4).astype("float16"), rtol=0, atol=0)
np.testing.assert_allclose(q, (x * np.float32(10)).astype("int32"), rtol=0, atol=0)
np.testing.assert_allclose(u, ((x * np.float32(10)).astype("int32") + 128).astype("uint8"), rtol=0, atol=0)
torch.testing.assert_close(bft, torch.tensor(x).to(torch.bfloat16), rtol=0, atol=0)
