# The accepted cp.async forms (spec TC §2.1, decision ASYNC-4): per-thread rows at thread scope,
# a CTA-wide tile of 16-byte float16 chunks, 4- and 8-byte .ca chunks, the prefetch hints,
# pred=, and the zero-fill forms src_size= and ignore_src=.
# expected-no-diagnostics
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
