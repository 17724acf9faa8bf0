# Named barriers with a thread count (PTX bar.sync / bar.arrive; TIRx `T.ptx.bar.sync(id, count)`,
# `T.ptx.bar.arrive(id, count)`): ids 0..15, counts positive multiples of 32 and at most the block
# (E0226), warp-uniform operands and no lane-dependent control flow (E0224), bar.arrive needs its
# count (E0104); setmaxnreg needs whole warpgroups (E0224, second kernel).
from tvm.script import tirx as T


@T.function
def k(C: T.Tensor((256,), "float32"), n: T.int32):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=256))
    tid = T.cuda.thread_idx("x")
    wg = tid // 128
    T.ptx.bar.sync(1, 256)
    T.ptx.bar.sync(0)
    T.ptx.bar.arrive(1 + wg, 256)
    T.ptx.bar.sync(n % 16, n * 32)
    # expected-error@+1 E0226 {{the barrier id of T.ptx.bar.sync is 0..15, found 16}}
    T.ptx.bar.sync(16, 128)
    # expected-error@+1 E0226 {{the thread count of T.ptx.bar.arrive is a positive multiple of 32, found 100}}
    T.ptx.bar.arrive(2, 100)
    # expected-error@+1 E0226 {{the thread count of T.ptx.bar.sync is 512, more than the block's 256 threads}}
    T.ptx.bar.sync(3, 512)
    # expected-error@+1 E0226 {{the barrier id of T.ptx.bar.sync is an integer, found float32}}
    T.ptx.bar.sync(T.float32(1), 128)
    # expected-error@+1 E0224 {{the barrier id of T.ptx.bar.arrive must be the same in every lane of a warp}}
    T.ptx.bar.arrive(tid % 2 + 1, 128)
    # expected-error@+1 E0104 {{T.ptx.bar.arrive needs 2 positional arguments, found 1}}
    T.ptx.bar.arrive(1)
    # expected-error@+1 E0350 {{'bar' is not a tile instruction: named barriers are statements, T.ptx.bar.sync(id, count) and T.ptx.bar.arrive(id, count)}}
    T.cuda.tile.apply(T.ptx["bar.sync"], C)
    if tid % 32 < 16:
        # expected-error@+1 E0224 {{T.ptx.bar.sync inside control flow that may differ between the lanes of a warp}}
        T.ptx.bar.sync(4, 128)
    C[tid] = T.float32(1)


@T.function
def k2(C: T.Tensor((192,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=192))
    tid = T.cuda.thread_idx("x")
    # expected-error@+1 E0224 {{setmaxnreg needs a block of a multiple of 128 threads (whole warpgroups), but the kernel launches 192}}
    T.ptx.setmaxnreg(False, 40)
    C[tid] = T.float32(1)
