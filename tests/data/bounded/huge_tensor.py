# A small checked kernel beside one whose arguments are 65536 × 65536 float32 tensors (16 GiB each):
# `tirx check` accepts it, the studio opens, shows and edits it and verifies the small kernel within
# a 4 GiB address space (tests/views/tst_layout_bounded.cpp, issue 22).
from tvm_tirx.script import tirx as T
from tvm_tirx.tirx.layout import S, TileLayout
from tvm_tirx.backend.cuda.axis import laneid, warpid

register_layout = TileLayout(S[(8, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


@T.function
def small(A: T.Tensor((8, 32, 4), "float32", align=16), B: T.Tensor((8, 32, 4), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=256))
    registers = T.alloc_local((8, 32, 4), "float32", layout=register_layout)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], registers, A, scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B, registers, scope="cta")


@T.function
def huge(A: T.Tensor((65536, 65536), "float32", align=16), B: T.Tensor((65536, 65536), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=256))
    registers = T.alloc_local((8, 32, 4), "float32", layout=register_layout)
    bx = T.cuda.block_idx("x")
    Av = A.view(4194304, 8, 32, 4)
    Bv = B.view(4194304, 8, 32, 4)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], registers, Av.sub[bx, :, :, :], scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], Bv.sub[bx, :, :, :], registers, scope="cta")


import numpy as np
import tvm_tirx

a = np.arange(1024, dtype="float32").reshape(8, 32, 4)
b = np.zeros_like(a)
compiled = tvm_tirx.compile(small, target="cuda")
compiled(a, b)
np.testing.assert_array_equal(b, a)
