# Three-input maximum: Out = max(A, B, 0) with ONE max.f32 per element (four instructions, not
# eight binary ones). The operand count selects the three-input form, which needs sm_100 or newer:
# check and compile this file with `--arch sm_100` (e.g. `tirx check --arch sm_100 max3.py`);
# with an older target the checker reports that three-input max.f32 needs sm_100.
from tvm.script import tirx as T


@T.function
def maximum3(
    A: T.Tensor((4, 1), "float32"), B: T.Tensor((4, 1), "float32"), Out: T.Tensor((4, 1), "float32")
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    a = T.alloc_local((4, 1), "float32", layout="default")
    b = T.alloc_local((4, 1), "float32", layout="default")
    T.cuda.tile.apply(T.ptx["ld.global.f32"], a, A)
    T.cuda.tile.apply(T.ptx["ld.global.f32"], b, B)
    T.cuda.tile.apply(T.ptx["max.f32"], a, a, b, T.float32(0))
    T.cuda.tile.apply(T.ptx["st.global.f32"], Out, a)


import numpy as np
import tvm

x = np.linspace(-2, 1, 4, dtype="float32").reshape(4, 1)  # [-2, -1, 0, 1]
y = np.linspace(-1.5, 0, 4, dtype="float32").reshape(4, 1)  # [-1.5, -1, -0.5, 0]
compiled = tvm.tirx.compile(maximum3, target="cuda", pipeline="tirx")
out = tvm.runtime.tensor(np.zeros((4, 1), dtype="float32"), tvm.cuda())
compiled(tvm.runtime.tensor(x, tvm.cuda()), tvm.runtime.tensor(y, tvm.cuda()), out)
np.testing.assert_allclose(out.numpy(), np.maximum(np.maximum(x, y), 0))
