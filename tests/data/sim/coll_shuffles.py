# every shuffle mode and width, the tile-op shfl.sync and redux.sync, against a reference in the test
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout

LANES = TileLayout(S[(2, 32, 1) : (1 @ warpid, 1 @ laneid, 1)])


@T.function
def k(A: T.Tensor((64,), "int32"), O: T.Tensor((12, 64), "int32"), R: T.Tensor((6, 2, 32, 1), "uint32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    lane = T.cuda.lane_id()
    v = A[tid]
    O[0, tid] = T.cuda.__shfl_xor_sync(0xFFFFFFFF, v, 5)
    O[1, tid] = T.cuda.__shfl_xor_sync(0xFFFFFFFF, v, 3, 4)
    O[2, tid] = T.cuda.__shfl_sync(0xFFFFFFFF, v, 7)
    O[3, tid] = T.cuda.__shfl_sync(0xFFFFFFFF, v, lane + 3, 8)
    O[4, tid] = T.cuda.__shfl_up_sync(0xFFFFFFFF, v, 3)
    O[5, tid] = T.cuda.__shfl_up_sync(0xFFFFFFFF, v, 2, 8)
    O[6, tid] = T.cuda.__shfl_down_sync(0xFFFFFFFF, v, 3)
    O[7, tid] = T.cuda.__shfl_down_sync(0xFFFFFFFF, v, 5, 16)
    O[8, tid] = T.cuda.__shfl_sync(0xFFFFFFFF, v, 40)
    O[9, tid] = T.cuda.__shfl_xor_sync(0xFFFFFFFF, v, 37)
    O[10, tid] = T.cuda.__shfl_down_sync(0xFFFFFFFF, v, 31)
    O[11, tid] = T.cuda.__shfl_up_sync(0xFFFFFFFF, v, 33)
    r = T.alloc_local((2, 32, 1), "uint32", layout=LANES)
    d = T.alloc_local((2, 32, 1), "uint32", layout=LANES)
    T.cuda.tile.apply(T.ptx["ld.global.b32"], r, A.view("uint32").view(2, 32, 1), scope="cta")
    T.cuda.tile.apply(T.ptx["shfl.sync.bfly.b32"], d, r, T.uint32(6), T.uint32(0x1F), T.uint32(0xFFFFFFFF), scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.b32"], R.sub[0], d, scope="cta")
    T.cuda.tile.apply(T.ptx["shfl.sync.down.b32"], d, r, T.uint32(2), T.uint32(0x181F), T.uint32(0xFFFFFFFF), scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.b32"], R.sub[1], d, scope="cta")
    T.cuda.tile.apply(T.ptx["redux.sync.add.u32"], d, r, T.uint32(0xFFFFFFFF), scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.b32"], R.sub[2], d, scope="cta")
    T.cuda.tile.apply(T.ptx["redux.sync.min.s32"], d.view("int32"), r.view("int32"), T.uint32(0xFFFFFFFF), scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.b32"], R.sub[3], d, scope="cta")
    T.cuda.tile.apply(T.ptx["redux.sync.max.u32"], d, r, T.uint32(0xFFFFFFFF), scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.b32"], R.sub[4], d, scope="cta")
    T.cuda.tile.apply(T.ptx["redux.sync.xor.b32"], d, r, T.uint32(0xFFFFFFFF), scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.b32"], R.sub[5], d, scope="cta")
