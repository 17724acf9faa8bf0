# Operator and numpy/torch function semantics of the verify harness (bit shifts, powers, views,
# functional operator spellings); every assert must pass. tests/core/tst_verify_array.cpp runs it.
from tvm.script import tirx as T
@T.function
def k(A: T.Tensor((4,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=4))
    tid = T.cuda.thread_idx("x")
    A[tid] = T.float32(1)
import numpy as np
import torch
w = np.array([0x12345678, 0xffff0000], dtype="uint32")
assert (w >> 16).dtype == np.uint32
assert (w >> 16)[1] == 65535
assert (w & 0xffff)[0] == 0x5678
assert (w << 4)[0] == 0x23456780
x = np.arange(4, dtype="int32")
assert (x ** 2).dtype == np.int32
assert (x ** 2)[3] == 9
assert ((x * 2.0) ** 2).dtype == np.float64
assert 2 ** 10 == 1024
assert 2 ** -1 == 0.5
assert 7 // -2 == -4
assert -7 % 3 == 2
f = np.float32([1.0, -2.0])
assert f.view("uint32")[0] == 0x3f800000
assert f.view(np.int32)[1] == -1073741824
assert np.exp2(f).dtype == np.float32
assert np.full((2, 3), 17, dtype="float32").shape == (2, 3)
assert np.full((2,), 1.5).dtype == np.float64
assert np.minimum(f, 0)[1] == -2
assert np.minimum(np.int32(3), np.float32(2.5)) == 2.5
h = np.float32([1.5]).astype("float16").view("uint16")
assert h[0] == 0x3e00
assert (np.arange(8).reshape(2, 4) >> 1).sum() == 12
assert (~np.array([0], dtype="uint8"))[0] == 255
assert (-np.array([1], dtype="uint32"))[0] == 4294967295
t = torch.tensor([1, 2, 3], dtype=torch.int32)
assert (t >> 1).tolist() == [0, 1, 1]
assert (t ** 2).tolist() == [1, 4, 9]
assert abs(np.exp2(np.float32(0.5)) - 1.4142135) < 1e-6
assert np.right_shift(w, 16)[0] == 0x1234
assert np.left_shift(np.uint32(1), 31) == 2147483648
assert np.bitwise_and(w, 0xff)[0] == 0x78
assert np.power(x, 2)[2] == 4
assert np.float32(2) ** np.float32(0.5) > 1.41
assert np.bitwise_not(np.array([0], dtype="uint8"))[0] == 255
assert np.invert(np.array([5], dtype="int32"))[0] == -6
assert np.power(2, 3) == 8
assert np.power(np.float32(2), 3).dtype == np.float64  # numpy 1.24: all-scalar operands promote in full
assert torch.bitwise_right_shift(t, 1).tolist() == [0, 1, 1]
assert np.equal(x, 2).sum() == 1
