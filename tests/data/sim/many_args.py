# An ewise function of 18 inputs and a rank-9 load and rank-13 store: the simulator kept only 16
# arguments, 8 load indices and 12 store indices and computed garbage beyond them.
from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid
from tvm.tirx.layout import S, TileLayout

reg = TileLayout(S[(32, 1) : (1 @ laneid, 1)])


@T.function(private=True)
def weighted(a0: T.float32, a1: T.float32, a2: T.float32, a3: T.float32, a4: T.float32,
             a5: T.float32, a6: T.float32, a7: T.float32, a8: T.float32, a9: T.float32,
             a10: T.float32, a11: T.float32, a12: T.float32, a13: T.float32, a14: T.float32,
             a15: T.float32, a16: T.float32, a17: T.float32) -> T.float32:
    return a0 + a16 * T.float32(100) + a17 * T.float32(1000)


@T.function
def k(A: T.Tensor((32, 1), "float32"), Out: T.Tensor((32, 1), "float32"),
      D9: T.Tensor((1, 1, 1, 1, 1, 1, 1, 1, 4), "float32"),
      D13: T.Tensor((1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    R = T.alloc_local((32, 1), "float32", layout=reg)
    T.cuda.tile.apply(T.ptx["ld.global.b32"], R, A, scope="warp")
    T.cuda.tile.ewise(weighted, R, R, T.float32(1), T.float32(2), T.float32(3), T.float32(4),
                      T.float32(5), T.float32(6), T.float32(7), T.float32(8), T.float32(9),
                      T.float32(10), T.float32(11), T.float32(12), T.float32(13), T.float32(14),
                      T.float32(15), T.float32(16), T.float32(17), scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.b32"], Out, R, scope="warp")
    tid = T.cuda.thread_idx("x")
    if tid == 0:
        D13[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3] = D9[0, 0, 0, 0, 0, 0, 0, 0, 2]
