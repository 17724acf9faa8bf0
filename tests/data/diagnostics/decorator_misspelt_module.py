# a kernel under @t.function (lower-case t is not defined): Python's NameError, not a silent skip
from tvm.script import tirx as T

# expected-error@+1 E0117 {{name 't' is not defined}} {{'k' is not checked as a kernel}}
@t.function
def k(A: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
