# Shared-memory bank conflicts, the cases of spec/tc-verify/bank.cu (measured with ncu on an
# H200): a 64 x 64 f16 tile stored row-major (128-byte rows), with the 128-byte XOR swizzle, and
# with rows padded to 144 bytes, one kernel each. One warp fills the tile with 16-bit stores, loads
# the top-left 16 x 16 block with ldmatrix.x4 and reads column 0 with ld.shared.b32 (lane l: row l).
# Load wavefronts per warp instruction, ncu (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld) and
# the simulator's bank model: ldmatrix 32 / 4 / 4, column load 32 / 4 / 4. `tirx run --json` lists
# the counts per statement; scripts/gpu-check.sh compares them with ncu on the GPU.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid
from tvm.tirx.layout import S, TileLayout, ComposeLayout

REGS = TileLayout(S[(4, 8, 4) : (1, 4 @ laneid, 1 @ laneid)])
LANE = TileLayout(S[(32, 1) : (1 @ laneid, 1)])
ROWS = TileLayout(S[(32, 4) : (1 @ laneid, 1)])


@T.function
def bank_plain(A: T.Tensor((64, 64), "uint16"), Out: T.Tensor((32, 4), "uint32"), Col: T.Tensor((32, 1), "uint32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    lane = T.cuda.lane_id()
    tile = T.alloc_shared((64, 64), "uint16", align=1024)
    for r in range(64):
        for c in range(2):
            tile[r, lane * 2 + c] = A[r, lane * 2 + c]
    T.cuda.cta_sync()
    regs = T.alloc_local((4, 8, 4), "uint32", layout=REGS)
    # matrix i: rows 8 (i % 2) .. + 7, columns 8 (i // 2) .. + 7 of the block
    T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x4.shared.b16"], regs, tile.view(4, 8, 8, layout=TileLayout(S[(2, 2, 8, 8) : (8, 512, 64, 1)])), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], Out, regs.view(32, 4, layout=ROWS), scope="warp")
    col = T.alloc_local((32, 1), "uint32", layout=LANE)
    T.cuda.tile.apply(T.ptx["ld.shared.b32"], col, tile.view("uint32").view(32, 1, layout=TileLayout(S[(32, 1) : (32, 1)])), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.b32"], Col, col, scope="warp")


@T.function
def bank_swizzled(A: T.Tensor((64, 64), "uint16"), Out: T.Tensor((32, 4), "uint32"), Col: T.Tensor((32, 1), "uint32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    lane = T.cuda.lane_id()
    tile = T.alloc_shared((64, 64), "uint16", layout=ComposeLayout(3, 3, 3, TileLayout(S[64, 64])), align=1024)
    for r in range(64):
        for c in range(2):
            tile[r, lane * 2 + c] = A[r, lane * 2 + c]
    T.cuda.cta_sync()
    regs = T.alloc_local((4, 8, 4), "uint32", layout=REGS)
    # matrix i: rows 8 (i % 2) .. + 7, columns 8 (i // 2) .. + 7 of the block
    T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x4.shared.b16"], regs, tile.view(4, 8, 8, layout=ComposeLayout(3, 3, 3, TileLayout(S[(2, 2, 8, 8) : (8, 512, 64, 1)]))), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], Out, regs.view(32, 4, layout=ROWS), scope="warp")
    col = T.alloc_local((32, 1), "uint32", layout=LANE)
    T.cuda.tile.apply(T.ptx["ld.shared.b32"], col, tile.view("uint32").view(32, 1, layout=ComposeLayout(2, 3, 3, TileLayout(S[(32, 1) : (32, 1)]))), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.b32"], Col, col, scope="warp")


@T.function
def bank_padded(A: T.Tensor((64, 64), "uint16"), Out: T.Tensor((32, 4), "uint32"), Col: T.Tensor((32, 1), "uint32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    lane = T.cuda.lane_id()
    tile = T.alloc_shared((64, 72), "uint16", align=1024)
    for r in range(64):
        for c in range(2):
            tile[r, lane * 2 + c] = A[r, lane * 2 + c]
    T.cuda.cta_sync()
    regs = T.alloc_local((4, 8, 4), "uint32", layout=REGS)
    # matrix i: rows 8 (i % 2) .. + 7, columns 8 (i // 2) .. + 7 of the block
    T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x4.shared.b16"], regs, tile.view(4, 8, 8, layout=TileLayout(S[(2, 2, 8, 8) : (8, 576, 72, 1)])), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], Out, regs.view(32, 4, layout=ROWS), scope="warp")
    col = T.alloc_local((32, 1), "uint32", layout=LANE)
    T.cuda.tile.apply(T.ptx["ld.shared.b32"], col, tile.view("uint32").view(32, 1, layout=TileLayout(S[(32, 1) : (36, 1)])), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.b32"], Col, col, scope="warp")


import numpy as np
import tvm

a = (np.arange(4096) % 65521).astype("uint16").reshape(64, 64)
results = []
for kernel in [bank_plain, bank_swizzled, bank_padded]:
    compiled = tvm.tirx.compile(kernel, target="cuda", pipeline="tirx")
    out = tvm.runtime.tensor(np.zeros((32, 4), dtype="uint32"), tvm.cuda())
    col = tvm.runtime.tensor(np.zeros((32, 1), dtype="uint32"), tvm.cuda())
    compiled(tvm.runtime.tensor(a, tvm.cuda()), out, col)
    results.append((out.numpy(), col.numpy()))
for out, col in results:
    np.testing.assert_array_equal(out, results[0][0])
    np.testing.assert_array_equal(col[:, 0], a[0:32, 0].astype("uint32") + (a[0:32, 1].astype("uint32") << 16))
