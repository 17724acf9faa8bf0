# TLane/TCol import (from either module) but address Blackwell tensor memory: not supported yet
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout, TLane, TCol

tmem = TileLayout(S[(128, 4) : (1 @ TLane, 1 @ TCol)])

@T.function
def k(A: T.Tensor((512,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
    # expected-error@+1 E0290 {{axis 'TLane' addresses Blackwell tensor memory}}
    R = T.alloc_local((128, 4), "float32", layout=tmem)
