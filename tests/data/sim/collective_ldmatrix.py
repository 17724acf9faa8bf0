# ldmatrix/stmatrix maps: a shared tile of four 8x8 b16 matrices M[m][r][c] = 64m + 8r + c, loaded
# with ldmatrix .x4 and .x4.trans, .x2 and .x1 (lanes 0-7 / 0-15 give the addresses), each lane's
# registers stored to global; then stmatrix writes the .x4 registers back to a second tile, copied out.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid
from tvm.tirx.layout import S, TileLayout

REGS4 = TileLayout(S[(4, 8, 4) : (1, 4 @ laneid, 1 @ laneid)])
REGS2 = TileLayout(S[(2, 8, 4) : (1, 4 @ laneid, 1 @ laneid)])
REGS1 = TileLayout(S[(1, 8, 4) : (1, 4 @ laneid, 1 @ laneid)])
LANES4 = TileLayout(S[(32, 4, 1) : (1 @ laneid, 1, 1)])
LANES2 = TileLayout(S[(32, 2, 1) : (1 @ laneid, 1, 1)])
LANES1 = TileLayout(S[(32, 1, 1) : (1 @ laneid, 1, 1)])


@T.function
def maps(M: T.Tensor((256,), "uint16"), plain: T.Tensor((32, 4, 1), "uint32"), trans: T.Tensor((32, 4, 1), "uint32"),
         x2: T.Tensor((32, 2, 1), "uint32"), x1: T.Tensor((32, 1, 1), "uint32"), back: T.Tensor((256,), "uint16")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    lane = T.cuda.lane_id()
    s = T.alloc_shared((256,), "uint16", align=16)
    t = T.alloc_shared((256,), "uint16", align=16)
    for i in range(8):
        s[lane * 8 + i] = M[lane * 8 + i]
    T.cuda.cta_sync()
    r4 = T.alloc_local((4, 8, 4), "uint32", layout=REGS4)
    r2 = T.alloc_local((2, 8, 4), "uint32", layout=REGS2)
    r1 = T.alloc_local((1, 8, 4), "uint32", layout=REGS1)
    T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x4.shared.b16"], r4, s.view(4, 8, 8), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.b32"], plain, r4.view(32, 4, 1, layout=LANES4), scope="warp")
    T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"], r4, s.view(4, 8, 8), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.b32"], trans, r4.view(32, 4, 1, layout=LANES4), scope="warp")
    T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x2.shared.b16"], r2, s.view("uint32").view(2, 8, 4, layout=TileLayout(S[(2, 8, 4) : (32, 4, 1)])), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.b32"], x2, r2.view(32, 2, 1, layout=LANES2), scope="warp")
    T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x1.shared.b16"], r1, s.view(1, 8, 8, layout=TileLayout(S[(1, 8, 8) : (1, 8, 1)] + 192)), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.b32"], x1, r1.view(32, 1, 1, layout=LANES1), scope="warp")
    T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x4.shared.b16"], r4, s.view(4, 8, 8), scope="warp")
    T.cuda.tile.apply(T.ptx["stmatrix.sync.aligned.m8n8.x4.trans.shared.b16"], t.view(4, 8, 8), r4, scope="warp")
    T.cuda.cta_sync()
    for i in range(8):
        back[lane * 8 + i] = t[lane * 8 + i]
