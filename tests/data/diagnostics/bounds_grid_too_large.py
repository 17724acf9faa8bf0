# static bounds: grid=3 on a tensor that holds two blocks of 256 is reported by the checker
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid, warpid

reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function
def k(A: T.Tensor((512,), "float32"), B: T.Tensor((512,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=3, block=64))
    bx = T.cuda.block_idx("x")
    tx = T.cuda.thread_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    # expected-error@+1 E0291 {{reaches index 2 of dimension 0 (extent 2)}}
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A.view(2, 2, 32, 4).sub[bx], scope="cta")
    Q = T.alloc_local((4,), "float32")
    # expected-error@+1 E0291 {{reaches index 767 of dimension 0 (extent 512)}}
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], Q, A[bx * 256 + tx * 4 : bx * 256 + tx * 4 + 4])
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B.view(2, 2, 32, 4).sub[bx % 2], R, scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[tx * 4 : tx * 4 + 4], Q)
