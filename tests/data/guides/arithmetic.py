# Arithmetic tile ops (tile-op page style): elementwise add/mul/fma/max on register tiles with a
# scalar operand standing in for a register, ex2 (base-2 exponential, approximate), and an ewise
# over a private scalar function; the scalar T.ceildiv on runtime values.
import numpy as np
import tvm
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout, laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


@T.function(private=True)
def softsign(x: T.float32) -> T.float32:
    return x / (T.float32(1) + T.fabs(x))


@T.function
def tile_math(A: T.Tensor((2, 32, 4), "float32"), B: T.Tensor((2, 32, 4), "float32"),
              fused: T.Tensor((2, 32, 4), "float32"), soft: T.Tensor((2, 32, 4), "float32"),
              pow2: T.Tensor((2, 32, 4), "float32"), blocks: T.Tensor((64,), "int32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    a = T.alloc_local((2, 32, 4), "float32", layout=reg)
    b = T.alloc_local((2, 32, 4), "float32", layout=reg)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], a, A, scope="cta")
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], b, B, scope="cta")
    av = a.view(2, 32, 4, 1)
    bv = b.view(2, 32, 4, 1)
    c = T.alloc_local((2, 32, 4), "float32", layout=reg)
    cv = c.view(2, 32, 4, 1)
    T.cuda.tile.apply(T.ptx["add.f32"], cv, av, bv, scope="cta")          # a + b
    T.cuda.tile.apply(T.ptx["mul.f32"], cv, cv, T.float32(0.5), scope="cta")  # (a + b) / 2
    T.cuda.tile.apply(T.ptx["fma.rn.f32"], cv, av, bv, cv, scope="cta")   # a * b + (a + b) / 2
    T.cuda.tile.apply(T.ptx["max.f32"], cv, cv, T.float32(-1), scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], fused, c, scope="cta")
    T.cuda.tile.ewise(softsign, c, a, scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], soft, c, scope="cta")
    T.cuda.tile.apply(T.ptx["ex2.approx.ftz.f32"], cv, bv, scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], pow2, c, scope="cta")
    tx = T.cuda.thread_idx("x")
    blocks[tx] = T.ceildiv(tx - 30, 8)


x = np.linspace(-3, 3, 256, dtype="float32").reshape(2, 32, 4)
y = np.linspace(2, -2, 256, dtype="float32").reshape(2, 32, 4)
fused = np.zeros((2, 32, 4), dtype="float32")
soft = np.zeros((2, 32, 4), dtype="float32")
pow2 = np.zeros((2, 32, 4), dtype="float32")
blocks = np.zeros(64, dtype="int32")
f = tvm.tirx.compile(tile_math, target="cuda")
f(x, y, fused, soft, pow2, blocks)
half_sum = (x + y) * np.float32(0.5)
np.testing.assert_allclose(fused, np.maximum(x * y + half_sum, -1), rtol=1e-6, atol=1e-6)
np.testing.assert_allclose(soft, x / (1 + np.abs(x)), rtol=1e-6, atol=1e-6)
np.testing.assert_allclose(pow2, np.exp2(y), rtol=2e-6, atol=0)
t = np.arange(64)
np.testing.assert_allclose(blocks, -((30 - t) // 8), rtol=0, atol=0)
