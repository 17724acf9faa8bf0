# T.ceildiv(a, 0) in a static position is a division by zero, as in Python
from tvm.script import tirx as T

@T.function
def k(A: T.Tensor((64,), "float32")):
    # expected-error@+1 E0156 {{division by zero}}
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(64, 0), block=64))
