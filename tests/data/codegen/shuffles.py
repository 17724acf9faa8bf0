# Codegen checks for the shuffles: T.cuda.__shfl_xor_sync becomes CUDA's own intrinsic in an
# assignment of its own (hoisted before the statement that uses it), the shfl.sync and redux.sync
# tile ops one asm per repeat with scalar b, c and membermask.
# CHECK: tirx_shfl0_ = __shfl_xor_sync(4294967295u, v, tirx_shr(16, k), 32);
# CHECK-NEXT: #line
# CHECK-NEXT: v = __fadd_rn(v, tirx_shfl0_);
# CHECK: asm volatile("shfl.sync.bfly.b32 %0, %1, %2, %3, %4;" : "=r"(r[0]) : "r"(r[0]), "r"(1u), "r"(31u), "r"(4294967295u));
# CHECK: asm volatile("redux.sync.add.u32 %0, %1, %2;" : "=r"(r[0]) : "r"(r[0]), "r"(4294967295u));
# CHECK-PTX: shfl.sync.bfly.b32
# CHECK-PTX-COUNT-1: redux.sync.add.u32
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid
from tvm.tirx.layout import S, TileLayout


@T.function
def shuffles(A: T.Tensor((32,), "float32"), U: T.Tensor((32,), "uint32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    lane = T.cuda.lane_id()
    v = A[lane]
    for k in range(5):
        v = v + T.cuda.__shfl_xor_sync(0xFFFFFFFF, v, 16 >> k)
    A[lane] = v
    r = T.alloc_local((32, 1), "uint32", layout=TileLayout(S[(32, 1) : (1 @ laneid, 1)]))
    T.cuda.tile.apply(T.ptx["ld.global.b32"], r, U.view(32, 1), scope="warp")
    T.cuda.tile.apply(T.ptx["shfl.sync.bfly.b32"], r, r, T.uint32(1), T.uint32(31), T.uint32(0xFFFFFFFF), scope="warp")
    T.cuda.tile.apply(T.ptx["redux.sync.add.u32"], r, r, T.uint32(0xFFFFFFFF), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.b32"], U.view(32, 1), r, scope="warp")
