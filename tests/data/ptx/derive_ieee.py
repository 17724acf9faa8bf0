#!/usr/bin/env python3
"""Derive tests/data/ptx/ieee_reference.json: expected results of PTX instructions whose bits are
fixed by IEEE 754 alone (correctly rounded add/sub/mul/fma/div/sqrt/rcp in binary32 and binary64
with the four rounding directions, binary16 add/sub/mul/fma, and the conversions between binary16,
binary32, binary64 and integers), computed with exact rational arithmetic (fractions.Fraction)
and written independently of the C++ simulator and of its reference model. Vectors whose result
is a NaN are left out (IEEE does not fix a NaN's payload). The file has the format of
`tirx ptx-conform --record` with explicit vectors; tests/core/tst_ptx_conform.cpp replays it
against the simulator until a recording from a real GPU is committed beside it.

Usage: python3 tests/data/ptx/derive_ieee.py > tests/data/ptx/ieee_reference.json
"""
import json
import math
from fractions import Fraction

FORMATS = {"f16": (11, 5, 16), "f32": (24, 8, 32), "f64": (53, 11, 64)}  # precision, exp bits, width


class Inf:
    def __init__(self, neg):
        self.neg = neg


def decode(bits, fmt):
    p, k, w = FORMATS[fmt]
    sign = (bits >> (w - 1)) & 1
    e = (bits >> (p - 1)) & ((1 << k) - 1)
    m = bits & ((1 << (p - 1)) - 1)
    bias = (1 << (k - 1)) - 1
    if e == (1 << k) - 1:
        return None if m else Inf(sign == 1)
    if e == 0:
        v = Fraction(m) * Fraction(2) ** (1 - bias - (p - 1))
    else:
        v = Fraction(m + (1 << (p - 1))) * Fraction(2) ** (e - bias - (p - 1))
    return (sign == 1, v)  # (negative, magnitude)


def encode(neg, mag, fmt, mode):
    """Round the exact value (-1)^neg * mag once into fmt with mode n/z/m/p."""
    p, k, w = FORMATS[fmt]
    s = (1 << (w - 1)) if neg else 0
    bias = (1 << (k - 1)) - 1
    emin, emax = 1 - bias, bias
    inf = ((1 << k) - 1) << (p - 1)
    maxf = (((1 << k) - 2) << (p - 1)) | ((1 << (p - 1)) - 1)
    away = (mode == "p" and not neg) or (mode == "m" and neg)
    if mag == 0:
        return s
    e = math.floor(math.log2(mag.numerator)) - math.floor(math.log2(mag.denominator))
    while Fraction(2) ** e > mag:
        e -= 1
    while Fraction(2) ** (e + 1) <= mag:
        e += 1
    e = max(e, emin)
    q = Fraction(2) ** (e - (p - 1))
    n = mag / q
    fl = n.numerator // n.denominator
    rem = n - fl
    if rem:
        if mode == "n":
            if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and fl % 2 == 1):
                fl += 1
        elif away:
            fl += 1
    if fl == 1 << p:
        fl >>= 1
        e += 1
    if e > emax:
        return s | (inf if mode == "n" or away else maxf)
    if fl < 1 << (p - 1):
        return s | fl
    return s | ((e + bias) << (p - 1)) | (fl - (1 << (p - 1)))


def isqrt_round(mag, fmt, mode):
    """sqrt(mag) rounded once (mag > 0): bracket the root with integer square roots."""
    p, k, w = FORMATS[fmt]
    scale = 2 * (p + 40) + 2 * (1 << k)  # enough fraction bits to see the rounding and exactness
    num = mag.numerator * (1 << scale) // mag.denominator
    exact_scaled = mag.numerator * (1 << scale) % mag.denominator == 0
    r = math.isqrt(num)
    exact = exact_scaled and r * r == num
    root = Fraction(r, 1 << (scale // 2))
    if not exact:
        root += Fraction(1, 1 << (scale // 2 + 1))  # strictly between r and r + 1: a sticky bit
    return encode(False, root, fmt, mode)


def zero_sum_sign(mode):
    return mode == "m"


def arith(op, vals, fmt, mode):
    """Returns the result bits, or None for a NaN result."""
    p, k, w = FORMATS[fmt]
    s = 1 << (w - 1)
    inf = ((1 << k) - 1) << (p - 1)
    if any(v is None for v in vals):
        return None

    def signed(v):
        return -v[1] if v[0] else v[1]

    def zero(neg):
        return s if neg else 0

    if op in ("add", "sub"):
        a, b = vals
        if op == "sub":
            b = Inf(not b.neg) if isinstance(b, Inf) else (not b[0], b[1])
        if isinstance(a, Inf) or isinstance(b, Inf):
            if isinstance(a, Inf) and isinstance(b, Inf) and a.neg != b.neg:
                return None
            x = a if isinstance(a, Inf) else b
            return (s if x.neg else 0) | inf
        r = signed(a) + signed(b)
        if r == 0:
            if a[1] == 0 and b[1] == 0 and a[0] == b[0]:
                return zero(a[0])
            return zero(zero_sum_sign(mode))
        return encode(r < 0, abs(r), fmt, mode)
    if op == "mul":
        a, b = vals
        neg = (a.neg if isinstance(a, Inf) else a[0]) != (b.neg if isinstance(b, Inf) else b[0])
        if isinstance(a, Inf) or isinstance(b, Inf):
            other = b if isinstance(a, Inf) else a
            if not isinstance(other, Inf) and other[1] == 0:
                return None
            return (s if neg else 0) | inf
        return encode(neg, a[1] * b[1], fmt, mode) if a[1] * b[1] else zero(neg)
    if op == "fma":
        a, b, c = vals
        neg = (a.neg if isinstance(a, Inf) else a[0]) != (b.neg if isinstance(b, Inf) else b[0])
        if isinstance(a, Inf) or isinstance(b, Inf):
            other = b if isinstance(a, Inf) else a
            if not isinstance(other, Inf) and other[1] == 0:
                return None
            if isinstance(c, Inf) and c.neg != neg:
                return None
            return (s if neg else 0) | inf
        if isinstance(c, Inf):
            return (s if c.neg else 0) | inf
        pr = (-1 if neg else 1) * a[1] * b[1]
        r = pr + signed(c)
        if r == 0:
            if pr == 0 and c[1] == 0 and neg == c[0]:
                return zero(neg)
            return zero(zero_sum_sign(mode))
        return encode(r < 0, abs(r), fmt, mode)
    if op in ("div", "rcp"):
        a, b = vals if op == "div" else [(False, Fraction(1)), vals[0]]
        neg = (a.neg if isinstance(a, Inf) else a[0]) != (b.neg if isinstance(b, Inf) else b[0])
        if isinstance(a, Inf):
            return None if isinstance(b, Inf) else (s if neg else 0) | inf
        if isinstance(b, Inf):
            return zero(neg)
        if b[1] == 0:
            return None if a[1] == 0 else (s if neg else 0) | inf
        return encode(neg, a[1] / b[1], fmt, mode) if a[1] else zero(neg)
    if op == "sqrt":
        (a,) = vals
        if isinstance(a, Inf):
            return None if a.neg else inf
        if a[1] == 0:
            return zero(a[0])
        if a[0]:
            return None
        return isqrt_round(a[1], fmt, mode)
    raise ValueError(op)


F32 = [0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x00800000, 0x80800000, 0x3f800000,
       0xbf800000, 0x3f800001, 0x3f7fffff, 0x3fc00000, 0x40400000, 0xc0200000, 0x3eaaaaab,
       0x34400000, 0x33800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x1e3ce508,
       0x5f800000, 0x00400001, 0x40490fdb]
F64 = [0x0000000000000000, 0x8000000000000000, 0x0000000000000001, 0x800fffffffffffff,
       0x0010000000000000, 0x3ff0000000000000, 0xbff0000000000000, 0x3ff0000000000001,
       0x3fefffffffffffff, 0x3ff8000000000000, 0x4008000000000000, 0xc004000000000000,
       0x3fd5555555555555, 0x3c98000000000000, 0x7fefffffffffffff, 0xffefffffffffffff,
       0x7ff0000000000000, 0xfff0000000000000, 0x2000000000000001, 0x4000000000000000]
F16 = [0x0000, 0x8000, 0x0001, 0x83ff, 0x0400, 0x3c00, 0xbc00, 0x3c01, 0x3bff, 0x3e00, 0x4200,
       0xc100, 0x3555, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x1400, 0x0200, 0x5bfc]
FMA3 = {"f32": [0x80000000, 0x3f800000, 0x3f800001, 0x3f7fffff, 0xbf800000, 0x33800000],
        "f64": [0x8000000000000000, 0x3ff0000000000000, 0x3ff0000000000001, 0x3fefffffffffffff,
                0xbff0000000000000, 0x3ca0000000000000],
        "f16": [0x8000, 0x3c00, 0x3c01, 0x3bff, 0xbc00, 0x1400]}
POOLS = {"f32": F32, "f64": F64, "f16": F16}
# Binary operations cross a smaller set: zeros, a subnormal, one and its neighbours, a tie
# maker, the largest finite value, infinity.
PAIRS = {"f32": [0x80000000, 0x00000001, 0x00800000, 0x3f800000, 0xbf800000, 0x3f800001, 0x3f7fffff,
                 0x40400000, 0x3eaaaaab, 0x34400000, 0x7f7fffff, 0xff800000],
         "f64": [0x8000000000000000, 0x0000000000000001, 0x0010000000000000, 0x3ff0000000000000,
                 0xbff0000000000000, 0x3ff0000000000001, 0x3fefffffffffffff, 0x4008000000000000,
                 0x3fd5555555555555, 0x3c98000000000000, 0x7fefffffffffffff, 0xfff0000000000000],
         "f16": F16}
MODES = {"n": ".rn", "z": ".rz", "m": ".rm", "p": ".rp"}


def convert(v, dst, mode):
    """A decoded non-NaN value rounded once into dst."""
    p, k, w = FORMATS[dst]
    if isinstance(v, Inf):
        return ((1 << (w - 1)) if v.neg else 0) | (((1 << k) - 1) << (p - 1))
    if v[1] == 0:
        return (1 << (w - 1)) if v[0] else 0
    return encode(v[0], v[1], dst, mode)


def h(v):
    return "0x%x" % v


def cases():
    out = []
    for fmt in ("f32", "f64"):
        pool, pairs = POOLS[fmt], PAIRS[fmt]
        for mode, q in MODES.items():
            for op in ("add", "sub", "mul", "div"):
                vecs = []
                for a in pairs:
                    for b in pairs:
                        r = arith(op, [decode(a, fmt), decode(b, fmt)], fmt, mode)
                        if r is not None:
                            vecs.append([h(a), h(b), h(r)])
                out.append({"op": "%s%s.%s" % (op, q, fmt), "arity": 3, "explicit": vecs})
            for op in ("sqrt", "rcp"):
                vecs = []
                for a in pool:
                    r = arith(op, [decode(a, fmt)], fmt, mode)
                    if r is not None:
                        vecs.append([h(a), h(r)])
                out.append({"op": "%s%s.%s" % (op, q, fmt), "arity": 2, "explicit": vecs})
            vecs = []
            f3 = FMA3[fmt]
            for a in f3:
                for b in f3:
                    for c in f3:
                        r = arith("fma", [decode(a, fmt), decode(b, fmt), decode(c, fmt)], fmt, mode)
                        if r is not None:
                            vecs.append([h(a), h(b), h(c), h(r)])
            out.append({"op": "fma%s.%s" % (q, fmt), "arity": 4, "explicit": vecs})
    # binary16 arithmetic (round to nearest even only in PTX).
    for op in ("add", "sub", "mul"):
        vecs = []
        for a in F16:
            for b in F16:
                r = arith(op, [decode(a, "f16"), decode(b, "f16")], "f16", "n")
                if r is not None:
                    vecs.append([h(a), h(b), h(r)])
        out.append({"op": "%s.rn.f16" % op, "arity": 3, "explicit": vecs})
    vecs = []
    for a in FMA3["f16"]:
        for b in FMA3["f16"]:
            for c in FMA3["f16"]:
                r = arith("fma", [decode(a, "f16"), decode(b, "f16"), decode(c, "f16")], "f16", "n")
                if r is not None:
                    vecs.append([h(a), h(b), h(c), h(r)])
    out.append({"op": "fma.rn.f16", "arity": 4, "explicit": vecs})
    # Conversions between formats: narrowing rounds once, widening is exact.
    for src, dst in (("f32", "f16"), ("f64", "f16"), ("f64", "f32")):
        for mode, q in MODES.items():
            vecs = []
            extra = [0x477fefff, 0x477ff000, 0x33000000, 0x33000001, 0x3f801000] if src == "f32" else []
            for a in POOLS[src] + extra:
                v = decode(a, src)
                if v is None:
                    continue
                vecs.append([h(a), h(convert(v, dst, mode))])
            out.append({"op": "cvt%s.%s.%s" % (q, dst, src), "arity": 2, "explicit": vecs})
    for src, dst in (("f16", "f32"), ("f16", "f64"), ("f32", "f64")):
        vecs = []
        for a in POOLS[src]:
            vecs.append([h(a), h(convert(decode(a, src), dst, "n"))])
        out.append({"op": "cvt.%s.%s" % (dst, src), "arity": 2, "explicit": vecs})
    ints = {"s32": [0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 16777217, 16777219, 0x7ffffffe, 65505, 65520],
            "u64": [0, 1, 0xffffffffffffffff, 0x8000000000000401, 0x20000000000001, 65519, 16777217],
            "s64": [0, 0xffffffffffffffff, 0x8000000000000000, 0x7fffffffffffffff, 0x20000000000001,
                    0xffdffffffffffffd]}
    for src, vals in ints.items():
        bits = int(src[1:])
        for dst in ("f16", "f32", "f64"):
            for mode, q in MODES.items():
                vecs = []
                for a in vals:
                    x = a - (1 << bits) if src[0] == "s" and a >> (bits - 1) else a
                    r = encode(x < 0, Fraction(abs(x)), dst, mode) if x else 0
                    vecs.append([h(a), h(r)])
                out.append({"op": "cvt%s.%s.%s" % (q, dst, src), "arity": 2, "explicit": vecs})
    return out


def main():
    doc = {"format": "tirx-ptx-conform-record", "version": 1, "generator": 0,
           "device": "IEEE 754 (exact rational arithmetic, tests/data/ptx/derive_ieee.py)",
           "source": "derived", "sm": 0, "cases": cases()}
    print(json.dumps(doc, indent=None, separators=(",", ":")))


if __name__ == "__main__":
    main()
