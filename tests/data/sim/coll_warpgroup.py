# mma.sync at scope="warpgroup" in a block of two warpgroups: the fragments' leading axis is the
# warp in the warpgroup (wid_in_wg), and every warp computes the same 16 x 8 tile C = A . B^T from
# its own registers; each writes it to its own slice of C (scope="cta").
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid, wid_in_wg, tx
from tvm.tirx.layout import S, TileLayout


@T.function
def k(A: T.Tensor((16, 16), "bfloat16"), B: T.Tensor((8, 16), "bfloat16"), C: T.Tensor((8, 32, 2, 2), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=256))
    a = T.alloc_local((4, 16, 8), "uint32", layout=TileLayout(S[(4, 2, 8, 2, 4) : (1 @ wid_in_wg, 1, 4 @ laneid, 2, 1 @ laneid)]))
    b = T.alloc_local((4, 8, 8), "uint32", layout=TileLayout(S[(4, 8, 2, 4) : (1 @ wid_in_wg, 4 @ laneid, 1, 1 @ laneid)]))
    c = T.alloc_local((4, 16, 8), "float32", layout=TileLayout(S[(4, 2, 8, 4, 2) : (1 @ wid_in_wg, 2, 4 @ laneid, 1 @ laneid, 1)]))
    Aw = A.view("uint32").view(4, 32, 4, 1, layout=TileLayout(S[(4, 8, 4, 2, 2, 1) : (0, 8, 1, 4, 64, 1)]))
    Bw = B.view("uint32").view(4, 32, 2, 1, layout=TileLayout(S[(4, 8, 4, 2, 1) : (0, 8, 1, 4, 1)]))
    T.cuda.tile.apply(T.ptx["ld.global.b32"], a.view(4, 32, 4, 1, layout=TileLayout(S[(4, 32, 4, 1) : (1 @ wid_in_wg, 1 @ laneid, 1, 1)])), Aw, scope="warpgroup")
    T.cuda.tile.apply(T.ptx["ld.global.b32"], b.view(4, 32, 2, 1, layout=TileLayout(S[(4, 32, 2, 1) : (1 @ wid_in_wg, 1 @ laneid, 1, 1)])), Bw, scope="warpgroup")
    T.cuda.tile.apply(T.ptx["mov.b32"], c.view(4, 32, 4, 1, layout=TileLayout(S[(4, 32, 4, 1) : (1 @ wid_in_wg, 1 @ laneid, 1, 1)])), T.float32(0), scope="warpgroup")
    T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"], c, a, b, c, scope="warpgroup")
    # every thread of the CTA stores its four accumulators: (warp, lane, h, q) of C
    cv = c.view(8, 32, 2, 2, layout=TileLayout(S[(8, 32, 2, 2) : (32 @ tx, 1 @ tx, 2, 1)]))
    T.cuda.tile.apply(T.ptx["st.global.v2.b32"], C, cv, scope="cta")
