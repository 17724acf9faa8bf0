#!/usr/bin/env python3
"""Expected str()/repr() of numpy arrays for tests/core/tst_array_print.cpp.

Prints C++ initializers: each case is a dtype, a shape, the elements (exact float64 text, or a
generator `i / div` for large arrays) and what numpy 1.24 prints for str() and repr(). Run once
with Debian 12's /usr/bin/python3 (numpy 1.24.2) and paste the output into the test; the test
itself needs no Python.
"""
import json
import numpy as np

nan, inf = float("nan"), float("inf")
CASES = [
    ("float32 sevenths", "np.arange(12, dtype=np.float32).reshape(3, 4) / 7"),
    ("float32 not exact", "np.array([0.1, 0.2, 0.3], dtype=np.float32)"),
    ("int64 summarized", "np.arange(2000)"),
    ("float64 3-d summarized", "np.arange(3000, dtype=np.float64).reshape(10, 15, 20) / 11"),
    ("float32 2-d summarized", "np.arange(2000, dtype=np.float32).reshape(40, 50) / 3"),
    ("float64 wrapped", "np.linspace(0, 1, 30)"),
    ("scientific small", "np.array([1e-5, 1.5, 100.0])"),
    ("scientific ratio", "np.array([0.5, 1.5, 600.0])"),
    ("scientific large", "np.array([1.5e8, 2.0])"),
    ("exponent digits", "np.array([1e100, 1.0])"),
    ("negative zero", "np.array([0.0, -0.0, 1.0])"),
    ("nan inf", "np.array([nan, inf, -inf, 1.5])"),
    ("only nan inf", "np.array([nan, inf])"),
    ("padding", "np.array([1.5, 2.25, 1e7])"),
    ("float16", "np.arange(24, dtype=np.float16).reshape(2, 3, 4) / 3"),
    ("int8 negative", "np.array([-5, 3, 120], dtype=np.int8)"),
    ("int64 2-d", "np.array([[-100, 7], [12345, 0]])"),
    ("uint8", "np.array([0, 255, 7], dtype=np.uint8)"),
    ("bool", "np.array([True, False, True])"),
    ("int32 4-d", "np.arange(16, dtype=np.int32).reshape(2, 2, 2, 2) - 8"),
    ("int16 wrapped", "np.arange(40, dtype=np.int16) * 999"),
    ("empty float64", "np.zeros((0, 3))"),
    ("empty float32", "np.zeros((0,), dtype=np.float32)"),
    ("0-d float32", "np.array(0.1, dtype=np.float32)"),
    ("0-d float64 scientific", "np.array(1e-5)"),
    ("0-d bool", "np.array(True)"),
]


def cpp_str(s):
    return json.dumps(s)


for name, expr in CASES:
    a = eval(expr)
    dtype = {"float16": "Float16", "float32": "Float32", "float64": "Float64", "int8": "Int8",
             "int16": "Int16", "int32": "Int32", "int64": "Int64", "uint8": "UInt8",
             "bool": "Bool"}[str(a.dtype)]
    flat = a.astype(np.float64).reshape(-1) if a.dtype.kind == "f" else a.reshape(-1)
    if a.size > 100:
        # the generators used: i / div (div 0: i)
        div = {"int64 summarized": 0, "float64 3-d summarized": 11,
               "float32 2-d summarized": 3}[name]
        vals = "{}, %d" % div
    else:
        vals = "{" + ", ".join(repr(float(x)) if a.dtype.kind == "f" else str(int(x))
                               for x in flat) + "}, -1"
        vals = vals.replace("nan", "NAN").replace("inf", "INFINITY")
    shape = "{" + ", ".join(str(d) for d in a.shape) + "}"
    print("    {%s, DType::%s, %s, %s,\n     %s,\n     %s}," %
          (cpp_str(name), dtype, shape, vals, cpp_str(str(a)), cpp_str(repr(a))))
