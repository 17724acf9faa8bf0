// Python's number semantics for the harness, where C++ differs: int()/float() parsing of strings
// (whitespace, signs, underscores between digits, base prefixes, inf/nan spellings), round() with
// ndigits (correctly rounded, ties to even), float floor division and modulo (CPython's and
// numpy's divmod algorithm), and int64 arithmetic that reports overflow instead of wrapping:
// the harness's Python ints are 64-bit, so a result Python would hold exactly beyond int64 is
// refused with a diagnostic, never silently wrapped.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tirx::verify {

/// Why a parse failed: a Python ValueError, or an integer beyond the harness's int64.
enum class ParseFail { None, ValueError, TooBig };

/// int(s, base) as Python: base 0 or 2..36; nullopt with `fail` set on an error.
std::optional<int64_t> parsePyInt(std::string_view s, int base, ParseFail* fail);
/// float(s) as Python ("1e-10", " -inf ", "nan", "1_000.5"); nullopt on a ValueError.
std::optional<double> parsePyFloat(std::string_view s);

/// repr(x) / str(x) of a Python float: the shortest digits that round-trip, positional for
/// decimal exponents -4..15 with at least one fractional digit ("1.0", "0.0001", "-0.0"),
/// scientific beyond ("1e+16", "1.5e-05"), and "inf", "-inf", "nan".
std::string pyFloatRepr(double x);

/// round(x, ndigits) for a float as CPython computes it (correctly rounded, ties to even).
double pyRound(double x, int64_t ndigits);

/// CPython's / numpy's float divmod: floor quotient and a remainder with the divisor's sign.
/// `b` must not be zero.
double pyFloorDiv(double a, double b);
double pyMod(double a, double b);
float pyFloorDivF(float a, float b);
float pyModF(float a, float b);

/// Python int arithmetic in int64; nullopt when the exact result leaves int64.
std::optional<int64_t> checkedAdd(int64_t a, int64_t b);
std::optional<int64_t> checkedSub(int64_t a, int64_t b);
std::optional<int64_t> checkedMul(int64_t a, int64_t b);
/// a // b and a % b with Python's signs; b != 0. Floor division of INT64_MIN by -1 overflows.
std::optional<int64_t> checkedFloorDiv(int64_t a, int64_t b);
int64_t pyIntMod(int64_t a, int64_t b);
/// a ** b for b >= 0.
std::optional<int64_t> checkedPow(int64_t a, int64_t b);
/// a << b for b >= 0.
std::optional<int64_t> checkedShl(int64_t a, int64_t b);

/// Wrapping (two's complement) integer power for fixed-width numpy integers; b >= 0.
uint64_t wrapPow(uint64_t a, uint64_t b);

}  // namespace tirx::verify
