# An uninitialised output (torch.empty_like) that the kernel writes only half of, checked whole:
# the unwritten half holds poison (NaN) on every device, so the check fails on the simulator and
# on the GPU alike — never a PASS that depends on what memory happened to hold.
from tvm.script import tirx as T


@T.function
def first_half(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tid = T.cuda.thread_idx("x")
    B[tid] = A[tid]


import torch
import tvm_tirx

a = torch.zeros(64, device="cuda")
b = torch.empty_like(a)
compiled = tvm_tirx.compile(first_half, target="cuda")
compiled(a, b)
torch.testing.assert_close(b, torch.zeros(64, device="cuda"))
