# The three ways a cp.async can leave bytes alone or zero them (spec TC §2.4, decision ASYNC-4):
#   src_size=n   copies the first n bytes of the 16-byte chunk and zero-fills the rest;
#   ignore_src=p when p is true the whole chunk is zero-filled (nothing is read);
#   pred=p       when p is false the instruction does not run: the destination keeps its bytes.
# Row 2 of the shared tile is filled with -1 first, so the check sees which bytes pred= kept.
from tvm.script import tirx as T


@T.function
def zero_fill(A: T.Tensor((32, 4), "float32"), Out: T.Tensor((3, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    S = T.alloc_shared((3, 32, 4), "float32", layout="default", align=16)
    for j in range(4):
        S[2, tid, j] = T.float32(-1)
    T.cuda.tile.apply(T.ptx["cp.async.ca.shared.global"], S.sub[0, tid, :], A.sub[tid, :], chunk_bytes=16, src_size=tid % 5 * 4)
    T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], S.sub[1, tid, :], A.sub[tid, :], chunk_bytes=16, ignore_src=tid % 2 == 1)
    T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], S.sub[2, tid, :], A.sub[tid, :], chunk_bytes=16, pred=tid % 2 == 0)
    T.ptx.cp.async_.commit_group()
    T.ptx.cp.async_.wait_group(0)
    for i in range(3):
        for j in range(4):
            Out[i, tid, j] = S[i, tid, j]


import numpy as np
import tvm

a = np.arange(128, dtype="float32").reshape(32, 4) + 1
compiled = tvm.tirx.compile(zero_fill, target="cuda", pipeline="tirx")
out = tvm.runtime.tensor(np.zeros((3, 32, 4), dtype="float32"), tvm.cuda())
compiled(tvm.runtime.tensor(a, tvm.cuda()), out)
t = np.arange(32)[:, None]
j = np.arange(4)[None, :]
res = out.numpy()
np.testing.assert_array_equal(res[0], np.where(j < t % 5, a, 0).astype("float32"))
np.testing.assert_array_equal(res[1], np.where(t % 2 == 1, 0, a).astype("float32"))
np.testing.assert_array_equal(res[2], np.where(t % 2 == 0, a, -1).astype("float32"))
