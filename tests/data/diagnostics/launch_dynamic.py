# dynamic launches (decision "Dynamic shapes", which revises D-1): the grid may be computed from
# parameters on the host; the block stays static (tile ops are checked per thread)
from tvm.script import tirx as T

@T.function
def k(n: T.int32, A: T.Tensor((64,), "float32")):
    # expected-error@+1 E0120 {{static integers}}
    T.device_entry(launch=T.cuda.LaunchConfig(grid=n, block=n))
