#!/usr/bin/env python3
"""Writes fold_cases.tsv: integer expressions over edge operands with the value Python gives them,
the oracle for sema's constant folding (tests/core/tst_sema.cpp, foldMatchesPython).

Each line is `expression<TAB>expected`, where expected is an integer or one of
  overflow  the exact value leaves int64 (TIRx integers are at most 64 bits: E0240)
  zerodiv   ZeroDivisionError (E0156)
  negshift  ValueError: negative shift count (E0244)
  float     Python's result is a float (int ** negative int)

Run by hand (python3 gen_fold_cases.py > fold_cases.tsv) when the operand or operator list changes.
"""
import itertools

INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1
OPERANDS = [0, 1, -1, 2, -2, 3, -7, 62, 63, 64, 70, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), 2 ** 32,
            3037000499, 3037000500, INT64_MAX, -INT64_MAX, INT64_MIN]
OPS = ["+", "-", "*", "//", "%", "<<", ">>", "&", "|", "^", "**"]


def spell(v):
    # The lexer reads literals up to INT64_MAX; INT64_MIN is written as an expression.
    if v == INT64_MIN:
        return "(-9223372036854775807 - 1)"
    return f"({v})" if v < 0 else str(v)


def value(a, op, b):
    try:
        if op == "<<":
            if b < 0:
                return "negshift"
            if a != 0 and b > 200:
                return "overflow"
            r = a << b
        elif op == "**":
            if b < 0:
                return "zerodiv" if a == 0 else "float"
            if abs(a) >= 2 and b > 200:
                return "overflow"
            r = a ** b
        elif op == ">>" and b < 0:
            return "negshift"
        else:
            r = eval(f"a {op} b")
    except ZeroDivisionError:
        return "zerodiv"
    return str(r) if INT64_MIN <= r <= INT64_MAX else "overflow"


for a, op, b in itertools.product(OPERANDS, OPS, OPERANDS):
    print(f"{spell(a)} {op} {spell(b)}\t{value(a, op, b)}")
for a in OPERANDS:
    for op in ["-", "~"]:
        r = -a if op == "-" else ~a
        print(f"{op}{spell(a)}\t{r if INT64_MIN <= r <= INT64_MAX else 'overflow'}")
# Nested: an intermediate that leaves int64 is an error even when Python's final value fits.
print("(1 << 70) >> 60\toverflow")
print("(2 ** 63) // 2\toverflow")
print("((-9223372036854775807 - 1) // 2) * 2\t-9223372036854775808")
print("(1 << 62) * 2 - 1\toverflow")
print("(1 << 62) - 1 + (1 << 62)\t9223372036854775807")
