# constant folding: Python integers folded exactly; a value that leaves int64 is an error at the
# expression (decision D-INT64), never a wrap-around and never a crash (INT64_MIN // -1 raised SIGFPE)
from tvm.script import tirx as T

# legal Python for the harness; an error where TIRx code uses it (once, at the definition)
# expected-error@+1 E0240 {{'1 << 70' does not fit in 64 bits}}
BIG = 1 << 70
HARNESS_ONLY = 3 ** 100

@T.function
# expected-error@+1 E0240 {{'(1 << 62) * 4' does not fit in 64 bits}}
def k(A: T.Tensor(((1 << 62) * 4 + 8,), "float32"), B: T.Tensor((64,), "int64")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    # expected-error@+1 E0240 {{'(-9223372036854775807 - 1) // -1' does not fit in 64 bits}}
    B[0] = T.int64((-9223372036854775807 - 1) // -1)
    # Python: INT64_MIN % -1 == 0 (no error, no SIGFPE)
    B[1] = T.int64((-9223372036854775807 - 1) % -1)
    B[11] = T.int64(BIG)
    B[12] = T.int64(BIG + 1)
    # expected-error@+1 E0240 {{'-(-9223372036854775807 - 1)' does not fit in 64 bits}}
    B[2] = T.int64(-(-9223372036854775807 - 1))
    # expected-error@+1 E0240 {{'9223372036854775807 + 1' does not fit in 64 bits}}
    B[3] = T.int64(9223372036854775807 + 1)
    # expected-error@+1 E0240 {{'3 ** 41' does not fit in 64 bits}}
    B[4] = T.int64(3 ** 41)
    # big shifts to the right are exact: 0 and -1
    B[5] = T.int64((1 >> 200) + (-1 >> 200) + (2 ** 62 >> 61))
    # expected-error@+1 E0244 {{negative shift count}}
    B[6] = T.int64(1 << -1)
    # expected-error@+1 E0244 {{negative shift count}}
    B[7] = T.int64(8 >> -2)
    # expected-error@+1 E0156 {{division by zero}}
    B[8] = T.int64(7 % 0)
    # expected-error@+1 E0156 {{division by zero}}
    B[9] = T.int64(0 ** -1)
    # expected-error@+1 E0156 {{float division by zero}}
    B[10] = T.Cast("int64", T.float32(1.0 / 0.0))
