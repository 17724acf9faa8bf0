# syntax: malformed f-strings are E0015 at the offending character (Python 3.11's rules), an error
# inside a field's expression keeps its own code, and each bad statement costs one error
from tvm.script import tirx as T

@T.function
def k(A: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))

import numpy as np

x = np.zeros(3)
# expected-error@+1 E0015 {{single '}' is not allowed}}
a = f"mean } {x}"
# expected-error@+1 E0015 {{expected '}' to close the replacement field}}
b = f"{x.sum():>8"
# expected-error@+1 E0015 {{empty expression not allowed}}
c = f"{} items"
# expected-error@+1 E0015 {{invalid conversion character 'x'}}
d = f"{x!x}"
# expected-error@+1 E0015 {{cannot include a backslash}}
e = f"{x['\n']}"
# expected-error@+1 E0015 {{expressions nested too deeply}}
g = f"{x:{4:{2}}}"
# expected-error@+1 E0001 {{after the expression of the f-string field, found 'y'}}
h = f"{x y}"
ok = f"{x.sum():>8.3f} {x.shape!r} {{braces}}"
