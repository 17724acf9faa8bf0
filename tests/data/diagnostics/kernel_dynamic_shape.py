# dynamic shapes (decision "Dynamic shapes", which revises D-1): an int parameter may be the
# leading extent of a tensor; a float parameter or a runtime expression may not
from tvm.script import tirx as T

@T.function
# expected-error@+2 E0113 {{found 'x'}}
# expected-error@+1 E0113 {{found 'n + 1'}}
def k(n: T.int32, x: T.float32, A: T.Tensor((n, 4), "float32"), B: T.Tensor((x,), "float32"), C: T.Tensor((n + 1,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
