# scope="warp" in a block of two warps: each warp moves its own row block through lane-relative
# registers (the layout names lanes only; both warps run the same operation on their own copy)
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid
from tvm.tirx.layout import S, TileLayout


@T.function
def k(A: T.Tensor((2, 32, 4), "float32"), Out: T.Tensor((2, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    w = T.cuda.warp_id()
    R = T.alloc_local((32, 4), "float32", layout=TileLayout(S[(32, 4) : (1 @ laneid, 1)]))
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A.sub[w], scope="warp")
    T.cuda.tile.apply(T.ptx["mul.rn.f32"], R.view(32, 4, 1), R.view(32, 4, 1), T.float32(2), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], Out.sub[w], R, scope="warp")
