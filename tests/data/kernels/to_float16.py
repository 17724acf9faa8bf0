# Test kernel (the project's own): float32 -> float16 with cvt.rn.f16.f32 on scalar views of
# two register tiles, stored through uint16 views; random check data.
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

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

import numpy as np
import tvm

x = (np.random.randn(2, 32, 4) * 4).astype("float32")
y = tvm.runtime.tensor(np.zeros((2, 32, 4), dtype="float16"), tvm.cuda())
tvm.tirx.compile(to_float16, target="cuda")(tvm.runtime.tensor(x, tvm.cuda()), y)
np.testing.assert_allclose(y.numpy(), x.astype("float16"), rtol=0, atol=0)
