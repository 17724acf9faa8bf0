# Named barriers and setmaxnreg (decisions BAR-1, BAR-2): bar.sync with and without a thread count
# and bar.arrive as one inline asm each with a "memory" clobber, the id and count as registers; a
# kernel with setmaxnreg gets __launch_bounds__(threads, 1), without which ptxas drops every
# setmaxnreg of a 256-thread kernel ("C7508 ... unable to determine register count at entry").
# tst_codegen::setmaxnregHonoured checks ptxas' answer for this file.
# CHECK: __launch_bounds__(256, 1) named_barrier(
# CHECK: asm volatile("setmaxnreg.dec.sync.aligned.u32 40;"
# CHECK: asm volatile("bar.arrive %0, %1;" :: "r"((int)(1)), "r"((int)(256)) : "memory");
# CHECK: asm volatile("setmaxnreg.inc.sync.aligned.u32 232;"
# CHECK: asm volatile("bar.sync %0, %1;" :: "r"((int)(1)), "r"((int)(256)) : "memory");
# CHECK: asm volatile("bar.sync %0;" :: "r"((int)(3)) : "memory");
# CHECK-PTX: setmaxnreg.dec.sync.aligned.u32 40;
# CHECK-PTX: bar.arrive
# CHECK-PTX: setmaxnreg.inc.sync.aligned.u32 232;
# CHECK-PTX: bar.sync
from tvm.script import tirx as T


@T.function
def named_barrier(A: T.Tensor((256,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=256))
    tid = T.cuda.thread_idx("x")
    wg = tid // 128
    if wg == 0:
        T.ptx.setmaxnreg(False, 40)
        A[tid] = T.float32(1)
        T.ptx.bar.arrive(1, 256)
    else:
        T.ptx.setmaxnreg(True, 232)
        T.ptx.bar.sync(1, 256)
        A[tid] = A[tid - 128] + T.float32(1)
    T.ptx.bar.sync(3)
