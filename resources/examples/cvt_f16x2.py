# Packed conversion: cvt.rn.f16x2.f32 d, hi, lo turns two float32 values into one uint32 word with
# hi in bits [31:16] and lo in bits [15:0]. Passing column 1 as hi and column 0 as lo makes each
# word {hi: x1, lo: x0}, which is exactly the little-endian layout of the float16 pair (x0, x1):
# the words are stored through a uint32 view of the float16 output.
from tvm.script import tirx as T


@T.function
def pack_pairs(
    A: T.Tensor((4, 2), "float32", align=8), Out: T.Tensor((4, 2), "float16", align=4)
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    a = T.alloc_local((4, 2), "float32", layout="default")
    words = T.alloc_local((4, 1), "uint32", layout="default")
    T.cuda.tile.apply(T.ptx["ld.global.v2.b32"], a, A)
    T.cuda.tile.apply(T.ptx["cvt.rn.f16x2.f32"], words, a[:, 1:2], a[:, 0:1])
    T.cuda.tile.apply(T.ptx["st.global.b32"], Out.view("uint32"), words)


import numpy as np
import tvm

x = np.linspace(-3, 3, 8, dtype="float32").reshape(4, 2)
compiled = tvm.tirx.compile(pack_pairs, target="cuda", pipeline="tirx")
out = tvm.runtime.tensor(np.zeros((4, 2), dtype="float16"), tvm.cuda())
compiled(tvm.runtime.tensor(x, tvm.cuda()), out)
np.testing.assert_allclose(out.numpy(), x.astype("float16"), rtol=0, atol=0)
# The same check on the raw words: the high half of each word is column 1.
words = out.numpy().view("uint32")
np.testing.assert_allclose(words >> 16, x[:, 1:2].astype("float16").view("uint16").astype("uint32"))
