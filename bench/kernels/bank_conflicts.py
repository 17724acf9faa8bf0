# Shared-memory bank conflicts, the cases of spec/tc-verify/bank.cu (measured with ncu on an
# H200): a 64 x 64 f16 tile stored row-major (128-byte rows), with the 128-byte XOR swizzle, and
# with rows padded to 144 bytes. One warp loads the top-left 16 x 16 block with ldmatrix.x4, then
# reads column 0 with ld.shared.b32 (lane l: row l). Wavefronts per warp instruction, ncu and the
# simulator's bank model: ldmatrix 32 / 4 / 4, column load 32 / 4 / 4. `tirx run --json` lists the
# counts; scripts/gpu-check.sh compares them with ncu's l1tex__data_pipe_lsu_wavefronts_mem_shared.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid
from tvm.tirx.layout import S, TileLayout, ComposeLayout

REGS = TileLayout(S[(4, 8, 4) : (1, 4 @ laneid, 1 @ laneid)])
LANE = TileLayout(S[(32, 1) : (1 @ laneid, 1)])


@T.function
def bank_conflicts(A: T.Tensor((64, 64), "uint16"), Out: T.Tensor((4, 32, 4), "uint32"), Col: T.Tensor((3, 32, 1), "uint32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    lane = T.cuda.lane_id()
    plain = T.alloc_shared((64, 64), "uint16", align=1024)
    swz = T.alloc_shared((64, 64), "uint16", layout=ComposeLayout(3, 3, 3, TileLayout(S[64, 64])), align=1024)
    pad = T.alloc_shared((64, 72), "uint16", align=1024)
    for r in range(64):
        for c in range(2):
            plain[r, lane * 2 + c] = A[r, lane * 2 + c]
            swz[r, lane * 2 + c] = A[r, lane * 2 + c]
            pad[r, lane * 2 + c] = A[r, lane * 2 + c]
    T.cuda.cta_sync()
    regs = T.alloc_local((4, 8, 4), "uint32", layout=REGS)
    # matrix i: rows 8 (i % 2) .. + 7, columns 8 (i // 2) .. + 7 of the block
    T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x4.shared.b16"], regs, plain.view(4, 8, 8, layout=TileLayout(S[(2, 2, 8, 8) : (8, 512, 64, 1)])), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], Out.sub[0], regs.view(32, 4, layout=TileLayout(S[(32, 4) : (1 @ laneid, 1)])), scope="warp")
    T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x4.shared.b16"], regs, swz.view(4, 8, 8, layout=ComposeLayout(3, 3, 3, TileLayout(S[(2, 2, 8, 8) : (8, 512, 64, 1)]))), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], Out.sub[1], regs.view(32, 4, layout=TileLayout(S[(32, 4) : (1 @ laneid, 1)])), scope="warp")
    T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x4.shared.b16"], regs, pad.view(4, 8, 8, layout=TileLayout(S[(2, 2, 8, 8) : (8, 576, 72, 1)])), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], Out.sub[2], regs.view(32, 4, layout=TileLayout(S[(32, 4) : (1 @ laneid, 1)])), scope="warp")
    col = T.alloc_local((32, 1), "uint32", layout=LANE)
    T.cuda.tile.apply(T.ptx["ld.shared.b32"], col, plain.view("uint32").view(32, 1, layout=TileLayout(S[(32, 1) : (32, 1)])), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.b32"], Col.sub[0], col, scope="warp")
    T.cuda.tile.apply(T.ptx["ld.shared.b32"], col, swz.view("uint32").view(32, 1, layout=ComposeLayout(2, 3, 3, TileLayout(S[(32, 1) : (32, 1)]))), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.b32"], Col.sub[1], col, scope="warp")
    T.cuda.tile.apply(T.ptx["ld.shared.b32"], col, pad.view("uint32").view(32, 1, layout=TileLayout(S[(32, 1) : (36, 1)])), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.b32"], Col.sub[2], col, scope="warp")


import numpy as np
import tvm

a = (np.arange(4096) % 65521).astype("uint16").reshape(64, 64)
compiled = tvm.tirx.compile(bank_conflicts, target="cuda", pipeline="tirx")
out = tvm.runtime.tensor(np.zeros((4, 32, 4), dtype="uint32"), tvm.cuda())
col = tvm.runtime.tensor(np.zeros((3, 32, 1), dtype="uint32"), tvm.cuda())
compiled(tvm.runtime.tensor(a, tvm.cuda()), out, col)
o = out.numpy()
np.testing.assert_array_equal(o[0], o[1])
np.testing.assert_array_equal(o[0], o[2])
c = col.numpy()
np.testing.assert_array_equal(c[0], c[1])
np.testing.assert_array_equal(c[0], c[2])
np.testing.assert_array_equal(c[0][:, 0], a[0:32, 0].astype("uint32") + (a[0:32, 1].astype("uint32") << 16))
