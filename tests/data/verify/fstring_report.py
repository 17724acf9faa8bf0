# f-strings, str.format() and format specs in check code (tirx verify prints what CPython prints:
# tst_cli_verify compares the log line by line). The second assert fails on purpose, to show
# that an assert message is formatted too.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout

reg_layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


@T.function
def neg_abs(
    A: T.Tensor((2, 32, 4), "float32", align=16), Out: T.Tensor((2, 32, 4), "float32", align=16)
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    R = T.alloc_local((2, 32, 4), "float32", layout=reg_layout)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A, scope="cta")
    scalars = R.view(2, 32, 4, 1)
    T.cuda.tile.apply(T.ptx["abs.f32"], scalars, scalars, scope="cta")
    T.cuda.tile.apply(T.ptx["neg.f32"], scalars, scalars, scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], Out, R, scope="cta")


import numpy as np
import tvm

x = np.linspace(-4, 4, 256, dtype="float32")
compiled = tvm.tirx.compile(neg_abs, target="cuda", pipeline="tirx")
out = tvm.runtime.tensor(np.zeros((2, 32, 4), dtype="float32"), tvm.cuda())
compiled(tvm.runtime.tensor(x.reshape(2, 32, 4), tvm.cuda()), out)
ref = -np.abs(x).reshape(2, 32, 4)
err = np.abs(out.numpy() - ref).max()
print(f"max abs error {err:.3e} over {ref.size * 1000:,} values")
print("{:<8}|{:>8}|{:^8}|".format("left", "right", "mid"))
print(f"{'ratio':>8}: {0.25:.1%}  {x[5]=:+.4f}  {{braces}}")
np.testing.assert_allclose(out.numpy(), ref, rtol=0, atol=0)
assert err < 1e-9, f"error {100 * err:.2f} % too large"
assert err > 1, f"expected a large error, found {err:.1e} (x[0] = {float(x[0])!r})"
