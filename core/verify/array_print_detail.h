// Pieces shared by the numpy and torch printers (array_print.h): the shortest round-trip digits of
// a value in its own dtype, the text of integer elements, and the elements a summarized array
// shows (the first and last edge items of every long axis).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/verify/array.h"

namespace tirx::verify::print_detail {

/// Both printers summarize past this many elements and show this many at each end of an axis.
inline constexpr int64_t kThreshold = 1000;
inline constexpr int64_t kEdgeItems = 3;
/// The most elements one str() prints; beyond it (an array of many short axes, none of which
/// summarization can shorten) the array prints in the harness's short form.
inline constexpr int64_t kMaxPrinted = int64_t{1} << 20;

/// Decimal digits d1 d2 ... (no trailing zeros) and exponent e of |v| = d1.d2... x 10^e.
struct Digits {
  std::string digits;
  int exp = 0;
};
/// The shortest digits that read back as the same value of `dtype` (float16/bfloat16/float32/
/// float64), the closest to the value among the shortest. |v| finite and non-zero.
Digits shortestDigits(double v, DType dtype);
/// |v| correctly rounded (ties to even) to `sig` significant digits, trailing zeros dropped.
Digits roundedDigits(double v, int sig);
/// Digits laid out positionally: "12.5", "0.001", "300." (always a point; no sign).
std::string positional(const Digits& d);

/// Element i of an integer or bool array as Python prints its item (uint64 exact).
std::string intText(const Array& a, int64_t i);

/// Whether str() summarizes `a` (more than kThreshold elements).
bool summarizes(const Array& a);
/// How many elements str() prints.
int64_t printedCount(const Array& a, bool summarize);
/// The row-major indices of the elements str() prints, in order.
std::vector<int64_t> printedIndices(const Array& a, bool summarize);

std::string numpyArrayText(const Array& a, bool repr);
std::string torchTensorText(const Array& a);

}  // namespace tirx::verify::print_detail
