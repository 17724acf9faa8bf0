# A long but finite loop (26 M iterations, 52 M loop statements: the old per-thread limit of 50 M
# statements called it a "runaway loop") and an endless one, for the work budget.
from tvm.script import tirx as T


@T.function
def finite(A: T.Tensor((1,), "int32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    for i in range(26000000):
        pass
    A[0] = 7


@T.function
def endless(A: T.Tensor((1,), "int32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    x = 0
    while x >= 0:
        x = (x + 1) % 5
    A[0] = x


@T.function
def many_ctas(A: T.Tensor((1000,), "int32")):
    # 1,000 CTAs of one thread, each about 2,000 work units: 2·10⁶ in all.
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1000, block=1))
    bx = T.cuda.block_idx("x")
    s = 0
    for i in range(1000):
        s = s + i
    A[bx] = s
