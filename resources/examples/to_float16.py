# float32 -> float16 with cvt.rn.f16.f32 (round to nearest even). The .f16 destination is a 16-bit
# register carrier, so the float16 register tile is written through its uint16 view; the store
# writes four 16-bit words per thread (8 bytes, hence align=8 on the output).
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout

reg_layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


@T.function
def to_float16(
    A: T.Tensor((2, 32, 4), "float32", align=16),
    B: T.Tensor((2, 32, 4), "float16", align=8),
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    values = T.alloc_local((2, 32, 4), "float32", layout=reg_layout)
    halves = T.alloc_local((2, 32, 4), "float16", layout=reg_layout)
    bits = halves.view("uint16")
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], values, A, scope="cta")
    T.cuda.tile.apply(
        T.ptx["cvt.rn.f16.f32"], bits.view(2, 32, 4, 1), values.view(2, 32, 4, 1), scope="cta"
    )
    T.cuda.tile.apply(T.ptx["st.global.v4.b16"], B.view("uint16"), bits, scope="cta")


import numpy as np
import tvm

x = np.linspace(-8, 8, 256, dtype="float32")
compiled = tvm.tirx.compile(to_float16, target="cuda", pipeline="tirx")
out = tvm.runtime.tensor(np.zeros((2, 32, 4), dtype="float16"), tvm.cuda())
compiled(tvm.runtime.tensor(x.reshape(2, 32, 4), tvm.cuda()), out)
np.testing.assert_allclose(out.numpy(), x.astype("float16").reshape(2, 32, 4), rtol=0, atol=0)
