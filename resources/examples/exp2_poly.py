# exp2 without the MUFU: 2^x = 2^floor(x) · p(x − floor(x)) on the FMA and integer pipes, the
# technique bench/kernels/attention_fwd_bf16_d64_q192.py uses (POLY > 0) for part of its
# softmax (FlashAttention-4's). floor(x) comes from adding 1.5 · 2^23 rounded toward minus infinity
# (add.rm.f32 leaves it in the low mantissa bits of t, exactly); p is a degree-3 minimax fit of 2^f
# on [0, 1) with p(0) = 1; the power of two goes straight into p's exponent bits through uint32
# views (t's bits times 2^23 keep only floor(x) there, 0x4B400000 · 2^23 wrapping to 0).
# Inputs below −127 give 0, as the softmax wants for masked scores.
from tvm.script import tirx as T

MAGIC = 12582912.0  # 1.5 · 2^23


@T.function
def exp2_poly(A: T.Tensor((64, 1), "float32"), E: T.Tensor((64, 1), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    x = T.alloc_local((64, 1), "float32", layout="default")
    t = T.alloc_local((64, 1), "float32", layout="default")
    u = T.alloc_local((64, 1), "float32", layout="default")
    T.cuda.tile.apply(T.ptx["ld.global.f32"], x, A)
    T.cuda.tile.apply(T.ptx["max.f32"], x, x, T.float32(-127.0))
    T.cuda.tile.apply(T.ptx["add.rm.f32"], t, x, T.float32(MAGIC))  # MAGIC + floor(x)
    T.cuda.tile.apply(T.ptx["sub.rn.f32"], u, t, T.float32(MAGIC))  # floor(x)
    T.cuda.tile.apply(T.ptx["sub.rn.f32"], x, x, u)  # f = x − floor(x), in [0, 1)
    T.cuda.tile.apply(T.ptx["fma.rn.f32"], u, x, T.float32(0.07706602), T.float32(0.22764611))
    T.cuda.tile.apply(T.ptx["fma.rn.f32"], u, u, x, T.float32(0.69511652))
    T.cuda.tile.apply(T.ptx["fma.rn.f32"], x, u, x, T.float32(1.0))  # p(f) ≈ 2^f
    T.cuda.tile.apply(T.ptx["mul.lo.u32"], t.view("uint32"), t.view("uint32"), T.uint32(8388608))
    T.cuda.tile.apply(T.ptx["add.u32"], x.view("uint32"), x.view("uint32"), t.view("uint32"))
    T.cuda.tile.apply(T.ptx["st.global.f32"], E, x)


import numpy as np
import tvm

np.random.seed(1)
a = np.random.uniform(-30, 0, (64, 1)).astype("float32")
# Integers (exact powers of two), halves, the clamp at −127 and below, −1e30 (a masked score), 3.
a[56:64, 0] = np.array([0.0, -1.0, -0.5, -126.5, -127.0, -300.0, -1e30, 3.0], dtype="float32")
compiled = tvm.tirx.compile(exp2_poly, target="cuda", pipeline="tirx")
e = tvm.runtime.tensor(np.zeros((64, 1), dtype="float32"), tvm.cuda())
compiled(tvm.runtime.tensor(a, tvm.cuda()), e)
# 8.6e-5 relative is the fit's bound; 2^−126.5 and below are under the absolute floor.
np.testing.assert_allclose(e.numpy(), np.exp2(np.maximum(a.astype("float64"), -127.0)), rtol=1e-4, atol=1e-37)
