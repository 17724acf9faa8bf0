# statements: an f-string in TIRx code is refused (Python would evaluate it; a plain string there
# is a docstring or a comment); where a string literal is expected its own check refuses it
from tvm.script import tirx as T

NAME = f"scale {2}"  # module-level code is the harness's: accepted


@T.function
def k(A: T.Tensor((64,), "float32")):
    # expected-error@+1 E0107 {{f-strings are not supported in TIRx code}}
    f"kernel {NAME}"
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    # expected-error@+1 E0107 {{f-strings are not supported in TIRx code}}
    f"thread {tid}"
    # expected-error@+1 E0107 {{f-strings are not supported in TIRx code}}
    A[tid] = f"{tid}"
    # expected-error@+1 E0114 {{expected a dtype}}
    B = T.alloc_local((1,), f"float32")
