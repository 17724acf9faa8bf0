# Codegen checks for mma.sync: one asm per (m, n, k) repeat with K innermost, fragments as constant
# slots of per-thread arrays, D tied to C with "+f" when they are the same registers, "=f" and "f"
# when they are not. ptxas turns each into one HMMA (HMMA.16816.F32.BF16 / HMMA.1688.F32).
# CHECK: unsigned a[8];
# CHECK: asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};" : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
# CHECK-NEXT: #line
# CHECK-NEXT: asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};" : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) : "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(b[2]), "r"(b[3]));
# CHECK: asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
# CHECK: asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};" : "+f"(e[0]), "+f"(e[1]), "+f"(e[2]), "+f"(e[3]) : "r"(h[0]), "r"(h[1]), "r"(g[0]));
# CHECK-NEXT: #line
# CHECK-NEXT: asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};" : "+f"(e[4]), "+f"(e[5]), "+f"(e[6]), "+f"(e[7]) : "r"(h[0]), "r"(h[1]), "r"(g[1]));
# CHECK-NOT: mma.sync
# CHECK-PTX-COUNT-3: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
# CHECK-PTX-COUNT-2: mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid
from tvm.tirx.layout import S, TileLayout

C_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])


@T.function
def mma_sync(C: T.Tensor((32, 4, 1), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    # A (M=1, K=2): slot = 4k + register; B (N=1, K=2): slot = 2k + register
    a = T.alloc_local((1, 2, 16, 8), "uint32", layout=TileLayout(S[(1, 2, 2, 8, 2, 4) : (1, 4, 1, 4 @ laneid, 2, 1 @ laneid)]))
    b = T.alloc_local((1, 2, 8, 8), "uint32", layout=TileLayout(S[(1, 2, 8, 2, 4) : (1, 2, 4 @ laneid, 1, 1 @ laneid)]))
    c = T.alloc_local((16, 8), "float32", layout=C_FRAG)
    d = T.alloc_local((16, 8), "float32", layout=C_FRAG)
    T.cuda.tile.apply(T.ptx["mov.b32"], a.view(32, 8, 1, layout=TileLayout(S[(32, 8, 1) : (1 @ laneid, 1, 1)])), T.uint32(0), scope="warp")
    T.cuda.tile.apply(T.ptx["mov.b32"], b.view(32, 4, 1, layout=TileLayout(S[(32, 4, 1) : (1 @ laneid, 1, 1)])), T.uint32(0), scope="warp")
    T.cuda.tile.apply(T.ptx["mov.b32"], c.view(32, 4, 1, layout=TileLayout(S[(32, 4, 1) : (1 @ laneid, 1, 1)])), T.float32(0), scope="warp")
    T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"], c, a, b, c, scope="warp")
    T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"], d, a.sub[0:1, 0:1], b.sub[0:1, 0:1], c, scope="warp")
    # m16n8k8 f16 with N = 2 repeats of one shared A: slot of E = 4n + register
    h = T.alloc_local((16, 4), "uint32", layout=TileLayout(S[(2, 8, 4) : (1, 4 @ laneid, 1 @ laneid)]))
    g = T.alloc_local((2, 1, 8, 4), "uint32", layout=TileLayout(S[(2, 1, 8, 4) : (1, 1, 4 @ laneid, 1 @ laneid)]))
    e = T.alloc_local((1, 2, 16, 8), "float32", layout=TileLayout(S[(1, 2, 2, 8, 4, 2) : (1, 4, 2, 4 @ laneid, 1 @ laneid, 1)]))
    T.cuda.tile.apply(T.ptx["mov.b32"], h.view(32, 2, 1, layout=TileLayout(S[(32, 2, 1) : (1 @ laneid, 1, 1)])), T.uint32(0), scope="warp")
    T.cuda.tile.apply(T.ptx["mov.b32"], g.view(32, 2, 1, layout=TileLayout(S[(32, 2, 1) : (1 @ laneid, 1, 1)])), T.uint32(0), scope="warp")
    T.cuda.tile.apply(T.ptx["mov.b32"], e.view(32, 8, 1, layout=TileLayout(S[(32, 8, 1) : (1 @ laneid, 1, 1)])), T.float32(0), scope="warp")
    T.cuda.tile.apply(T.ptx["mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32"], e, h.view(1, 1, 16, 4, layout=TileLayout(S[(1, 1, 2, 8, 4) : (1, 1, 1, 4 @ laneid, 1 @ laneid)])), g, e, scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.b32"], C, d.view(32, 4, 1, layout=TileLayout(S[(32, 4, 1) : (1 @ laneid, 1, 1)])), scope="warp")
