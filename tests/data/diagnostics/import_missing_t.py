# a script missing its imports: T is not defined, so nothing under @T.function would be checked
import numpy as np

# expected-error@+1 E0117 {{name 'T' is not defined}} {{from tvm.script import tirx as T}}
@T.function
def k(A: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
