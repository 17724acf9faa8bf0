# Codegen checks for ldmatrix/stmatrix on a 128-byte-swizzled shared tile: each lane passes the
# address of the row it provides (matrix (lane >> 3) % count, row lane & 7), the tile's XOR swizzle
# applied in closed form by tirx_swizzle on the view's element offset (m = 3 for 16-bit elements,
# 2 for the 32-bit staging view); the registers are constant slots (a gapped view: 0 and 2, 1 and 3).
# CHECK: __device__ __forceinline__ int tirx_swizzle(int o, int m, int b, int s) {
# CHECK: __shared__ alignas(1024) unsigned short As[1024];
# CHECK: unsigned frag[4];
# CHECK: asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" :  : "r"((unsigned)__cvta_generic_to_shared(reinterpret_cast<unsigned*>(As) + (tirx_swizzle((tirx_lane * 16), 2, 3, 3)))), "r"(stage[0]), "r"(stage[1]), "r"(stage[2]), "r"(stage[3]) : "memory");
# CHECK: asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];" : "=r"(frag[0]), "=r"(frag[1]), "=r"(frag[2]), "=r"(frag[3]) : "r"((unsigned)__cvta_generic_to_shared(As + tirx_swizzle(((((tirx_lane >> 3) & 3) % 2) * 512 + (((tirx_lane >> 3) & 3) / 2) * 8 + ((tirx_lane & 7)) * 64), 3, 3, 3))) : "memory");
# CHECK: asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(frag[0]), "=r"(frag[2]) : "r"((unsigned)__cvta_generic_to_shared(As + tirx_swizzle(((((tirx_lane >> 3) & 1)) * 512 + ((tirx_lane & 7)) * 64 + 16), 3, 3, 3))) : "memory");
# CHECK: asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" :  : "r"((unsigned)__cvta_generic_to_shared(As + tirx_swizzle(((((tirx_lane >> 3) & 1)) * 512 + ((tirx_lane & 7)) * 64 + 16), 3, 3, 3))), "r"(frag[1]), "r"(frag[3]) : "memory");
# CHECK-PTX-COUNT-1: ldmatrix.sync.aligned.m8n8.x4.shared.b16
# CHECK-PTX-COUNT-1: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
# CHECK-PTX-COUNT-1: stmatrix.sync.aligned.m8n8.x2.shared.b16
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid
from tvm.tirx.layout import S, TileLayout, ComposeLayout

SW = ComposeLayout(3, 3, 3, TileLayout(S[16, 64]))


@T.function
def ldmatrix_swizzled(A: T.Tensor((16, 64), "bfloat16"), Out: T.Tensor((32, 4), "uint32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    As = T.alloc_shared((16, 64), "bfloat16", layout=SW, align=1024)
    stage = T.alloc_local((32, 4, 4), "uint32", layout=TileLayout(S[(32, 4, 4) : (1 @ laneid, 4, 1)]))
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], stage, A.view("uint32").view(32, 4, 4), scope="warp")
    T.cuda.tile.apply(T.ptx["st.shared.v4.b32"], As.view("uint32").view(32, 4, 4), stage, scope="warp")
    T.cuda.cta_sync()
    frag = T.alloc_local((4, 8, 4), "uint32", layout=TileLayout(S[(4, 8, 4) : (1, 4 @ laneid, 1 @ laneid)]))
    # matrix i: rows 8 (i % 2) .., columns 8 (i // 2) .. of the tile
    rows = As.view(4, 8, 8, layout=ComposeLayout(3, 3, 3, TileLayout(S[(2, 2, 8, 8) : (8, 512, 64, 1)])))
    T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x4.shared.b16"], frag, rows, scope="warp")
    # a gapped register view: registers 0 and 2 (matrices 0, 1 of columns 16..23)
    rows2 = As.view(2, 8, 8, layout=ComposeLayout(3, 3, 3, TileLayout(S[(2, 8, 8) : (512, 64, 1)] + 16)))
    T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16"], frag.view(2, 8, 4, layout=TileLayout(S[(2, 8, 4) : (2, 4 @ laneid, 1 @ laneid)])), rows2, scope="warp")
    T.cuda.cta_sync()
    T.cuda.tile.apply(T.ptx["stmatrix.sync.aligned.m8n8.x2.shared.b16"], rows2, frag.view(2, 8, 4, layout=TileLayout(S[(2, 8, 4) : (2, 4 @ laneid, 1 @ laneid)] + 1)), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], Out, frag.view(32, 4, layout=TileLayout(S[(32, 4) : (1 @ laneid, 1)])), scope="warp")
