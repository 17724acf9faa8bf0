# shared_affine of the ewise doc page with its second T.cuda.cta_sync() removed: the final read of
# the neighbour's row races with the neighbour's st.shared (E0701, both lines named).
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout

reg_layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


@T.function(private=True)
def affine(x: T.float32) -> T.float32:
    return x * T.float32(2) + T.float32(1)


@T.function
def shared_affine(A: T.Tensor((64, 4), "float32"), Out: T.Tensor((64, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    S = T.alloc_shared((64, 4), "float32", layout="default", align=16)
    for j in range(4):
        S[tid, j] = A[tid, j]
    T.cuda.cta_sync()
    sv = S.view(2, 32, 4)
    R = T.alloc_local((2, 32, 4), "float32", layout=reg_layout)
    T.cuda.tile.apply(T.ptx["ld.shared.v4.b32"], R, sv, scope="cta")
    T.cuda.tile.ewise(affine, R, R, scope="cta")
    T.cuda.tile.apply(T.ptx["st.shared.v4.b32"], sv, R, scope="cta")
    for j in range(4):
        Out[tid, j] = S[(tid + 1) % 64, j]
