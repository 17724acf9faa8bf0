# ldmatrix/stmatrix rows: 16 contiguous bytes each, 16-byte aligned, 32-bit register words
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid
from tvm.tirx.layout import S, TileLayout

REGS = TileLayout(S[(1, 8, 4) : (1, 4 @ laneid, 1 @ laneid)])

@T.function
def k(C: T.Tensor((16, 8), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    s = T.alloc_shared((64, 64), "bfloat16", align=128)
    r = T.alloc_local((1, 8, 4), "uint32", layout=REGS)
    h = T.alloc_local((1, 8, 8), "bfloat16", layout=TileLayout(S[(1, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]))
    T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x1.shared.b16"], r, s.view(64, 1, 8, 8, layout=TileLayout(S[(64, 1, 8, 8) : (8, 1, 64, 1)])).sub[5], scope="warp")
    # expected-error@+1 E0265 {{row (0, 0) of 's.view(1, 8, 8, layout=TileLayout(S[(1, 8, 8) : (1, 64, 2)]))' is not 16 contiguous bytes: element 1 is at offset 2, expected 1}}
    T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x1.shared.b16"], r, s.view(1, 8, 8, layout=TileLayout(S[(1, 8, 8) : (1, 64, 2)])), scope="warp")
    # expected-error@+1 E0266 {{starts at byte 8 of 's', which is not 16-byte aligned}}
    T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x1.shared.b16"], r, s.view(1, 8, 8, layout=TileLayout(S[(1, 8, 8) : (1, 64, 1)] + 4)), scope="warp")
    # expected-error@+1 E0167 {{needs 32-bit registers (.b32), but 'h' holds bfloat16 (16-bit)}}
    T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x1.shared.b16"], h, s.view(64, 1, 8, 8, layout=TileLayout(S[(64, 1, 8, 8) : (8, 1, 64, 1)])).sub[0], scope="warp")
    T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x1.shared.b16"], h.view("uint32"), s.view(64, 1, 8, 8, layout=TileLayout(S[(64, 1, 8, 8) : (8, 1, 64, 1)])).sub[0], scope="warp")
    for i in range(8):
        T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x1.shared.b16"], r, s.view(8, 1, 8, 8, layout=TileLayout(S[(8, 1, 8, 8) : (512, 1, 64, 1)])).sub[i], scope="warp")
        # expected-error@+1 E0182 {{cannot prove that the rows of}}
        T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x1.shared.b16"], r, s.view(8, 1, 8, 8, layout=TileLayout(S[(8, 1, 8, 8) : (4, 1, 64, 1)])).sub[i], scope="warp")
    # expected-error@+1 E0165 {{needs the trailing atom axes (1, 8, 8) in 's.view(32, 1, 8, 16)', found (1, 8, 16)}}
    T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x1.shared.b16"], r, s.view(32, 1, 8, 16), scope="warp")
