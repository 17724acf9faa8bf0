# cp.async legality (spec TC §2.3): direction, chunk bytes, atom width, alignment, the zero-fill
# keywords, and keywords that belong to cp.async only.
from tvm.script import tirx as T


@T.function
def illegal(A: T.Tensor((64, 4), "float32"), Out: T.Tensor((64, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    tid = T.cuda.thread_idx("x")
    S = T.alloc_shared((64, 4), "float32", layout="default", align=16)
    X = T.alloc_shared((68,), "float32", layout="default", align=16)
    R = T.alloc_local((4,), "float32")
    # expected-error@+1 E0176 {{operand 'dst' of cp.async.cg.shared.global is the shared destination, but 'A.sub[tid, :]' is a global tensor}}
    T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], A.sub[tid, :], S.sub[tid, :], chunk_bytes=16)
    # expected-error@+1 E0277 {{needs chunk_bytes=4, 8 or 16}}
    T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], S.sub[tid, :], A.sub[tid, :])
    # expected-error@+1 E0277 {{must be a constant 4, 8 or 16, found '12'}}
    T.cuda.tile.apply(T.ptx["cp.async.ca.shared.global"], S.sub[tid, :], A.sub[tid, :], chunk_bytes=12)
    # expected-error@+1 E0277 {{copies 16 bytes per atom (.cg), found chunk_bytes=8}}
    T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], S.view(64, 2, 2).sub[tid, :, :], A.view(64, 2, 2).sub[tid, :, :], chunk_bytes=8)
    # expected-error@+1 E0165 {{with chunk_bytes=8 needs a last operand axis of 2 float32 elements, found 4}}
    T.cuda.tile.apply(T.ptx["cp.async.ca.shared.global"], S.sub[tid, :], A.sub[tid, :], chunk_bytes=8)
    if tid == 0:
        # expected-error@+1 E0175 {{not 16-byte aligned}}
        T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], X[1:5], A.sub[0, :], chunk_bytes=16)
    # expected-error@+1 E0278 {{takes src_size= or ignore_src=, not both}}
    T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], S.sub[tid, :], A.sub[tid, :], chunk_bytes=16, src_size=4, ignore_src=tid > 3)
    # expected-error@+1 E0278 {{must be from 0 to chunk_bytes (16), found 20}}
    T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], S.sub[tid, :], A.sub[tid, :], chunk_bytes=16, src_size=20)
    # expected-error@+1 E0180 {{preserve_dst= does not apply}}
    T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], S.sub[tid, :], A.sub[tid, :], chunk_bytes=16, pred=tid > 1, preserve_dst=True)
    # expected-error@+1 E0102 {{chunk_bytes= belongs to cp.async}}
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A.sub[tid, :], chunk_bytes=16)
    # expected-error@+1 E0162 {{takes 2 operands, found 3}}
    T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], S.sub[tid, :], A.sub[tid, :], A.sub[tid, :], chunk_bytes=16)
    # expected-error@+1 E0169 {{operand 'src' of cp.async.cg.shared.global must be a global tensor}}
    T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], S.sub[tid, :], T.float32(1), chunk_bytes=16)
    # expected-error@+1 E0350 {{.L2::cache_hint}}
    T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global.L2::cache_hint"], S.sub[tid, :], A.sub[tid, :], chunk_bytes=16)
    # expected-error@+1 E0350 {{cp.async copies from global memory}}
    T.cuda.tile.apply(T.ptx["cp.async.cg.shared.shared"], S.sub[tid, :], A.sub[tid, :], chunk_bytes=16)
    Out[tid, 0] = T.float32(1)
