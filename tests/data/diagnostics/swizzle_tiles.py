# swizzled shared tiles (spec TC §9.3): the unit is one 16-byte chunk, the start is pattern-aligned,
# the swizzle belongs to shared memory, and views restate it
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid
from tvm.tirx.layout import S, TileLayout, ComposeLayout

SW = ComposeLayout(3, 3, 3, TileLayout(S[64, 64]))

@T.function
def k(C: T.Tensor((16, 8), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    ok = T.alloc_shared((64, 64), "bfloat16", layout=SW, align=1024)
    # expected-error@+1 E0267 {{per_element=2}}
    bad_unit = T.alloc_shared((64, 64), "bfloat16", layout=ComposeLayout(2, 3, 3, TileLayout(S[64, 64])), align=1024)
    # expected-error@+1 E0268 {{repeats every 1024 bytes}}
    bad_align = T.alloc_shared((64, 64), "bfloat16", layout=SW, align=128)
    # expected-error@+1 E0269 {{'r' is a register tile, which has no addresses}}
    r = T.alloc_local((64, 64), "bfloat16", layout=SW)
    v1 = ok.view(64, 8, 8, layout=ComposeLayout(3, 3, 3, TileLayout(S[(64, 8, 8) : (64, 8, 1)])))
    v2 = ok.view("uint32").view(64, 8, 4, layout=ComposeLayout(2, 3, 3, TileLayout(S[(64, 8, 4) : (32, 4, 1)])))
    v3 = ok.view(64, 8, 8)
    # expected-error@+1 E0269 {{must restate the swizzle, found the plain}}
    v4 = ok.view(64, 8, 8, layout=TileLayout(S[(64, 8, 8) : (64, 8, 1)]))
    # expected-error@+1 E0269 {{differs from the swizzle of 'ok'}}
    v5 = ok.view(64, 8, 8, layout=ComposeLayout(3, 2, 3, TileLayout(S[(64, 8, 8) : (64, 8, 1)])))
    # expected-error@+1 E0269 {{differs from the swizzle of 'ok'}}
    v6 = ok.view("uint32").view(64, 8, 4, layout=ComposeLayout(3, 3, 3, TileLayout(S[(64, 8, 4) : (32, 4, 1)])))
