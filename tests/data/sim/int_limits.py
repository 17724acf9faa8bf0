# Integers beyond int32 and at the int64 extremes: a literal index of 2^32 (was truncated to
# element 0), a range whose bounds need 64 bits (ran twice instead of until the break), a loop
# whose last step passes INT32_MAX (wrapped around and ran forever), INT64_MIN // -1 and % -1
# (SIGFPE), and the negation and absolute value of INT64_MIN (signed overflow).
from tvm.script import tirx as T


@T.function
def k(A: T.Tensor((8,), "float32"), B: T.Tensor((8,), "int64")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    n = 0
    for i in range(2, 4294967298):
        n = n + 1
        if n == 3:
            break
    B[0] = T.Cast("int64", n)
    m = 0
    for j in range(2147483640, 2147483647, 5):
        m = m + 1
    B[1] = T.Cast("int64", m)
    lo = T.int64(-9223372036854775807) - T.int64(1)
    B[2] = lo // T.int64(-1)
    B[3] = lo % T.int64(-1)
    B[4] = -lo
    B[5] = T.abs(lo)
    big = 4294967296
    A[big - 4294967296] = T.float32(1)
    A[big] = T.float32(7)
