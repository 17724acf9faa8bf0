#!/usr/bin/env python3
"""What torch itself prints for the torch cases of tests/core/tst_array_print.cpp.

The test's torch strings were written from torch/_tensor_str.py, as no torch is installed where the
tests run; this prints `name<TAB>json(repr(tensor))` for the same tensors on a machine that has
torch (the GPU machine: tests/gpu/ calls it), to be compared with the test's expectations. The
tensors are torch.from_numpy of the numpy cases of gen_array_print.py with these names.
"""
import json
import numpy as np
import torch

nan, inf = float("nan"), float("inf")
CASES = [
    ("float32 sevenths", "np.arange(12, dtype=np.float32).reshape(3, 4) / 7"),
    ("int64 summarized", "np.arange(2000)"),
    ("scientific small", "np.array([1e-5, 1.5, 100.0])"),
    ("negative zero", "np.array([0.0, -0.0, 1.0])"),
    ("nan inf", "np.array([nan, inf, -inf, 1.5])"),
    ("bool", "np.array([True, False, True])"),
    ("int8 negative", "np.array([-5, 3, 120], dtype=np.int8)"),
    ("0-d float32", "np.array(0.1, dtype=np.float32)"),
    ("empty float64", "np.zeros((0, 3))"),
    ("float64 wrapped", "np.linspace(0, 1, 30)"),
]
for name, expr in CASES:
    print(name + "\t" + json.dumps(repr(torch.from_numpy(eval(expr)))))
print("bfloat16\t" + json.dumps(repr(torch.tensor([0.5, 1.5], dtype=torch.bfloat16))))
print("str\t" + json.dumps(str(torch.tensor([0.5, 1.0]))))
print("0-d int\t" + json.dumps(repr(torch.tensor(3))))
