# shfl.sync and redux.sync as tile ops: per-lane atoms at warp or cta scope, scalars for b, c, mask
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout

@T.function
def k(A: T.Tensor((64,), "uint32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    r = T.alloc_local((2, 32, 1), "uint32", layout=TileLayout(S[(2, 32, 1) : (1 @ warpid, 1 @ laneid, 1)]))
    f = T.alloc_local((2, 32, 1), "float32", layout=TileLayout(S[(2, 32, 1) : (1 @ warpid, 1 @ laneid, 1)]))
    T.cuda.tile.apply(T.ptx["shfl.sync.bfly.b32"], r, r, T.uint32(1), T.uint32(31), T.uint32(0xFFFFFFFF), scope="cta")
    T.cuda.tile.apply(T.ptx["shfl.sync.idx.b32"], f, f, T.uint32(0), T.uint32(31), T.uint32(0xFFFFFFFF), scope="cta")
    T.cuda.tile.apply(T.ptx["redux.sync.add.u32"], r, r, T.uint32(0xFFFFFFFF), scope="cta")
    # expected-error@+2 E0168 {{operand 'd' of redux.sync.max.s32 (.s32) needs a int32 carrier, found uint32}}
    # expected-error@+1 E0168 {{operand 'a' of redux.sync.max.s32}}
    T.cuda.tile.apply(T.ptx["redux.sync.max.s32"], r, r, T.uint32(0xFFFFFFFF), scope="cta")
    # expected-error@+1 E0260 {{found "thread"}}
    T.cuda.tile.apply(T.ptx["redux.sync.or.b32"], r.view(64, 1), r.view(64, 1), T.uint32(0xFFFFFFFF))
