# static bounds of views: a view's layout must keep every element inside the storage of its tile
# (issue 22: a (2, 1) register tile viewed as (8, 1) compiled to tmp[7] of float tmp[2])
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout
from tvm.backend.cuda.axis import laneid


@T.function
def k(A: T.Tensor((8, 1), "float32"), B: T.Tensor((8, 1), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tmp = T.alloc_local((2, 1), "float32")
    big = T.alloc_local((8, 1), "float32")
    sh = T.alloc_shared((4, 16), "float32")
    # expected-error@+1 E0291 {{view 'tmp.view(8, 1, layout=TileLayout(S[(8, 1) : (1, 1)]))' reaches register slot 7 of 'tmp', which has 2 register slots per thread}}
    v = tmp.view(8, 1, layout=TileLayout(S[(8, 1) : (1, 1)]))
    # in bounds: the same 2 slots, and 64 shared elements as 2 x 32
    ok = tmp.view(2, layout=TileLayout(S[2 : 1]))
    sok = sh.view(2, 32, layout=TileLayout(S[(2, 32) : (32, 1)]))
    # expected-error@+1 E0291 {{reaches element 64 of 'sh', which has 64 elements}}
    s2 = sh.view(2, 32, layout=TileLayout(S[(2, 32) : (33, 1)]))
    # expected-error@+1 E0291 {{reaches register slot 2 of 'tmp'}}
    off = tmp.view(2, layout=TileLayout(S[2 : 2]))
    # thread axes are not storage: 32 lanes x 2 slots fit a 2-slot tile
    lanes = big.view(32, 2, layout=TileLayout(S[(32, 2) : (1 @ laneid, 1)]))
