#!/usr/bin/env python3
"""Harness conformance cases: check-code snippets and what real numpy does with them.

Each case is a small script (after `import numpy as np`) that binds `r`. The snippets are
generated over operators x dtypes x shapes (binary operators and ufuncs on every dtype pair,
Python scalars of every size against every array dtype, broadcasting, reductions with axis and
keepdims, casts, unary math) plus hand-written ones (in-place updates of elements, slices and
aliased arrays; int()/float() parsing; Python number builtins; errors). Running them under numpy
1.24 (Debian 12's python3-numpy) records either the result (kind, dtype, shape, every element as
text that round-trips exactly) or the exception class and the line that raised it.

    gen_conform.py            rewrite cases.json next to this file
    gen_conform.py --check    regenerate and compare with cases.json (exit 1 on a difference,
                              77 when numpy is missing: CTest reports the test as skipped)

tst_harness_conform runs every case through the harness and compares (docs/verify.md).
"""
import json
import math
import os
import sys
import traceback
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "cases.json")

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64"]
INTS = DTYPES[1:9]
FLOATS = DTYPES[9:]

# Element values per dtype: small values, extremes, and for floats the IEEE specials.
VALUES = {
    "bool": "[True, False, True, False]",
    "int8": "[-128, -1, 7, 127]",
    "int16": "[-32768, -3, 5, 32767]",
    "int32": "[-2147483648, -7, 9, 2147483647]",
    "int64": "[-9223372036854775807 - 1, -5, 3, 9223372036854775807]",
    "uint8": "[0, 1, 200, 255]",
    "uint16": "[0, 3, 40000, 65535]",
    "uint32": "[0, 5, 3000000000, 4294967295]",
    # literals beyond int64 do not parse in the harness (E0008): built from uint64 scalars
    "uint64": "[0, 7, np.uint64(10000000000) * np.uint64(1000000000), ~np.uint64(0)]",
    "float16": "[-2.5, 0.0, 1.5, 65504.0]",
    "float32": "[-1.5, 0.0, 3.25, 3.0e38]",
    "float64": "[-7.5, -0.0, 2.0, 1.0e300]",
}
# Small operands (no overflow questions) for ops whose result we want exact on every dtype pair.
SMALL = {
    "bool": "[True, False, True, True]",
    "int8": "[-3, 2, 5, 1]", "int16": "[-30, 7, 2, 3]", "int32": "[-300, 11, 4, 2]",
    "int64": "[-3000, 13, 6, 5]", "uint8": "[3, 2, 250, 1]", "uint16": "[30, 7, 60000, 2]",
    "uint32": "[300, 11, 4000000000, 3]", "uint64": "[3000, 13, 2, 4]",
    "float16": "[-2.5, 0.5, 3.0, 1.25]", "float32": "[-1.75, 0.25, 5.5, 2.0]",
    "float64": "[-3.125, 0.75, 7.0, 1.5]",
}
SPECIAL_F = "[0.0, -0.0, 1.0, -1.0, float('inf'), float('-inf'), float('nan'), 2.5]"

BINOPS = ["+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>",
          "==", "!=", "<", "<=", ">", ">="]
UFUNCS = ["np.maximum", "np.minimum"]
TRANSCENDENTAL = {"np.exp", "np.log", "np.sin", "np.cos", "np.tanh", "np.exp2", "np.log2"}


def arr(dt, vals=None):
    return "np.array(%s, dtype='%s')" % (vals or VALUES[dt], dt)


def cases():
    out = []

    def add(name, code, tol=0, ulp=None, harness=None):
        c = {"name": name, "code": code, "ulp": tol if ulp is None else ulp}
        if harness is not None:
            c["harness"] = harness
        out.append(c)

    # Binary operators on every dtype pair (small values) and on extremes of equal dtypes.
    for op in BINOPS:
        for a in DTYPES:
            for b in DTYPES:
                if op not in ("+", "*", "//", "<", "&", "**") and a != b:
                    continue
                bv = SMALL[b]
                if op == "**" and b in INTS:
                    bv = "[2, 0, 1, 3]"  # numpy refuses negative integer powers (tested below)
                # float ** is numpy's (SVML on AVX-512 machines) pow: within 4 ulp, not exact
                add("binop %s %s %s" % (a, op, b),
                    "a = %s\nb = %s\nr = a %s b\n" % (arr(a, SMALL[a]), arr(b, bv), op),
                    4 if op == "**" else 0)
        for a in DTYPES:
            if op in ("**",):
                continue
            add("extremes %s %s" % (a, op), "a = %s\nb = %s\nr = a %s b[::-1]\n" % (arr(a), arr(a), op))
    for f in UFUNCS:
        for a in DTYPES:
            for b in DTYPES:
                add("%s %s %s" % (f, a, b), "r = %s(%s, %s)\n" % (f, arr(a, SMALL[a]), arr(b, SMALL[b])))
    # Float specials: IEEE semantics of every operator (division by zero gives inf/nan).
    for dt in FLOATS:
        for op in ["+", "-", "*", "/", "//", "%", "**", "<", "==", "!="]:
            add("special %s %s" % (dt, op), ulp=4 if op == "**" else 0, code=
                "a = np.array(%s, dtype='%s')\nb = np.array([1.0, 0.0, -0.0, 2.0, -3.0, float('inf'), 0.5, float('nan')], dtype='%s')\nr = a %s b\n" % (SPECIAL_F, dt, dt, op))
        for f in UFUNCS:
            add("special %s %s" % (dt, f), "a = np.array(%s, dtype='%s')\nr = %s(a, a[::-1])\n" % (SPECIAL_F, dt, f))
    # Python scalars against arrays: numpy 1.24's value-based promotion.
    scalars = ["1", "-1", "200", "1000", "-1000", "70000", "3000000000", "-3000000000", "True",
               "1.5", "-0.5", "1e5", "1e39", "1e300", "float('nan')"]
    for dt in DTYPES:
        for s in scalars:
            for op in ["+", "*", "-"]:
                add("scalar %s %s %s" % (dt, op, s), "a = %s\nr = a %s %s\n" % (arr(dt, SMALL[dt]), op, s))
            add("rscalar %s %s" % (dt, s), "a = %s\nr = %s - a\n" % (arr(dt, SMALL[dt]), s))
        for s in ["np.int64(5)", "np.float64(2.5)", "np.float32(2.5)", "np.int8(-3)", "np.uint8(7)",
                  "np.array(300)", "np.array(1.5, dtype='float16')"]:
            add("npscalar %s + %s" % (dt, s), "a = %s\nr = a + %s\n" % (arr(dt, SMALL[dt]), s))
    # All-scalar expressions: full promotion.
    for s1 in ["np.float32(2.5)", "np.int8(100)", "np.uint8(200)", "np.float16(3.0)", "np.int64(7)"]:
        for s2 in ["3", "2.5", "np.int16(4)", "np.float64(0.5)", "True"]:
            add("scalars %s + %s" % (s1, s2), "r = %s + %s\n" % (s1, s2))
            add("scalars %s * %s" % (s1, s2), "r = %s * %s\n" % (s1, s2))
    # Broadcasting.
    shapes = [((2, 3), (3,)), ((2, 1), (1, 3)), ((4, 1, 2), (3, 1)), ((1,), (2, 2)), ((), (3,)),
              ((2, 3), (2, 3)), ((3,), (4,)), ((2, 3), (2,)), ((2, 3, 4), (4,)), ((5, 1), (5,))]
    for sa, sb in shapes:
        na = int(math.prod(sa)) if sa else 1
        nb = int(math.prod(sb)) if sb else 1
        for dt in ["float32", "int32"]:
            add("broadcast %s %s %s" % (dt, sa, sb),
                "a = np.arange(%d, dtype='%s').reshape(%s)\nb = np.arange(%d, dtype='%s').reshape(%s) + 1\nr = a * b + a\n"
                % (na, dt, repr(sa), nb, dt, repr(sb)))
    # Reductions.
    for dt in ["float32", "float64", "int32", "int8", "uint8", "bool", "float16"]:
        for fn in ["sum", "max", "min", "mean", "prod"]:
            for axis in ["", "axis=0", "axis=1", "axis=-1", "axis=0, keepdims=True", "keepdims=True"]:
                add("reduce %s %s(%s)" % (dt, fn, axis),
                    "a = np.array([[1, 2, 3], [4, 5, 6]], dtype='%s')\nr = np.%s(a%s)\n" % (dt, fn, ", " + axis if axis else ""))
                add("method %s .%s(%s)" % (dt, fn, axis),
                    "a = np.array([[3, 1, 2], [0, 5, 4]], dtype='%s')\nr = a.%s(%s)\n" % (dt, fn, axis))
    # Casts.
    castv = {"bool": "[True, False]", "float16": "[-2.75, 300.5]", "float32": "[-2.75, 1e6]",
             "float64": "[-2.5, 123456.75]"}
    for a in DTYPES:
        for b in DTYPES:
            v = castv.get(a, SMALL[a])
            add("astype %s -> %s" % (a, b), "r = np.array(%s, dtype='%s').astype('%s')\n" % (v, a, b))
    # Unary math and operators.
    for dt in DTYPES:
        for f in ["np.negative", "np.abs", "np.exp", "np.log", "np.sqrt", "np.sin", "np.cos",
                  "np.tanh", "np.floor", "np.ceil", "np.round", "np.exp2", "np.log2", "-", "abs"]:
            if f in ("np.negative", "-") and dt == "bool":
                continue  # numpy raises TypeError for boolean negative (tested below)
            vals = SMALL[dt] if dt not in FLOATS else "[0.5, 1.0, 2.5, 3.5]"
            call = "%s(a)" % f if f != "-" else "-a"
            add("unary %s %s" % (f, dt), "a = %s\nr = %s\n" % (arr(dt, vals), call),
                4 if f in TRANSCENDENTAL else 0)
    for dt in INTS + FLOATS:
        for f in ["-", "np.abs", "abs", "np.negative"]:
            call = "%s(a)" % f if f != "-" else "-a"
            add("unary extremes %s %s" % (f, dt), "a = %s\nr = %s\n" % (arr(dt), call))
    # Larger reductions: numpy's pairwise summation in the array's float type.
    for dt in ["float16", "float32", "float64"]:
        for n in [7, 8, 9, 16, 100, 129, 1000]:
            add("long sum %s %d" % (dt, n), "a = np.linspace(0.1, 3.7, %d).astype('%s')\nr = (a.sum(), a.mean(), a.max())\n" % (n, dt))
        add("long mean int %s %d" % (dt, 0), "a = np.arange(1000, dtype='int32') * 7 - 3000\nr = (a.mean(), a.reshape(10, 100).mean(axis=1), a.reshape(100, 10).mean(axis=0))\n")
        add("long prod %s" % dt, "a = np.linspace(0.9, 1.1, 50).astype('%s')\nr = (a.prod(), a.reshape(10, 5).prod(axis=0), a.reshape(10, 5).prod(axis=1))\n" % dt)
        add("sum axis0 %s" % dt, "a = np.linspace(-1.3, 2.9, 300).astype('%s').reshape(100, 3)\nr = (a.sum(axis=0), a.mean(axis=0))\n" % dt)
        add("sum axis1 %s" % dt, "a = np.linspace(-1.3, 2.9, 300).astype('%s').reshape(3, 100)\nr = (a.sum(axis=1), a.mean(axis=1))\n" % dt)
    hand(add)
    nn(add)
    formatting(add)
    return out


def hand(add):
    """Hand-written cases: in-place updates, parsing, builtins, errors."""
    H = [
        # in-place on elements, slices, whole arrays (through aliases)
        ("inplace element", "r = np.zeros((2, 6, 3), dtype='float32')\nr[1, 5, 2] += 0.5\n"),
        ("inplace element -=", "r = np.arange(6.0)\nr[-1] -= 10\n"),
        ("inplace element int", "r = np.arange(4)\nr[0] += 0.5\nr[1] += 1.7\n"),
        ("inplace slice", "r = np.zeros(5, dtype='int32')\nr[0:2] += 1\n"),
        ("inplace step slice", "r = np.arange(10)\nr[::3] *= -1\n"),
        ("inplace column", "r = np.zeros((3, 4))\nx = np.arange(3)\nr[:, 3] -= x\n"),
        ("inplace row broadcast", "r = np.ones((3, 4), dtype='float16')\nr[1] += np.arange(4)\n"),
        ("inplace alias", "r = np.ones(3)\ns = r\ns += 1\n"),
        ("inplace alias mul", "a = np.arange(4, dtype='int16')\nr = a\na *= 300\n"),
        ("inplace keeps dtype f16", "r = np.zeros(2, dtype='float16')\nr += 1.5\n"),
        ("inplace int8 wraps", "r = np.array([120, -120], dtype='int8')\nr += 10\n"),
        ("inplace uint8 wraps", "r = np.array([250, 3], dtype='uint8')\nr += 10\n"),
        ("inplace floordiv", "r = np.array([7.0, -7.0])\nr //= 2\n"),
        ("inplace mod", "r = np.array([7, -7])\nr %= 3\n"),
        ("inplace pow", "r = np.array([2, 3], dtype='int32')\nr **= 3\n"),
        ("inplace shift", "r = np.array([1, 2], dtype='uint16')\nr <<= 15\n"),
        ("inplace and", "r = np.array([12, 10])\nr &= 6\n"),
        ("inplace int += float", "r = np.arange(4)\nr += 0.5\n"),
        ("inplace int slice += float", "r = np.arange(4)\nr[0:2] += 0.5\n"),
        ("inplace uint8 += int64 array", "r = np.zeros(3, dtype='uint8')\nr += np.ones(3, dtype='int64')\n"),
        ("inplace float32 += float64 array", "r = np.zeros(3, dtype='float32')\nr += np.full(3, 0.1)\n"),
        ("inplace bool += int", "r = np.array([True, False])\nr += 1\n"),
        ("inplace broadcast target", "r = np.zeros(3)\nr += np.ones((2, 3))\n"),
        ("inplace div int", "r = np.arange(4)\nr /= 2\n"),
        ("inplace name int", "x = 3\ny = x\nx += 1\nr = (x, y)\n"),
        ("inplace list", "l = [1]\nm = l\nm += [2]\nr = l\n"),
        # int()/float() parsing
        ("int strip", "r = int(' 12 ')\n"),
        ("int underscore", "r = int('1_000')\n"),
        ("int base16", "r = int('0x10', 16)\n"),
        ("int base16 bare", "r = int('ff', 16)\n"),
        ("int base0", "r = int('0b101', 0)\n"),
        ("int base0 octal", "r = int('0o17', 0)\n"),
        ("int base0 leading zero", "r = int('017', 0)\n"),
        ("int base 36", "r = int('z', 36)\n"),
        ("int sign", "r = int('-42')\n"),
        ("int plus", "r = int('+7')\n"),
        ("int 12abc", "r = int('12abc')\n"),
        ("int empty", "r = int('')\n"),
        ("int double underscore", "r = int('1__0')\n"),
        ("int trailing underscore", "r = int('10_')\n"),
        ("int float text", "r = int('1.5')\n"),
        ("int inner space", "r = int('1 2')\n"),
        ("int bad base", "r = int('10', 1)\n"),
        ("int base with int", "r = int(10, 16)\n"),
        ("int min", "r = int('-9223372036854775808')\n"),
        ("int max", "r = int('9223372036854775807')\n"),
        ("float exp", "r = float('1e-10')\n"),
        ("float strip", "r = float(' 2.5 ')\n"),
        ("float underscore", "r = float('1_0.5')\n"),
        ("float inf", "r = float('inf')\n"),
        ("float -Infinity", "r = float('-Infinity')\n"),
        ("float nan", "r = float('nan')\n"),
        ("float dot", "r = float('.5')\n"),
        ("float trailing dot", "r = float('5.')\n"),
        ("float big", "r = float('1e400')\n"),
        ("float junk", "r = float('1e')\n"),
        ("float hex", "r = float('0x10')\n"),
        ("float empty", "r = float('')\n"),
        ("float of int", "r = float(7)\n"),
        ("int of float", "r = (int(3.9), int(-3.9), int(0.5), int(-0.5))\n"),
        ("int of nan", "r = int(float('nan'))\n"),
        ("int of inf", "r = int(float('inf'))\n"),
        ("int of bool", "r = int(True)\n"),
        ("int of np float", "r = int(np.float32(2.75))\n"),
        ("float of np int", "r = float(np.int8(-3))\n"),
        # builtins
        ("round half even", "r = (round(0.5), round(1.5), round(2.5), round(-0.5), round(-1.5))\n"),
        ("round digits", "r = (round(2.675, 2), round(0.125, 2), round(0.375, 2), round(1.005, 2))\n"),
        ("round negative digits", "r = (round(1250, -2), round(1350, -2), round(-1250, -2), round(1234.5, -1))\n"),
        ("round nan", "r = round(float('nan'))\n"),
        ("round inf", "r = round(float('inf'))\n"),
        ("abs", "r = (abs(-3), abs(-2.5), abs(True), abs(-0.0))\n"),
        ("min max", "r = (min(3, 1, 2), max([4, 9, 2]), max(1, 2.5), min(-1, -1.0))\n"),
        ("max nan first", "r = max(float('nan'), 1.0)\n"),
        ("max nan second", "r = max(1.0, float('nan'))\n"),
        ("min empty", "r = min([])\n"),
        ("divmod int", "r = (divmod(7, 2), divmod(-7, 2), divmod(7, -2), divmod(-7, -2))\n"),
        ("divmod float", "r = (divmod(7.5, 2), divmod(-7.5, 2), divmod(7.5, -2))\n"),
        ("divmod zero", "r = divmod(1, 0)\n"),
        ("floordiv signs", "r = (-7 // 2, 7 // -2, -7 % 2, 7 % -2, -7 % -2)\n"),
        ("float floordiv", "r = (1 // 0.1, 1 % 0.1, -1.5 // 1, -1.5 % 1, 5.0 % -3)\n"),
        ("float mod zero", "r = 1.5 % 0.0\n"),
        ("float floordiv zero", "r = 1.5 // 0.0\n"),
        ("int div zero", "r = 1 // 0\n"),
        ("truediv zero", "r = 1 / 0\n"),
        ("truediv", "r = (7 / 2, -7 / 2, 1 / 3)\n"),
        ("pow", "r = (2 ** 10, 2 ** -1, (-2) ** 3, (-2) ** -2, 2.0 ** 0.5, 0 ** 0)\n"),
        ("pow zero negative", "r = 0 ** -1\n"),
        ("pow float zero negative", "r = 0.0 ** -1\n"),
        ("pow overflow float", "r = 10.0 ** 400\n"),
        ("shifts", "r = (1 << 10, -8 >> 1, 5 >> 10, -5 >> 10)\n"),
        ("negative shift", "r = 1 << -1\n"),
        ("bool ops", "r = (True & False, True | False, True ^ True, True + True, -True)\n"),
        ("bool and int", "r = (True & 3, False | 2)\n"),
        ("comparisons chain", "r = (1 < 2 < 3, 1 < 3 < 2, 2 == 2.0, 1 != 1.0)\n"),
        ("int float compare", "r = (3 < 3.5, -1 > -1.5, 0 == -0.0)\n"),
        ("str ops", "r = ('ab' + 'cd', 'b' in 'abc', len('hello'))\n"),
        ("list ops", "r = ([1, 2] + [3], [0] * 3, len([1, 2, 3]), 2 in [1, 2])\n"),
        ("truthiness", "r = (bool(0), bool(0.0), bool(''), bool([]), bool([0]), bool(None), bool(-1))\n"),
        ("sum builtin", "r = (sum([1, 2, 3]), sum([0.5, 0.25]), sum([]))\n"),
        ("range", "r = (list(range(5)), list(range(2, 10, 3)), list(range(5, 0, -2)))\n"),
        ("enumerate zip", "r = (list(enumerate([5, 6])), list(zip([1, 2], [3, 4])))\n"),
        ("unpack", "a, b = 1, 2\nb, a = a, b\nr = (a, b)\n"),
        ("while", "i = 0\nt = 0\nwhile i < 5:\n    t += i\n    i += 1\nr = t\n"),
        ("for break else", "t = 0\nfor i in range(10):\n    if i == 3:\n        break\n    t += i\nelse:\n    t = -1\nr = t\n"),
        ("def", "def f(x, y=2):\n    return x * y\nr = (f(3), f(3, y=4))\n"),
        ("conditional expr", "x = 5\nr = 1 if x > 3 else 0\n"),
        # numpy edge behaviour
        ("int8 overflow add", "a = np.array([127, -128], dtype='int8')\nr = a + np.array([1, -1], dtype='int8')\n"),
        ("int64 overflow mul", "a = np.array([9223372036854775807])\nr = a * 2\n"),
        ("uint wrap sub", "a = np.array([0], dtype='uint32')\nr = a - np.array([1], dtype='uint32')\n"),
        ("int floordiv zero", "r = np.array([5, -5, 0]) // np.array([0, 0, 0])\n"),
        ("int mod zero", "r = np.array([5, -5, 0]) % np.array([0, 0, 0])\n"),
        ("int min floordiv -1", "r = np.array([-9223372036854775807 - 1]) // np.array([-1])\n"),
        ("int min mod -1", "r = np.array([-9223372036854775807 - 1]) % np.array([-1])\n"),
        ("int neg pow", "r = np.arange(3) ** -1\n"),
        ("int pow wrap", "r = np.array([3], dtype='int8') ** 5\n"),
        ("int pow big", "r = np.array([-1, 2], dtype='int64') ** 101\n"),
        ("float div zero", "r = np.array([1.0, -1.0, 0.0]) / 0.0\n"),
        ("float32 div zero", "r = np.array([1.0, -1.0, 0.0], dtype='float32') / np.float32(0)\n"),
        ("int truediv zero", "r = np.array([1, -1, 0]) / 0\n"),
        ("shift large", "r = np.array([1, -8], dtype='int8') << np.array([9, 1], dtype='int8')\n"),
        ("rshift large", "r = np.array([-8, 8], dtype='int32') >> np.array([40, 40], dtype='int32')\n"),
        ("bool negative", "r = -np.array([True, False])\n"),
        ("bool subtract", "r = np.array([True]) - np.array([False])\n"),
        ("float bitwise", "r = np.array([1.5]) & np.array([1.0])\n"),
        ("broadcast error", "r = np.zeros(3) + np.zeros(4)\n"),
        ("compare broadcast", "r = np.arange(6).reshape(2, 3) > np.array([1, 4, 2])\n"),
        ("eq mixed", "r = np.array([1, 2], dtype='int8') == np.array([1.0, 2.5])\n"),
        ("uint64 int64 compare", "r = np.array([~np.uint64(0)], dtype='uint64') > np.array([-1])\n"),
        ("big literal", "r = 18446744073709551615\n"),
        ("astype float to int", "r = np.array([2.9, -2.9, 0.5]).astype('int32')\n"),
        ("astype float to uint8", "r = np.array([255.0, 1.5]).astype('uint8')\n"),
        ("astype int to bool", "r = np.array([0, 2, -1]).astype('bool')\n"),
        ("astype f64 to f16 round", "r = np.array([1.0009765625, 65519.0, 65520.0, 1e-8]).astype('float16')\n"),
        ("astype f64 to f32 round", "r = np.array([0.1, 1e-46, 3.5e38]).astype('float32')\n"),
        ("astype int64 to f32", "r = np.array([16777217, 9007199254740993]).astype('float32')\n"),
        ("mean int", "r = np.array([1, 2, 4]).mean()\n"),
        ("mean float16", "r = np.array([1, 2, 4], dtype='float16').mean()\n"),
        ("sum uint8", "r = np.array([200, 100], dtype='uint8').sum()\n"),
        ("sum int8", "r = np.array([100, 100], dtype='int8').sum()\n"),
        ("sum bool", "r = np.array([True, True, False]).sum()\n"),
        ("sum float32", "r = np.array([0.1, 0.2, 0.3], dtype='float32').sum()\n"),
        ("max nan", "r = np.array([1.0, float('nan'), 3.0]).max()\n"),
        ("max axis oob", "r = np.zeros((2, 3)).sum(axis=2)\n"),
        ("allclose", "r = (np.allclose([1.0, 2.0], [1.0, 2.00001]), np.allclose([1.0], [1.1]), np.allclose([1e-9], [0.0]), np.allclose([float('nan')], [float('nan')]))\n"),
        ("allclose rtol", "r = (np.allclose([100.0], [101.0], rtol=0.01), np.allclose([100.0], [101.0], rtol=0.001), np.allclose([1.0], [1.5], atol=0.5))\n"),
        ("allclose equal_nan", "r = np.allclose([float('nan')], [float('nan')], equal_nan=True)\n"),
        ("allclose inf", "r = (np.allclose([float('inf')], [float('inf')]), np.allclose([float('inf')], [float('-inf')]))\n"),
        ("allclose broadcast", "r = np.allclose(np.ones((2, 3)), 1.0)\n"),
        ("where", "r = np.where(np.array([True, False, True]), np.array([1, 2, 3]), np.array([1.5, 2.5, 3.5]))\n"),
        ("clip", "r = np.clip(np.array([-2, 0, 5, 9]), 0, 4)\n"),
        ("indexing", "a = np.arange(24).reshape(2, 3, 4)\nr = a[1, :, ::2]\n"),
        ("indexing negative", "a = np.arange(10)\nr = a[-3:]\n"),
        ("indexing newaxis", "a = np.arange(3)\nr = a[:, None] * a[None, :]\n"),
        ("indexing ellipsis", "a = np.arange(24).reshape(2, 3, 4)\nr = a[..., 1]\n"),
        ("index error", "a = np.arange(3)\nr = a[3]\n"),
        ("too many indices", "a = np.arange(3)\nr = a[0, 0]\n"),
        ("setitem slice", "r = np.zeros(6)\nr[1:4] = np.array([1, 2, 3])\n"),
        ("setitem scalar cast", "r = np.zeros(3, dtype='int32')\nr[0] = 2.7\n"),
        ("setitem broadcast", "r = np.zeros((2, 3))\nr[:, 1] = 5\n"),
        ("reshape -1", "r = np.arange(12).reshape(3, -1)\n"),
        ("transpose", "r = np.arange(6).reshape(2, 3).T\n"),
        # matmul / @: 2-D, vector forms, stacks, promotion, integer wrap, shape errors
        ("matmul 2d", "r = np.arange(6).reshape(2, 3) @ np.arange(12).reshape(3, 4)\n"),
        ("matmul f32", "r = np.array([[1.5, -2.0], [0.25, 3.0]], dtype='float32') @ np.array([[2.0], [4.0]], dtype='float32')\n"),
        ("matmul f16 promote", "r = np.matmul(np.array([[1.5, 2.0]], dtype='float16'), np.array([[3.0], [0.5]]))\n"),
        ("matmul vec mat", "r = np.arange(3) @ np.arange(6).reshape(3, 2)\n"),
        ("matmul mat vec", "r = np.arange(6).reshape(2, 3) @ np.arange(3)\n"),
        ("matmul vec vec", "r = np.arange(4.0) @ np.arange(4.0)\n"),
        ("matmul stack", "r = np.arange(12).reshape(2, 2, 3) @ np.arange(6).reshape(3, 2)\n"),
        ("matmul int8", "r = np.array([[100, 100]], dtype='int8') @ np.array([[2], [1]], dtype='int8')\n"),
        ("matmul transposed", "a = np.arange(6.0).reshape(3, 2)\nr = a.T @ a\n"),
        ("matmul shape error", "r = np.zeros((2, 3)) @ np.zeros((2, 3))\n"),
        ("matmul scalar error", "r = np.zeros((2, 2)) @ 2.0\n"),
        ("linspace", "r = np.linspace(0, 1, 7)\n"),
        ("linspace f32", "r = np.linspace(-4, 4, 9, dtype='float32')\n"),
        ("arange float", "r = np.arange(0.0, 1.0, 0.1)\n"),
        ("arange int", "r = np.arange(2, 11, 3)\n"),
        ("full", "r = np.full((2, 2), 7, dtype='int16')\n"),
        ("zeros_like", "r = np.zeros_like(np.ones((2, 3), dtype='float16'))\n"),
        ("array default int", "r = np.array([1, 2, 3])\n"),
        ("array default float", "r = np.array([1, 2.5])\n"),
        ("array bool", "r = np.array([True, False])\n"),
        ("array nested", "r = np.array([[1, 2], [3, 4]])\n"),
        ("array ragged", "r = np.array([[1, 2], [3]])\n"),
        ("item", "r = np.array([[2.5]]).item()\n"),
        ("tolist", "r = np.arange(4).reshape(2, 2).tolist()\n"),
        ("size ndim shape", "a = np.zeros((2, 3, 4))\nr = (a.size, a.ndim, a.shape)\n"),
        ("array truth", "r = bool(np.array([1, 2]))\n"),
        ("scalar truth", "r = bool(np.array([0.0]))\n"),
        ("len array", "r = len(np.zeros((5, 2)))\n"),
        ("max of array", "r = max(np.array([3, 9, 2]))\n"),
        ("min of 2d array", "r = min(np.array([[3, 9], [2, 8]])[:, 0])\n"),
        ("sum start", "r = sum([1, 2], 10)\n"),
        ("sum of int", "r = sum(5)\n"),
        ("max key", "r = max([-5, 2], key=abs)\n"),
        ("maximum scalar promotion", "r = np.maximum(np.array([1, 2], dtype='int8'), 1000)\n"),
        ("maximum relu", "r = np.maximum(np.array([-1.5, 2.0], dtype='float32'), 0.0)\n"),
        ("minimum python ints", "r = np.minimum(3, 5)\n"),
        ("ufunc out", "a = np.zeros(2)\nr = np.add(np.ones(2), 1, out=a)\n"),
        ("functional add scalars", "r = np.add(2, 3.5)\n"),
        ("functional power", "r = np.power(np.array([2, 3], dtype='int16'), 2)\n"),
        ("linspace retstep", "r = np.linspace(0, 1, 5, retstep=True)\n"),
        ("reshape order", "r = np.reshape(np.arange(6), (2, 3), order='F')\n"),
        ("assert_array_equal strict", "np.testing.assert_array_equal(np.zeros(2), 0.0, strict=True)\nr = 1\n"),
        ("undefined name", "r = undefined_name + 1\n"),
        ("unpack error", "a, b = (1, 2, 3)\nr = a\n"),
        ("list index error", "r = [1, 2][5]\n"),
    ]
    for name, code in H:
        add("hand " + name, code)



def nn(add):
    """torch.softmax and scaled_dot_product_attention: the harness runs the torch spelling
    (`harness`, after `import torch` and `import torch.nn.functional as F`), numpy the formula
    (`code`) in float64, rounded once to the result dtype. Within 1 ulp: numpy's pairwise sums
    and BLAS matmul order the float64 additions differently."""
    X = "x = (((np.arange(24) * 37) %% 23 - 11) * 0.25).reshape(4, 6).astype('%s')\n"
    X_INF = ("x = (((np.arange(24) * 37) % 23 - 11) * 0.25).reshape(4, 6).astype('float32')\n"
             "x[1, 2] = -np.inf\nx[2, :] = -np.inf\n")
    SOFT = ("y = x.astype('float64')\ny = np.exp(y - y.max(axis=%d, keepdims=True))\n"
            "r = (y / y.sum(axis=%d, keepdims=True)).astype('%s')\n")
    T = "t = torch.from_numpy(x)\n"
    for dt in ("float32", "float16"):
        add("nn torch.softmax dim=-1 " + dt, X % dt + SOFT % (-1, -1, dt), ulp=1,
            harness=X % dt + T + "r = torch.softmax(t, dim=-1).numpy()\n")
    add("nn F.softmax dim=0", X % "float32" + SOFT % (0, 0, "float32"), ulp=1,
        harness=X % "float32" + T + "r = F.softmax(t, dim=0).numpy()\n")
    add("nn F.softmax implicit dim", X % "float32" + SOFT % (1, 1, "float32"), ulp=1,
        harness=X % "float32" + T + "r = F.softmax(t).numpy()\n")
    add("nn softmax method", X % "float32" + SOFT % (1, 1, "float32"), ulp=1,
        harness=X % "float32" + T + "r = t.softmax(1).numpy()\n")
    # a float64 result: numpy's float64 exp (SIMD) and pairwise sum against libm and a plain sum
    add("nn softmax dtype float64", X % "float32" + SOFT % (-1, -1, "float64"), ulp=4,
        harness=X % "float32" + T + "r = torch.softmax(t, -1, dtype=torch.float64).numpy()\n")
    add("nn softmax -inf rows", X_INF + SOFT % (-1, -1, "float32"), ulp=1,
        harness=X_INF + T + "r = torch.softmax(t, dim=-1).numpy()\n")

    def qkv(dt, l=5, s=7, e=8, ev=4):
        return ("q = (((np.arange(%d) * 37) %% 23 - 11) * 0.125).reshape(2, %d, %d).astype('%s')\n"
                "k = (((np.arange(%d) * 29) %% 19 - 9) * 0.125).reshape(2, %d, %d).astype('%s')\n"
                "v = (((np.arange(%d) * 13) %% 17 - 8) * 0.25).reshape(2, %d, %d).astype('%s')\n"
                % (2 * l * e, l, e, dt, 2 * s * e, s, e, dt, 2 * s * ev, s, ev, dt))
    ATT = ("s = (q.astype('float64') @ np.swapaxes(k.astype('float64'), -1, -2)) * %s\n%s"
           "p = np.exp(s - s.max(axis=-1, keepdims=True))\np = p / p.sum(axis=-1, keepdims=True)\n"
           "r = (p @ v.astype('float64')).astype('%s')\n")
    TQKV = "tq = torch.from_numpy(q)\ntk = torch.from_numpy(k)\ntv = torch.from_numpy(v)\n"
    SDPA = "r = F.scaled_dot_product_attention(tq, tk, tv%s).numpy()\n"
    CAUSAL = "s = np.where(np.tril(np.ones((5, 7), dtype=bool)), s, -np.inf)\n"
    for dt in ("float32", "float16"):
        add("nn sdpa " + dt, qkv(dt) + ATT % ("(1 / np.sqrt(8))", "", dt), ulp=1,
            harness=qkv(dt) + TQKV + SDPA % "")
    add("nn sdpa causal", qkv("float32") + ATT % ("(1 / np.sqrt(8))", CAUSAL, "float32"), ulp=1,
        harness=qkv("float32") + TQKV + SDPA % ", is_causal=True")
    add("nn sdpa causal positional", qkv("float32") + ATT % ("(1 / np.sqrt(8))", CAUSAL, "float32"), ulp=1,
        harness=qkv("float32") + TQKV + "r = F.scaled_dot_product_attention(tq, tk, tv, None, 0.0, True).numpy()\n")
    add("nn sdpa scale", qkv("float32") + ATT % ("0.5", "", "float32"), ulp=1,
        harness=qkv("float32") + TQKV + SDPA % ", scale=0.5")
    MASK = "m = ((np.arange(35) % 3) != 1).reshape(5, 7)\n"
    add("nn sdpa bool mask", qkv("float32") + MASK + ATT % ("(1 / np.sqrt(8))", "s = np.where(m, s, -np.inf)\n", "float32"),
        ulp=1, harness=qkv("float32") + MASK + TQKV + SDPA % ", attn_mask=torch.from_numpy(m)")
    FMASK = "m = ((np.arange(35) % 4) * -0.5).reshape(5, 7).astype('float32')\n"
    add("nn sdpa float mask", qkv("float32") + FMASK + ATT % ("(1 / np.sqrt(8))", "s = s + m.astype('float64')\n", "float32"),
        ulp=1, harness=qkv("float32") + FMASK + TQKV + SDPA % ", attn_mask=torch.from_numpy(m)")
    add("nn sdpa 2d head dim 64", "q = (((np.arange(192) * 37) % 23 - 11) * 0.125).reshape(3, 64).astype('float32')\n"
        "k = (((np.arange(256) * 29) % 19 - 9) * 0.125).reshape(4, 64).astype('float32')\n"
        "v = (((np.arange(256) * 13) % 17 - 8) * 0.25).reshape(4, 64).astype('float32')\n"
        + ATT % ("(1 / np.sqrt(64))", "", "float32"), ulp=1,
        harness="q = (((np.arange(192) * 37) % 23 - 11) * 0.125).reshape(3, 64).astype('float32')\n"
        "k = (((np.arange(256) * 29) % 19 - 9) * 0.125).reshape(4, 64).astype('float32')\n"
        "v = (((np.arange(256) * 13) % 17 - 8) * 0.25).reshape(4, 64).astype('float32')\n" + TQKV + SDPA % "")


def formatting(add):
    """String formatting (f-strings, str.format(), format(), repr(), ascii(), str()): CPython's
    text for ints, bools, floats, strs, None, containers and numpy 0-d values, and the exceptions
    of bad specs and templates at the line that raised them."""
    V = ("i = -1234567\nn = 42\nb = True\nx = 2 / 3\nz = -0.0\nbig = 1e16\nt = 0.1\n"
         "s = 'héllo'\nq = \"it's\"\nnan = float('nan')\ninf = float('inf')\n")
    F = [
        # ints
        "n", "n:d", "n:+d", "n: d", "n:>8", "n:<8", "n:^8", "i:=12", "i:012", "n:*^9", "n:é>5",
        "n:x", "n:#X", "n:#o", "n:#b", "-n:#010x", "i:,", "i:_", "n * 1000000:_x", "i:015,",
        "65:c", "n:n", "i:e", "n:.2f", "n:%", "-9223372036854775807 - 1:#x",
        # bools and None
        "b", "b:d", "b:>5", "b:.2f", "b!r", "None", "None!r",
        # floats
        "x", "x:.3", "x:.0", "x:.10f", "x:.3e", "x:.4g", "x:G", "x:%", "x:.1%", "x:12.4f", "x:<12.4f",
        "x:^+12.4f", "x:=12.4f", "x:012.4f", "x:_.3f", "big", "big:,.0f", "1e15", "1e-5", "1e-5:f",
        "t:g", "t:.20f", "z", "z:+.1f", "z:z.1f", "-0.001:z.2f", "-0.001:.2f", "0.5:.0f", "1.5:.0f",
        "2.5:.0f", "0.125:.2f", "nan", "nan:+F", "-nan:f", "inf:010", "-inf:010.2f", "inf:E",
        "1.0:#g", "1.0:#.0f", "1.0:#.0e", "1e22:g", "12345.0:G", "5e-324", "5e-324:.3e",
        "1.7976931348623157e308:.0e", "123.456:n", "9.995:.2f", "x:.17g",
        # strs
        "s", "s!r", "s!a", "s!s:>9", "s:.2", "s:^11", "s:*<8", "q!r", "'ab':05", "'日本':>4",
        # containers
        "(1, 'a')", "[1.5, None, 'b']", "{'k': [1]}", "(1,)!r:>8",
    ]
    for i, f in enumerate(F):
        add("fmt f-string %d {%s}" % (i, f), V + "r = f\"<{%s}>\"\n" % f)
    M = [
        ("debug", "r = f\"{x=} {n = } {x=:.2e} {s=!s} {s=}\"\n"),
        ("nested spec", "w, p = 12, 4\nr = f\"{x:{w}.{p}f}|{x:>{w}}|{'ab':*^{w}}|{n:{'>'}{w}}\"\n"),
        ("nested f-string", "r = f\"{'k' + f'{n:03}'}\"\n"),
        ("braces", "r = f\"{{literal}} {n}{{}} }}{{\"\n"),
        ("concatenation", "r = 'a{b}' f'{n}' \"{c}\" f\"{x:.1f}\"\n"),
        ("multi-line field", "r = f'''{n +\n  1:>6}'''\n"),
        ("spec with field and conversion", "r = f\"{s!r:^{n // 3}}\"\n"),
        ("format builtin", "r = (format(1e16), format(0.1, 'g'), format(-0.0, '+.1f'), format(nan, 'f'), "
                           "format(True, 'd'), format(3, '.2f'), format('ab', '>8'), format(n))\n"),
        ("repr ascii str", "r = (repr('a\\nb'), ascii('é'), repr(1.5), repr([1, 'a', (2,)]), str({'a': 1}), "
                           "str(['x', None]), repr(q), ascii([s]))\n"),
        ("str.format", "r = ('{} and {}'.format(1, 2.5), '{1} {0} {1}'.format('a', 'b'), "
                       "'{x:>5}|{y!r}'.format(x=3, y='q'), '{:{}}|'.format('ab', 6), "
                       "'{0:{1}.{2}f}'.format(3.14159, 8, 2), '{{}} {{{}}}'.format(7), "
                       "'{0[1]} {1[k]}'.format([10, 20], {'k': 'v'}), '{!a}'.format('é'))\n"),
        ("string repetition", "r = ('-' * 5, 3 * 'ab', 'x' * 0, 'y' * -2)\n"),
        ("numpy float32 item", "a = np.array([1.5, 2.75], dtype='float32')\ne = np.abs(a - 1).max()\n"
                               "r = f\"{e:.3e} {e:.2f} {a.sum():g} {np.float32(0.1):.3f} {np.float32(0.1)}\"\n"),
        ("numpy int and bool items", "r = f\"{np.int32(7):x} {np.array(True):d} {np.array(3, dtype='uint8'):03d} "
                                     "{np.array(255, dtype='uint64'):#x} {np.int8(-5):+}\"\n"),
        ("numpy uint64 max", "u = (np.zeros(1, dtype='uint64') - np.uint64(1))[0]\nr = f\"{u:,} {u:#x} {u}\"\n"),
        ("numpy 0-d array", "r = f\"{np.array(0.5):.3f}|{np.array(2.5)}|{np.float64(1) / 3}\"\n"),
        ("numpy mean of float32", "a = np.linspace(0, 1, 7).astype('float32')\nr = f\"{a.mean():.6f} {a.mean()}\"\n"),
        # errors: the line that raises
        ("error float d", "x = 1.5\nr = f\"{x:d}\"\n"),
        ("error str sign", "s = 'ab'\nr = f\"{s:+}\"\n"),
        ("error precision on int", "r = 1\nr = f\"{r:.2d}\"\n"),
        ("error c range", "r = f\"{1114112:c}\"\n"),
        ("error list spec", "l = [1]\nr = f\"{l:>5}\"\n"),
        ("error None spec", "r = f\"{None:5}\"\n"),
        ("error array spec", "a = np.zeros(3)\nr = f\"{a:.2f}\"\n"),
        ("error comma and underscore", "r = format(1, ',_')\n"),
        ("error invalid spec", "n = 1\nr = f\"{n:abc}\"\n"),
        ("error format missing index", "r = '{} {}'.format(1)\n"),
        ("error format manual then auto", "r = '{0} {}'.format(1, 2)\n"),
        ("error format key", "r = '{a}'.format(b=1)\n"),
        ("error format single brace", "r = 'a}'.format()\n"),
        ("error format conversion", "r = '{!x}'.format(1)\n"),
        ("error format argument 2", "r = format(1, 2)\n"),
        ("printf-style", "r = '%5.2f|%d' % (1.5, 3)\n"),
        # str()/repr() of arrays and numpy scalars as numpy prints them (array_print.h)
        ("array str float32", "x = np.arange(12, dtype=np.float32).reshape(3, 4) / 7\n"
                              "r = (str(x), repr(x), str(x[0, 0]), repr(x[1, 2]), f'{x[0]}')\n"),
        ("array str summarized", "r = (str(np.arange(2000)), repr(np.arange(3000.0).reshape(10, 15, 20) / 11))\n"),
        ("array str specials", "r = (repr(np.array([1e-5, 1.5, 100.0])), str(np.array([0.0, -0.0, np.nan, -np.inf])), "
                               "repr(np.array([-5, 3, 120], dtype='int8')), repr(np.array([True, False])))\n"),
        ("array str 0-d and scalars", "r = (repr(np.array(0.1, dtype='float32')), str(np.array(2.5)), "
                                      "repr(np.float32(0.1)), str(np.float16(0.1)), repr(np.float64(1e16)), "
                                      "str([np.float32(0.5), np.zeros(2)]))\n"),
    ]
    for name, code in M:
        add("fmt " + name, V + code)


def fmt(x):
    """One element as text that round-trips exactly."""
    import numpy as np
    if isinstance(x, (bool, np.bool_)):
        return "1" if x else "0"
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    return repr(float(x))


def describe(v):
    import numpy as np
    if isinstance(v, (np.ndarray, np.generic)):
        a = np.asarray(v)
        return {"kind": "array", "dtype": str(a.dtype), "shape": list(a.shape),
                "values": [fmt(x) for x in a.reshape(-1).tolist()] if a.dtype.kind != "f"
                else [fmt(x) for x in a.astype("float64").reshape(-1)]}
    if isinstance(v, bool):
        return {"kind": "bool", "values": [fmt(v)]}
    if isinstance(v, int):
        return {"kind": "int", "values": [fmt(v)]}
    if isinstance(v, float):
        return {"kind": "float", "values": [fmt(v)]}
    if isinstance(v, str):
        return {"kind": "str", "values": [v]}
    if isinstance(v, (tuple, list)):
        return {"kind": "tuple" if isinstance(v, tuple) else "list", "items": [describe(x) for x in v]}
    raise TypeError("cannot describe %r" % (v,))


def run_case(code):
    import numpy as np
    src = "import numpy as np\n" + code
    env = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(compile(src, "<snippet>", "exec"), env)
        except Exception as e:  # noqa: BLE001 - every exception is an expectation
            line = 0
            for fr in traceback.extract_tb(e.__traceback__):
                if fr.filename == "<snippet>":
                    line = fr.lineno
            return {"error": type(e).__name__, "line": line}
    return {"result": describe(env["r"])}


def generate():
    import numpy as np
    out = []
    for c in cases():
        c = dict(c)
        c.update(run_case(c["code"]))
        out.append(c)
    return {"numpy": np.__version__, "cases": out}


def main():
    try:
        import numpy  # noqa: F401
    except ImportError:
        print("gen_conform: numpy is not installed (apt-get install python3-numpy): skipped")
        return 77
    data = generate()
    text = json.dumps(data, indent=0, sort_keys=True) + "\n"
    if "--check" in sys.argv:
        with open(OUT) as f:
            old = json.load(f)
        if old != data:
            oldc = {c["name"]: c for c in old["cases"]}
            diff = [c["name"] for c in data["cases"] if oldc.get(c["name"]) != c]
            print("gen_conform: cases.json differs from numpy %s in %d case(s), e.g. %s; rerun "
                  "tests/data/harness_conform/gen_conform.py" % (data["numpy"], len(diff), diff[:5]))
            return 1
        print("gen_conform: %d cases agree with numpy %s" % (len(data["cases"]), data["numpy"]))
        return 0
    with open(OUT, "w") as f:
        f.write(text)
    print("gen_conform: wrote %d cases (numpy %s)" % (len(data["cases"]), data["numpy"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
