# @T.prim_fun: an unknown TIRx name with the closest builtin
from tvm.script import tirx as T

# expected-error@+1 E0101 {{unknown TIRx name 'T.prim_fun'}}
@T.prim_fun
def k(A: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
