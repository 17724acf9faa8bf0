# fragment registers: A/B are 32-bit words (a uint32 view of bf16 pairs), C/D float32; atoms exact
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout, ComposeLayout

A_FRAG = TileLayout(S[(2, 8, 2, 4) : (1, 4 @ laneid, 2, 1 @ laneid)])
B_FRAG = TileLayout(S[(8, 2, 4) : (4 @ laneid, 1, 1 @ laneid)])
C_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])


@T.function
def k(C: T.Tensor((16, 8), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    a16 = T.alloc_local((16, 16), "bfloat16", layout=TileLayout(S[(2, 8, 2, 4, 2) : (2, 4 @ laneid, 4, 1 @ laneid, 1)]))
    a = T.alloc_local((16, 8), "uint32", layout=A_FRAG)
    af = T.alloc_local((16, 8), "float32", layout=A_FRAG)
    b = T.alloc_local((8, 8), "uint32", layout=B_FRAG)
    b4 = T.alloc_local((8, 4), "uint32", layout=TileLayout(S[(8, 4) : (4 @ laneid, 1 @ laneid)]))
    c = T.alloc_local((16, 8), "float32", layout=C_FRAG)
    # expected-error@+1 E0167 {{needs 32-bit registers (.b32), but 'a16' holds bfloat16 (16-bit)}}
    T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"], c, a16, b, c, scope="warp")
    T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"], c, a16.view("uint32"), b, c, scope="warp")
    # expected-error@+1 E0168 {{needs a uint32 or int32 register, found float32}}
    T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"], c, af, b, c, scope="warp")
    # expected-error@+1 E0165 {{needs the trailing atom axes (8, 8) in 'b4', found (8, 4)}}
    T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"], c, a, b4, c, scope="warp")
    # expected-error@+1 E0176 {{operand 'a' of mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 is a register operand, but 'C' is a global tensor}}
    T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"], c, C, b, c, scope="warp")
