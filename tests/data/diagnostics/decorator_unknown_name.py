# a kernel under a decorator that is not TIRx's: nothing would be checked
from tvm.script import tirx as T
import numpy as np

foo = np


# expected-error@+1 E0109 {{decorator 'foo' is not a TIRx decorator}} {{kernels are written with @T.function}}
@foo
def k(A: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
