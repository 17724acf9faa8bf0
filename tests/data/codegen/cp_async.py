# Codegen of cp.async (spec TC §2.4): one asm per repeat with a "memory" clobber; the shared address
# as a 32-bit shared-window value, the global one as a 64-bit pointer; the chunk size, then
# src_size (u32) or the ignore-src predicate; pred= as a predicate guard. ptxas accepts them all.
# CHECK: asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :  : "r"((unsigned)__cvta_generic_to_shared(S + (tid * 4))), "l"(A + (tid * 4)) : "memory");
# CHECK: asm volatile("cp.async.ca.shared::cta.global.L2::64B [%0], [%1], 16, %2;" :  : "r"((unsigned)__cvta_generic_to_shared(S + (tid * 4))), "l"(A + (tid * 4)), "r"((unsigned)(4u)) : "memory");
# CHECK: asm volatile("{ .reg .pred tirx_z; setp.ne.b32 tirx_z, %2, 0; cp.async.cg.shared.global [%0], [%1], 16, tirx_z; }"
# CHECK: asm volatile("{ .reg .pred tirx_p; setp.ne.b32 tirx_p, %2, 0; @tirx_p cp.async.ca.shared.global [%0], [%1], 4; }"
# CHECK-COUNT-4: @tirx_p cp.async.ca.shared.global [%0], [%1], 4;
# CHECK-COUNT-2: cp.async.ca.shared.global [%0], [%1], 8;"
# CHECK-COUNT-4: asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;"
# CHECK: asm volatile("cp.async.commit_group;" :: : "memory");
# CHECK-PTX-COUNT-4: cp.async.cg.shared.global.L2::128B
# CHECK-PTX: cp.async.wait_group 0;
from tvm.script import tirx as T


@T.function
def forms(A: T.Tensor((64, 4), "float32"), B: T.Tensor((128, 32), "float16"), Out: T.Tensor((64, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
    tid = T.cuda.thread_idx("x")
    S = T.alloc_shared((64, 4), "float32", layout="default", align=16)
    Bs = T.alloc_shared((128, 32), "float16", layout="default", align=16)
    if tid < 64:
        T.cuda.tile.apply(T.ptx["cp.async.ca.shared.global"], S.sub[tid, :], A.sub[tid, :], chunk_bytes=16)
        T.cuda.tile.apply(T.ptx["cp.async.ca.shared::cta.global.L2::64B"], S.sub[tid, :], A.sub[tid, :], chunk_bytes=16, src_size=4)
        T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], S.sub[tid, :], A.sub[tid, :], chunk_bytes=16, ignore_src=tid > 60)
        T.cuda.tile.apply(T.ptx["cp.async.ca.shared.global"], S.view(64, 4, 1).sub[tid, :, :], A.view(64, 4, 1).sub[tid, :, :], chunk_bytes=4, pred=tid % 2 == 0)
        T.cuda.tile.apply(T.ptx["cp.async.ca.shared.global"], S.view(64, 2, 2).sub[tid, :, :], A.view(64, 2, 2).sub[tid, :, :], chunk_bytes=8)
    T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global.L2::128B"], Bs.view(4, 32, 4, 8), B.view(4, 32, 4, 8), chunk_bytes=16, scope="cta")
    T.ptx.cp.async_.commit_group()
    T.ptx.cp.async_.wait_group(0)
    T.cuda.cta_sync()
    Out[tid % 64, 0] = S[tid % 64, 0]
