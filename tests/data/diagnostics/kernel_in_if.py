# a kernel defined under a module-level if: the checker does not see it
from tvm.script import tirx as T

USE = True
if USE:

    @T.function
    # expected-error@+1 E0118 {{the kernel 'k' is defined inside an if statement}}
    def k(A: T.Tensor((64,), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
