// The entry points of array_print.h and the pieces both printers share: shortest round-trip
// digits per dtype (std::to_chars for float32 and float64; for the 16-bit floats the fewest
// correctly rounded digits that read back as the same value), integer items, and the elements a
// summarized array shows.
#include "core/verify/array_print.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "core/verify/array_print_detail.h"

namespace tirx::verify {

namespace print_detail {

namespace {

/// Parses std::to_chars' scientific form "d.ddde±X" into digits and exponent.
Digits parseScientific(std::string_view s) {
  Digits d;
  const size_t e = s.find('e');
  for (char c : s.substr(0, e))
    if (c >= '0' && c <= '9') d.digits += c;
  d.exp = std::atoi(std::string(s.substr(e + 1)).c_str());
  while (d.digits.size() > 1 && d.digits.back() == '0') d.digits.pop_back();
  return d;
}

double roundTo(double v, DType t) {
  Array one = makeArray(t, {});
  one.set(0, v);
  return one.get(0);
}

}  // namespace

Digits shortestDigits(double v, DType dtype) {
  char buf[64];
  v = std::fabs(v);
  if (dtype == DType::Float64) {
    auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    return parseScientific(std::string_view(buf, size_t(r.ptr - buf)));
  }
  if (dtype == DType::Float32) {
    auto r =
        std::to_chars(buf, buf + sizeof buf, static_cast<float>(v), std::chars_format::scientific);
    return parseScientific(std::string_view(buf, size_t(r.ptr - buf)));
  }
  for (int sig = 1; sig < 17; ++sig) {
    Digits d = roundedDigits(v, sig);
    std::string text =
        d.digits.substr(0, 1) + "." + d.digits.substr(1) + "e" + std::to_string(d.exp);
    if (roundTo(std::strtod(text.c_str(), nullptr), dtype) == v) return d;
  }
  return roundedDigits(v, 17);
}

Digits roundedDigits(double v, int sig) {
  char buf[64];
  auto r =
      std::to_chars(buf, buf + sizeof buf, std::fabs(v), std::chars_format::scientific, sig - 1);
  return parseScientific(std::string_view(buf, size_t(r.ptr - buf)));
}

std::string positional(const Digits& d) {
  const int point = d.exp + 1;  // digits before the decimal point
  const int n = static_cast<int>(d.digits.size());
  if (point <= 0) return "0." + std::string(size_t(-point), '0') + d.digits;
  if (point >= n) return d.digits + std::string(size_t(point - n), '0') + ".";
  return d.digits.substr(0, size_t(point)) + "." + d.digits.substr(size_t(point));
}

std::string intText(const Array& a, int64_t i) {
  if (a.dtype == DType::Bool) return a.getInt(i) ? "True" : "False";
  if (a.dtype == DType::UInt64) return std::to_string(static_cast<uint64_t>(a.getInt(i)));
  return std::to_string(a.getInt(i));
}

bool summarizes(const Array& a) {
  return a.size() > kThreshold;
}

int64_t printedCount(const Array& a, bool summarize) {
  int64_t n = 1;
  for (int64_t e : a.shape) {
    n *= summarize && e > 2 * kEdgeItems ? 2 * kEdgeItems : e;
    if (n > kMaxPrinted) return kMaxPrinted + 1;
  }
  return n;
}

std::vector<int64_t> printedIndices(const Array& a, bool summarize) {
  std::vector<int64_t> out{0};
  // Each axis multiplies the offsets so far by its extent and adds the positions it shows.
  for (int64_t e : a.shape) {
    std::vector<int64_t> pos;
    for (int64_t i = 0; i < e; ++i) {
      if (summarize && e > 2 * kEdgeItems && i == kEdgeItems) i = e - kEdgeItems;
      pos.push_back(i);
    }
    std::vector<int64_t> next;
    next.reserve(out.size() * pos.size());
    for (int64_t o : out)
      for (int64_t p : pos) next.push_back(o * e + p);
    out = std::move(next);
  }
  return out;
}

}  // namespace print_detail

namespace {

bool printable(const Array& a) {
  return print_detail::printedCount(a, print_detail::summarizes(a)) <= print_detail::kMaxPrinted;
}

/// The harness's short form for an array too large to print element by element.
std::string shortForm(const Array& a) {
  return "<" + describe(a) + ": too many elements to print>";
}

}  // namespace

std::string numpyScalarText(double v, DType dtype) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  const std::string sign = std::signbit(v) ? "-" : "";
  if (v == 0) return sign + "0.0";
  const print_detail::Digits d = print_detail::shortestDigits(v, dtype);
  if (std::fabs(v) >= 1e-4 && std::fabs(v) < 1e16) {
    std::string s = print_detail::positional(d);
    return sign + (s.back() == '.' ? s + "0" : s);
  }
  std::string m = d.digits.substr(0, 1);
  if (d.digits.size() > 1) m += "." + d.digits.substr(1);
  const int e = d.exp < 0 ? -d.exp : d.exp;
  return sign + m + (d.exp < 0 ? "e-" : "e+") + (e < 10 ? "0" : "") + std::to_string(e);
}

std::string arrayStr(const Array& a) {
  if (!printable(a)) return shortForm(a);
  if (a.flavor == Flavor::Torch) return print_detail::torchTensorText(a);
  return print_detail::numpyArrayText(a, false);
}

std::string arrayRepr(const Array& a) {
  if (!printable(a)) return shortForm(a);
  if (a.flavor == Flavor::Torch) return print_detail::torchTensorText(a);
  return print_detail::numpyArrayText(a, true);
}

}  // namespace tirx::verify
