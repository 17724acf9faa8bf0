# A kernel whose argument is a (1 << 40,) float32 tensor (4 TiB) and no check code: the seeded run
# refuses it before allocating (E0771 at the kernel, exit 1), as the simulator refuses any launch
# past SimOptions::maxMemoryBytes.
from tvm_tirx.script import tirx as T
from tvm_tirx.tirx.layout import S, TileLayout
from tvm_tirx.backend.cuda.axis import laneid, warpid

register_layout = TileLayout(S[(8, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


@T.function
def big(A: T.Tensor((1 << 40,), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=256))
    registers = T.alloc_local((8, 32, 4), "float32", layout=register_layout)
    Av = A.view(1073741824, 8, 32, 4)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], registers, Av.sub[0, :, :, :], scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], Av.sub[1, :, :, :], registers, scope="cta")
