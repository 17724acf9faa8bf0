# a kernel under an undefined decorator (@foo): a diagnostic at the name
from tvm.script import tirx as T

# expected-error@+1 E0117 {{name 'foo' is not defined}}
@foo
def k(A: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
