# Codegen of the asynchronous-protocol statements (spec TC §2.4, §3.3): one inline asm each with a
# "memory" clobber; mbarrier addresses as 32-bit shared-window values; the blocking parity wait as
# a loop around mbarrier.try_wait.parity with the 10 ms suspend hint. NVRTC accepts them all.
# CHECK: asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&
# CHECK: asm volatile("fence.proxy.async.shared::cta;" :: : "memory");
# CHECK-NEXT: #line
# CHECK-NEXT: asm volatile("fence.mbarrier_init.release.cluster;" :: : "memory");
# CHECK: asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&
# CHECK: asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"((unsigned)__cvta_generic_to_shared(&
# CHECK: asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0], %1;"
# CHECK: asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;"
# CHECK: do {
# CHECK: asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2, 0x989680; selp.u32 %0, 1, 0, p; }" : "=r"(_mbar_ok
# CHECK: } while (!_mbar_ok
# CHECK: asm volatile("cp.async.commit_group;" :: : "memory");
# CHECK-NEXT: #line
# CHECK-NEXT: asm volatile("cp.async.wait_group 1;" :: : "memory");
# CHECK: asm volatile("cp.async.bulk.commit_group;" :: : "memory");
# CHECK-NEXT: #line
# CHECK-NEXT: asm volatile("cp.async.bulk.wait_group.read 0;" :: : "memory");
# CHECK: asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "r"((unsigned)__cvta_generic_to_shared(&
# CHECK-PTX: mbarrier.init.shared::cta.b64
# CHECK-PTX: mbarrier.try_wait.parity.shared::cta.b64
# CHECK-PTX: cp.async.wait_group 1;
# CHECK-PTX: cp.async.bulk.wait_group.read 0;
# CHECK-PTX: mbarrier.inval.shared::cta.b64
from tvm.script import tirx as T


@T.function
def mbarriers(Out: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    bars = T.alloc_shared((2,), "uint64", layout="default")
    if tid == 0:
        T.ptx.mbarrier.init.shared.b64(bars.ptr_to([0]), 64)
    T.ptx.fence.proxy.async_.shared__cta()
    T.ptx.fence.mbarrier_init.release.cluster()
    T.cuda.cta_sync()
    if tid == 0:
        T.ptx.mbarrier.arrive.expect_tx.shared.b64(bars.ptr_to([1]), T.uint32(1024))
    T.ptx.mbarrier.arrive.shared.b64(bars.ptr_to([0]))
    T.ptx.mbarrier.arrive.shared.b64(bars.ptr_to([1]), 1)
    T.ptx.mbarrier.expect_tx.shared.b64(bars.ptr_to([1]), 16)
    T.cuda.mbarrier_wait(bars.ptr_to([0]), tid % 2)
    T.ptx.cp.async_.commit_group()
    T.ptx.cp.async_.wait_group(1)
    T.ptx.cp.async_.bulk.commit_group()
    T.ptx.cp.async_.bulk.wait_group.read(0)
    T.cuda.cta_sync()
    if tid == 0:
        T.ptx.mbarrier.inval.shared__cta.b64(bars.ptr_to([0]))
    Out[tid] = T.float32(1)
