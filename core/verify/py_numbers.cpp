// Python number semantics for the harness (py_numbers.h): the grammar of int() and float()
// literals from the Python reference (underscores only between digits, optional base prefix,
// surrounding whitespace), CPython's float round/divmod algorithms, and overflow-checked int64.
#include "core/verify/py_numbers.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tirx::verify {

namespace {

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view strip(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}

int digitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return 99;
}

bool lowerEq(std::string_view a, const char* b) {
  if (a.size() != std::strlen(b)) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != b[i]) return false;
  return true;
}

/// Digits with single underscores between them (an underscore may also follow a base prefix);
/// appends the digits without underscores to `out`. False on any other character.
bool digitRun(std::string_view s, bool underscoreFirst, std::string& out) {
  if (s.empty()) return false;
  bool prevDigit = underscoreFirst;
  for (char c : s) {
    if (c == '_') {
      if (!prevDigit) return false;
      prevDigit = false;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    out += c;
    prevDigit = true;
  }
  return prevDigit;
}

}  // namespace

std::optional<int64_t> parsePyInt(std::string_view text, int base, ParseFail* fail) {
  *fail = ParseFail::ValueError;
  std::string_view s = strip(text);
  bool neg = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  bool prefixed = false;
  if (s.size() >= 2 && s[0] == '0') {
    const char p = static_cast<char>(std::tolower(static_cast<unsigned char>(s[1])));
    const int pb = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 0;
    if (pb && (base == 0 || base == pb)) {
      base = pb;
      prefixed = true;
      s.remove_prefix(2);
    }
  }
  if (base == 0) {
    base = 10;
    // Base 0 reads the literal as Python source: no leading zeros on a non-zero decimal.
    bool allZero = true;
    for (char c : s) allZero = allZero && (c == '0' || c == '_');
    if (s.size() > 1 && s[0] == '0' && !allZero) return std::nullopt;
  }
  if (s.empty()) return std::nullopt;
  uint64_t mag = 0;
  const uint64_t limit = neg ? (uint64_t{1} << 63) : (uint64_t{1} << 63) - 1;
  bool prevDigit = prefixed, tooBig = false;
  for (char c : s) {
    if (c == '_') {
      if (!prevDigit) return std::nullopt;
      prevDigit = false;
      continue;
    }
    const int d = digitValue(c);
    if (d >= base) return std::nullopt;
    prevDigit = true;
    if (tooBig) continue;
    if (mag > (limit - static_cast<uint64_t>(d)) / static_cast<uint64_t>(base))
      tooBig = true;
    else
      mag = mag * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
  }
  if (!prevDigit) return std::nullopt;
  if (tooBig) {
    *fail = ParseFail::TooBig;
    return std::nullopt;
  }
  *fail = ParseFail::None;
  return neg ? static_cast<int64_t>(0 - mag) : static_cast<int64_t>(mag);
}

std::optional<double> parsePyFloat(std::string_view text) {
  std::string_view s = strip(text);
  std::string clean;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    clean += s[0];
    s.remove_prefix(1);
  }
  const bool neg = !clean.empty() && clean[0] == '-';
  if (lowerEq(s, "inf") || lowerEq(s, "infinity")) return neg ? -INFINITY : INFINITY;
  if (lowerEq(s, "nan")) return neg ? -std::nan("") : std::nan("");
  // mantissa: digits [. [digits]] | . digits ; exponent: e [sign] digits
  size_t e = s.find_first_of("eE");
  std::string_view mant = s.substr(0, e), expo = e == std::string_view::npos ? "" : s.substr(e + 1);
  const size_t dot = mant.find('.');
  std::string_view ip = mant.substr(0, dot),
                   fp = dot == std::string_view::npos ? "" : mant.substr(dot + 1);
  if (ip.empty() && fp.empty()) return std::nullopt;
  if (!ip.empty() && !digitRun(ip, false, clean)) return std::nullopt;
  if (dot != std::string_view::npos) {
    clean += '.';
    if (!fp.empty() && !digitRun(fp, false, clean)) return std::nullopt;
  }
  if (e != std::string_view::npos) {
    clean += 'e';
    if (!expo.empty() && (expo[0] == '+' || expo[0] == '-')) {
      clean += expo[0];
      expo.remove_prefix(1);
    }
    if (!digitRun(expo, false, clean)) return std::nullopt;
  }
  return std::strtod(clean.c_str(), nullptr);  // inf beyond the range, as Python
}

double pyRound(double x, int64_t ndigits) {
  if (!std::isfinite(x) || x == 0) return x;
  if (ndigits > 330) return x;
  if (ndigits < -330) return std::copysign(0.0, x);
  if (ndigits >= 0) {
    // glibc prints the exact binary value correctly rounded (ties to even), as CPython's dtoa.
    char buf[512];
    std::snprintf(buf, sizeof buf, "%.*f", static_cast<int>(ndigits), x);
    const double r = std::strtod(buf, nullptr);
    return r == 0 ? std::copysign(0.0, x) : r;
  }
  const double pow1 = std::pow(10.0, static_cast<double>(-ndigits));
  const double y = x / pow1;
  double z = std::round(y);
  if (std::fabs(y - z) == 0.5) z = 2.0 * std::round(y / 2.0);  // ties to even
  const double r = z * pow1;
  return r == 0 ? std::copysign(0.0, x) : r;
}

namespace {
template <class F>
F divmodImpl(F a, F b, F* modulus) {
  F mod = std::fmod(a, b);
  F div = (a - mod) / b;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) {
      mod += b;
      div -= F(1);
    }
  } else {
    mod = std::copysign(F(0), b);
  }
  F floordiv;
  if (div != 0) {
    floordiv = std::floor(div);
    if (div - floordiv > F(0.5)) floordiv += F(1);
  } else {
    floordiv = std::copysign(F(0), a / b);
  }
  *modulus = mod;
  return floordiv;
}
}  // namespace

double pyFloorDiv(double a, double b) {
  double m;
  return divmodImpl(a, b, &m);
}
double pyMod(double a, double b) {
  double m;
  divmodImpl(a, b, &m);
  return m;
}
float pyFloorDivF(float a, float b) {
  float m;
  return divmodImpl(a, b, &m);
}
float pyModF(float a, float b) {
  float m;
  divmodImpl(a, b, &m);
  return m;
}

std::optional<int64_t> checkedAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}
std::optional<int64_t> checkedSub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) return std::nullopt;
  return r;
}
std::optional<int64_t> checkedMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}
std::optional<int64_t> checkedFloorDiv(int64_t a, int64_t b) {
  if (a == INT64_MIN && b == -1) return std::nullopt;
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t pyIntMod(int64_t a, int64_t b) {
  if (b == -1) return 0;
  int64_t m = a % b;
  if (m != 0 && ((m < 0) != (b < 0))) m += b;
  return m;
}
std::optional<int64_t> checkedPow(int64_t a, int64_t b) {
  int64_t r = 1, base = a;
  while (b > 0) {
    if (b & 1) {
      if (__builtin_mul_overflow(r, base, &r)) return std::nullopt;
    }
    b >>= 1;
    if (b > 0 && __builtin_mul_overflow(base, base, &base)) return std::nullopt;
  }
  return r;
}
std::optional<int64_t> checkedShl(int64_t a, int64_t b) {
  if (a == 0) return 0;
  if (b >= 63) return std::nullopt;
  const int64_t r = static_cast<int64_t>(static_cast<uint64_t>(a) << b);
  if ((r >> b) != a) return std::nullopt;
  return r;
}

uint64_t wrapPow(uint64_t a, uint64_t b) {
  uint64_t r = 1;
  while (b > 0) {
    if (b & 1) r *= a;
    a *= a;
    b >>= 1;
  }
  return r;
}

std::string pyFloatRepr(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  // The shortest round-trip digits, as d.ddde±X, then laid out the way CPython's repr does.
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  const size_t e = sci.find('e');
  std::string mant = sci.substr(0, e);
  const int exp = std::atoi(sci.c_str() + e + 1);
  const bool negative = !mant.empty() && mant[0] == '-';
  if (negative) mant.erase(0, 1);
  std::string digits;
  for (char c : mant)
    if (c != '.') digits += c;
  std::string out = negative ? "-" : "";
  if (exp >= -4 && exp < 16) {
    const int point = exp + 1;  // digits before the decimal point
    if (point <= 0) {
      out += "0." + std::string(static_cast<size_t>(-point), '0') + digits;
    } else if (static_cast<size_t>(point) >= digits.size()) {
      out += digits + std::string(static_cast<size_t>(point) - digits.size(), '0') + ".0";
    } else {
      out += digits.substr(0, static_cast<size_t>(point)) + "." +
             digits.substr(static_cast<size_t>(point));
    }
    return out;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1) out += "." + digits.substr(1);
  char ex[16];
  std::snprintf(ex, sizeof ex, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
  return out + ex;
}

}  // namespace tirx::verify
