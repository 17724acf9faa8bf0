// format() as CPython 3.11 computes it (Python/formatter_unicode.c, Python/pystrtod.c), see
// py_format.h. Overview:
//   1. parseSpec reads [[fill]align][sign][z][#][0][width][grouping][.precision][type] over code
//      points, with the type's default type and alignment (str: 's' and '<'; numbers: 'd' or
//      none and '>'; a '0' before the width makes a number's alignment '=' and its fill '0');
//   2. ints are written in their base, floats through floatText (correctly rounded digits from
//      std::to_chars, laid out by CPython's format_float_short), strings truncated to the
//      precision;
//   3. layoutNumber places sign, prefix, grouped digits, decimal point and remainder in the width
//      (CPython's calc_number_widths and fill_number), with '0' fill inside the grouping when
//      the alignment is '='.
// Widths count code points, as Python's do. The C locale is assumed for 'n' (no grouping).
#include "core/verify/py_format.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/script/utf8.h"

namespace tirx::verify {

FormatArg FormatArg::integer(int64_t v) {
  FormatArg a;
  a.kind = Kind::Int;
  a.negative = v < 0;
  a.magnitude = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  a.typeName = "int";
  return a;
}
FormatArg FormatArg::real(double v) {
  FormatArg a;
  a.kind = Kind::Float;
  a.f = v;
  a.typeName = "float";
  return a;
}
FormatArg FormatArg::boolean(bool v) {
  FormatArg a;
  a.kind = Kind::Bool;
  a.magnitude = v ? 1 : 0;
  a.typeName = "bool";
  return a;
}
FormatArg FormatArg::string(std::string v) {
  FormatArg a;
  a.kind = Kind::Str;
  a.s = std::move(v);
  a.typeName = "str";
  return a;
}

namespace {

using script::appendUtf8;
using script::codePointAt;

std::string repeat(const std::string& fill, int64_t n) {
  std::string out;
  if (n <= 0) return out;
  out.reserve(fill.size() * static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) out += fill;
  return out;
}

// ---- the spec

struct Spec {
  std::string fill = " ";  // one code point
  char align = 0;
  char sign = 0;
  bool noNegZero = false;  // 'z'
  bool alternate = false;  // '#'
  int64_t width = -1;
  char grouping = 0;  // ',' or '_'
  int groupSize = 3;  // 4 for '_' with b, o, x, X
  int64_t precision = -1;
  uint32_t type = 0;  // a code point: a non-ASCII one is an unknown code, named in the message
};

bool fail(FormatError* err, FormatError::Kind kind, std::string message) {
  if (err) *err = FormatError{kind, std::move(message)};
  return false;
}

/// How Python's messages name a type character.
std::string typeChar(uint32_t t) {
  if (t > 32 && t < 128) return std::string(1, static_cast<char>(t));
  char buf[16];
  std::snprintf(buf, sizeof buf, "\\x%x", t);
  return buf;
}

bool unknownCode(uint32_t type, const std::string& typeName, FormatError* err) {
  return fail(err, FormatError::Kind::ValueError,
              "unknown format code '" + typeChar(type) + "' for object of type '" + typeName + "'");
}

/// Digits at cps[pos...] as a width or precision; -1 when there are none; nullopt on overflow.
std::optional<int64_t> readInteger(const std::vector<uint32_t>& cps, size_t& pos,
                                   FormatError* err) {
  int64_t v = -1;
  while (pos < cps.size() && cps[pos] >= '0' && cps[pos] <= '9') {
    const int d = static_cast<int>(cps[pos] - '0');
    if (v < 0) v = 0;
    if (v > (INT64_MAX - d) / 10) {
      fail(err, FormatError::Kind::ValueError, "too many decimal digits in format string");
      return std::nullopt;
    }
    v = v * 10 + d;
    ++pos;
  }
  if (v > kMaxFormatWidth) {
    fail(err, FormatError::Kind::Limit,
         "a format width or precision of " + std::to_string(v) +
             " is beyond the harness's limit of " + std::to_string(kMaxFormatWidth));
    return std::nullopt;
  }
  return v;
}

bool isAlign(uint32_t c) {
  return c == '<' || c == '>' || c == '=' || c == '^';
}

/// CPython's parse_internal_render_format_spec.
std::optional<Spec> parseSpec(std::string_view text, char defaultType, char defaultAlign,
                              const std::string& typeName, FormatError* err) {
  std::vector<uint32_t> cps;
  for (size_t i = 0; i < text.size();) {
    size_t len = 1;
    cps.push_back(codePointAt(text, i, &len));
    i += len;
  }
  Spec sp;
  sp.align = defaultAlign;
  sp.type = defaultType;
  size_t pos = 0;
  bool fillSpecified = false, alignSpecified = false;
  if (cps.size() >= 2 && isAlign(cps[1])) {
    sp.fill.clear();
    appendUtf8(sp.fill, cps[0]);
    sp.align = static_cast<char>(cps[1]);
    fillSpecified = alignSpecified = true;
    pos = 2;
  } else if (!cps.empty() && isAlign(cps[0])) {
    sp.align = static_cast<char>(cps[0]);
    alignSpecified = true;
    pos = 1;
  }
  if (pos < cps.size() && (cps[pos] == '+' || cps[pos] == '-' || cps[pos] == ' '))
    sp.sign = static_cast<char>(cps[pos++]);
  if (pos < cps.size() && cps[pos] == 'z') {
    sp.noNegZero = true;
    ++pos;
  }
  if (pos < cps.size() && cps[pos] == '#') {
    sp.alternate = true;
    ++pos;
  }
  if (!fillSpecified && pos < cps.size() && cps[pos] == '0') {
    sp.fill = "0";
    if (!alignSpecified && defaultAlign == '>') sp.align = '=';
    ++pos;
  }
  auto width = readInteger(cps, pos, err);
  if (!width) return std::nullopt;
  sp.width = *width;
  if (pos < cps.size() && cps[pos] == ',') {
    sp.grouping = ',';
    ++pos;
  }
  if (pos < cps.size() && cps[pos] == '_') {
    if (sp.grouping) {
      fail(err, FormatError::Kind::ValueError, "cannot specify both ',' and '_'");
      return std::nullopt;
    }
    sp.grouping = '_';
    ++pos;
  }
  if (pos < cps.size() && cps[pos] == ',' && sp.grouping == '_') {
    fail(err, FormatError::Kind::ValueError, "cannot specify both ',' and '_'");
    return std::nullopt;
  }
  if (pos < cps.size() && cps[pos] == '.') {
    ++pos;
    auto precision = readInteger(cps, pos, err);
    if (!precision) return std::nullopt;
    if (*precision < 0) {
      fail(err, FormatError::Kind::ValueError, "format specifier missing precision");
      return std::nullopt;
    }
    sp.precision = *precision;
  }
  if (cps.size() - pos > 1) {
    fail(err, FormatError::Kind::ValueError,
         "invalid format specifier '" + std::string(text) + "' for object of type '" + typeName +
             "'");
    return std::nullopt;
  }
  if (cps.size() - pos == 1) sp.type = cps[pos];
  if (sp.grouping) {
    switch (sp.type) {
      case 'd':
      case 'e':
      case 'f':
      case 'g':
      case 'E':
      case 'G':
      case '%':
      case 'F':
      case 0:
        break;
      case 'b':
      case 'o':
      case 'x':
      case 'X':
        if (sp.grouping == '_') {
          sp.groupSize = 4;  // every four digits in binary, octal and hex
          break;
        }
        [[fallthrough]];
      default:
        fail(err, FormatError::Kind::ValueError,
             std::string("cannot specify '") + sp.grouping + "' with '" + typeChar(sp.type) + "'");
        return std::nullopt;
    }
  }
  return sp;
}

// ---- numbers

/// CPython's _PyUnicode_InsertThousandsGrouping: `digits` in groups of `size` (0: no grouping)
/// separated by `sep`, padded on the left with '0' digits (and separators) to `minWidth`.
std::string groupDigits(std::string_view digits, int64_t minWidth, int size, char sep) {
  minWidth = std::max<int64_t>(0, minWidth);
  int64_t remaining = static_cast<int64_t>(digits.size());
  std::vector<std::string> pieces;  // right to left
  auto take = [&](int64_t len) {
    const int64_t zeros = std::max<int64_t>(0, len - remaining);
    const int64_t chars = std::max<int64_t>(0, std::min(remaining, len));
    std::string piece(static_cast<size_t>(zeros), '0');
    piece += digits.substr(static_cast<size_t>(remaining - chars), static_cast<size_t>(chars));
    pieces.push_back(std::move(piece));
    remaining -= chars;
  };
  if (size == 0) {
    take(std::max<int64_t>(std::max(remaining, minWidth), 1));
  } else {
    while (true) {
      const int64_t len =
          std::min<int64_t>(size, std::max<int64_t>(std::max(remaining, minWidth), 1));
      take(len);
      minWidth -= len;
      if (remaining <= 0 && minWidth <= 0) break;
      minWidth -= 1;  // the separator
    }
  }
  std::string out;
  for (size_t i = pieces.size(); i-- > 0;) {
    out += pieces[i];
    if (i > 0) out += sep;
  }
  return out;
}

/// CPython's calc_number_widths + fill_number. `signChar` is '-' for a negative value, else 0;
/// `digits` the integer digits (empty for 'c', inf and nan), `remainder` what follows the
/// decimal point (or the digits when there is none: an exponent, "inf", a '%').
std::string layoutNumber(const Spec& sp, char signChar, std::string_view prefix,
                         std::string_view digits, bool hasDecimal, std::string_view remainder,
                         bool upper) {
  char sign = 0;
  if (sp.sign == '+')
    sign = signChar == '-' ? '-' : '+';
  else if (sp.sign == ' ')
    sign = signChar == '-' ? '-' : ' ';
  else if (signChar == '-')
    sign = '-';
  const int64_t nonDigits = (sign ? 1 : 0) + static_cast<int64_t>(prefix.size()) +
                            (hasDecimal ? 1 : 0) + pyCodePoints(remainder);
  const int64_t minWidth = sp.fill == "0" && sp.align == '=' ? sp.width - nonDigits : 0;
  const int size = sp.grouping ? sp.groupSize : 0;
  std::string grouped =
      digits.empty() ? std::string() : groupDigits(digits, minWidth, size, sp.grouping);
  const int64_t padding = sp.width - (nonDigits + static_cast<int64_t>(grouped.size()));
  int64_t left = 0, inner = 0, right = 0;
  if (padding > 0) {
    switch (sp.align) {
      case '<':
        right = padding;
        break;
      case '^':
        left = padding / 2;
        right = padding - left;
        break;
      case '=':
        inner = padding;
        break;
      default:
        left = padding;
    }
  }
  std::string out = repeat(sp.fill, left);
  if (sign) out += sign;
  std::string pre(prefix), body = std::move(grouped);
  if (upper) {
    for (char& c : pre) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    for (char& c : body) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  out += pre;
  out += repeat(sp.fill, inner);
  out += body;
  if (hasDecimal) out += '.';
  out += remainder;
  out += repeat(sp.fill, right);
  return out;
}

std::string toBase(uint64_t v, int base) {
  if (v == 0) return "0";
  std::string s;
  while (v) {
    s += "0123456789abcdef"[v % static_cast<uint64_t>(base)];
    v /= static_cast<uint64_t>(base);
  }
  return std::string(s.rbegin(), s.rend());
}

/// _Py_dg_dtoa's digits (no trailing zeros) and decimal point position of x >= 0: mode 0 the
/// shortest round-trip digits, mode 2 `ndigits` significant digits, mode 3 `ndigits` after the
/// point (no digits at all when x rounds to zero there). Correctly rounded, ties to even.
std::pair<std::string, int64_t> dtoa(double x, int mode, int64_t ndigits) {
  if (x == 0) return {"0", 1};
  std::string buf(static_cast<size_t>(ndigits) + 400, '\0');
  char* first = buf.data();
  char* last = buf.data() + buf.size();
  std::to_chars_result r;
  if (mode == 0)
    r = std::to_chars(first, last, x, std::chars_format::scientific);
  else if (mode == 2)
    r = std::to_chars(first, last, x, std::chars_format::scientific, static_cast<int>(ndigits - 1));
  else
    r = std::to_chars(first, last, x, std::chars_format::fixed, static_cast<int>(ndigits));
  const std::string_view text(first, static_cast<size_t>(r.ptr - first));
  std::string digits;
  int64_t decpt = 0;
  if (mode == 3) {
    const size_t dot = text.find('.');
    const std::string_view intPart = text.substr(0, dot);
    std::string all(intPart);
    if (dot != std::string_view::npos) all += text.substr(dot + 1);
    size_t lz = 0;
    while (lz < all.size() && all[lz] == '0') ++lz;
    if (lz == all.size()) return {"", -ndigits};
    digits = all.substr(lz);
    decpt = static_cast<int64_t>(intPart.size()) - static_cast<int64_t>(lz);
  } else {
    const size_t e = text.find('e');
    for (char c : text.substr(0, e))
      if (c != '.') digits += c;
    int exp = 0;
    std::from_chars(text.data() + e + 1 + (text[e + 1] == '+' ? 1 : 0), text.data() + text.size(),
                    exp);
    decpt = exp + 1;
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  return {digits, decpt};
}

/// CPython's PyOS_double_to_string / format_float_short for code 'e', 'f', 'g' or 'r' (upper
/// case: 'E', 'F', 'G').
std::string floatText(double d, char code, int64_t precision, bool addDot0, bool alt,
                      bool noNegZero) {
  const bool upper = code == 'E' || code == 'F' || code == 'G';
  code = static_cast<char>(std::tolower(static_cast<unsigned char>(code)));
  bool sign = std::signbit(d);
  if (std::isnan(d)) return upper ? "NAN" : "nan";  // the sign of a NaN is never shown
  if (std::isinf(d)) return std::string(sign ? "-" : "") + (upper ? "INF" : "inf");
  int mode = 0;
  if (code == 'e') {
    mode = 2;
    ++precision;
  } else if (code == 'f') {
    mode = 3;
  } else if (code == 'g') {
    mode = 2;
    if (precision == 0) precision = 1;
  }
  auto [digits, decpt] = dtoa(std::fabs(d), mode, precision);
  if (noNegZero && sign && (digits.empty() || digits == "0")) sign = false;
  const int64_t len = static_cast<int64_t>(digits.size());
  int64_t vEnd = len;
  bool useExp = false;
  if (code == 'e') {
    useExp = true;
    vEnd = precision;
  } else if (code == 'f') {
    vEnd = decpt + precision;
  } else if (code == 'g') {
    useExp = decpt <= -4 || decpt > (addDot0 ? precision - 1 : precision);
    if (alt) vEnd = precision;
  } else {
    useExp = decpt <= -4 || decpt > 16;
  }
  int64_t exp = 0;
  if (useExp) {
    exp = decpt - 1;
    decpt = 1;
  }
  const int64_t vStart = decpt <= 0 ? decpt - 1 : 0;
  vEnd = std::max(vEnd, !useExp && addDot0 ? decpt + 1 : decpt);
  std::string out;
  if (sign) out += '-';
  if (decpt <= 0) {
    out.append(static_cast<size_t>(decpt - vStart), '0');
    out += '.';
    out.append(static_cast<size_t>(-decpt), '0');
  }
  if (0 < decpt && decpt <= len) {
    out += digits.substr(0, static_cast<size_t>(decpt));
    out += '.';
    out += digits.substr(static_cast<size_t>(decpt));
  } else {
    out += digits;
  }
  if (len < decpt) {
    out.append(static_cast<size_t>(decpt - len), '0');
    out += '.';
    out.append(static_cast<size_t>(vEnd - decpt), '0');
  } else {
    out.append(static_cast<size_t>(vEnd - len), '0');
  }
  if (out.back() == '.' && !alt) out.pop_back();
  if (useExp) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%c%+.02d", upper ? 'E' : 'e', static_cast<int>(exp));
    out += buf;
  }
  return out;
}

/// format_float_internal: a float (or an int converted to one) under a numeric spec.
std::string formatFloat(double v, const Spec& sp) {
  char type = static_cast<char>(sp.type);
  bool addDot0 = false;
  int64_t defaultPrecision = 6;
  if (type == 0) {
    addDot0 = true;
    type = 'r';
    defaultPrecision = 0;
  }
  if (type == 'n') type = 'g';
  bool percent = false;
  if (type == '%') {
    type = 'f';
    v *= 100;
    percent = true;
  }
  int64_t precision = sp.precision;
  if (precision < 0)
    precision = defaultPrecision;
  else if (type == 'r')
    type = 'g';
  std::string text = floatText(v, type, precision, addDot0, sp.alternate, sp.noNegZero);
  if (percent) text += '%';
  char signChar = 0;
  std::string_view rest = text;
  if (!rest.empty() && rest[0] == '-') {
    signChar = '-';
    rest.remove_prefix(1);
  }
  size_t n = 0;
  while (n < rest.size() && rest[n] >= '0' && rest[n] <= '9') ++n;
  const bool hasDecimal = n < rest.size() && rest[n] == '.';
  return layoutNumber(sp, signChar, "", rest.substr(0, n), hasDecimal,
                      rest.substr(n + (hasDecimal ? 1 : 0)), false);
}

/// format_long_internal: an int (or bool) under an integer spec.
std::optional<std::string> formatInt(bool negative, uint64_t magnitude, const Spec& sp,
                                     FormatError* err) {
  if (sp.precision != -1) {
    fail(err, FormatError::Kind::ValueError, "precision not allowed in integer format specifier");
    return std::nullopt;
  }
  if (sp.noNegZero) {
    fail(err, FormatError::Kind::ValueError,
         "negative zero coercion (z) not allowed in integer format specifier");
    return std::nullopt;
  }
  if (sp.type == 'c') {
    if (sp.sign) {
      fail(err, FormatError::Kind::ValueError,
           "sign not allowed with integer format specifier 'c'");
      return std::nullopt;
    }
    if (sp.alternate) {
      fail(err, FormatError::Kind::ValueError,
           "alternate form (#) not allowed with integer format specifier 'c'");
      return std::nullopt;
    }
    if (negative || magnitude > 0x10FFFF) {
      fail(err, FormatError::Kind::OverflowError, "%c arg not in range(0x110000)");
      return std::nullopt;
    }
    std::string ch;
    appendUtf8(ch, static_cast<uint32_t>(magnitude));
    return layoutNumber(sp, 0, "", "", false, ch, false);
  }
  int base = 10;
  const char* prefix = "";
  if (sp.type == 'b') {
    base = 2;
    prefix = "0b";
  } else if (sp.type == 'o') {
    base = 8;
    prefix = "0o";
  } else if (sp.type == 'x' || sp.type == 'X') {
    base = 16;
    prefix = "0x";
  }
  Spec s = sp;
  if (sp.type == 'n') s.grouping = 0;  // the C locale groups nothing
  return layoutNumber(s, negative && magnitude ? '-' : 0, sp.alternate ? prefix : "",
                      toBase(magnitude, base), false, "", sp.type == 'X');
}

/// format_string_internal.
std::optional<std::string> formatStr(std::string_view text, const Spec& sp,
                                     const std::string& typeName, FormatError* err) {
  if (sp.type != 's') {
    unknownCode(sp.type, typeName, err);
    return std::nullopt;
  }
  const char* problem = nullptr;
  if (sp.sign == ' ')
    problem = "space not allowed in string format specifier";
  else if (sp.sign)
    problem = "sign not allowed in string format specifier";
  else if (sp.noNegZero)
    problem = "negative zero coercion (z) not allowed in string format specifier";
  else if (sp.alternate)
    problem = "alternate form (#) not allowed in string format specifier";
  else if (sp.align == '=')
    problem = "'=' alignment not allowed in string format specifier";
  if (problem) {
    fail(err, FormatError::Kind::ValueError, problem);
    return std::nullopt;
  }
  int64_t len = pyCodePoints(text);
  std::string_view shown = text;
  if (sp.precision >= 0 && len > sp.precision) {
    size_t i = 0;
    for (int64_t k = 0; k < sp.precision; ++k) {
      size_t n = 1;
      codePointAt(text, i, &n);
      i += n;
    }
    shown = text.substr(0, i);
    len = sp.precision;
  }
  const int64_t padding = std::max<int64_t>(0, sp.width - len);
  int64_t left = 0;
  if (sp.align == '>')
    left = padding;
  else if (sp.align == '^')
    left = padding / 2;
  return repeat(sp.fill, left) + std::string(shown) + repeat(sp.fill, padding - left);
}

}  // namespace

int64_t pyCodePoints(std::string_view s) {
  int64_t n = 0;
  for (size_t i = 0; i < s.size();) {
    size_t len = 1;
    codePointAt(s, i, &len);
    i += len;
    ++n;
  }
  return n;
}

std::optional<std::string> pyFormat(const FormatArg& v, std::string_view spec, FormatError* err) {
  using K = FormatArg::Kind;
  switch (v.kind) {
    case K::Str: {
      if (spec.empty()) return v.s;
      auto sp = parseSpec(spec, 's', '<', v.typeName, err);
      if (!sp) return std::nullopt;
      return formatStr(v.s, *sp, v.typeName, err);
    }
    case K::Int:
    case K::Bool: {
      if (spec.empty()) {
        if (v.kind == K::Bool) return std::string(v.magnitude ? "True" : "False");
        return std::string(v.negative && v.magnitude ? "-" : "") + toBase(v.magnitude, 10);
      }
      auto sp = parseSpec(spec, 'd', '>', v.typeName, err);
      if (!sp) return std::nullopt;
      switch (sp->type) {
        case 'b':
        case 'c':
        case 'd':
        case 'o':
        case 'x':
        case 'X':
        case 'n':
          return formatInt(v.negative, v.magnitude, *sp, err);
        case 'e':
        case 'E':
        case 'f':
        case 'F':
        case 'g':
        case 'G':
        case '%': {
          const double d = static_cast<double>(v.magnitude);
          return formatFloat(v.negative ? -d : d, *sp);
        }
        default:
          unknownCode(sp->type, v.typeName, err);
          return std::nullopt;
      }
    }
    case K::Float: {
      if (spec.empty()) return floatText(v.f, 'r', 0, true, false, false);
      auto sp = parseSpec(spec, 0, '>', v.typeName, err);
      if (!sp) return std::nullopt;
      switch (sp->type) {
        case 0:
        case 'e':
        case 'E':
        case 'f':
        case 'F':
        case 'g':
        case 'G':
        case 'n':
        case '%':
          return formatFloat(v.f, *sp);
        default:
          unknownCode(sp->type, v.typeName, err);
          return std::nullopt;
      }
    }
    case K::None:
    case K::Other:
      // object.__format__: str() for an empty spec, a TypeError for any other.
      if (spec.empty()) return v.s;
      fail(err, FormatError::Kind::TypeError,
           "unsupported format string passed to " + v.typeName + ".__format__");
      return std::nullopt;
  }
  return std::nullopt;
}

std::string pyStrRepr(std::string_view s) {
  const bool single =
      s.find('\'') != std::string_view::npos && s.find('"') == std::string_view::npos;
  const char quote = single ? '"' : '\'';
  std::string out(1, quote);
  for (size_t i = 0; i < s.size();) {
    size_t len = 1;
    const uint32_t cp = codePointAt(s, i, &len);
    const bool invalid = len == 1 && cp >= 0x80;
    i += len;
    char buf[16];
    if (cp == static_cast<uint32_t>(quote) || cp == '\\') {
      out += '\\';
      out += static_cast<char>(cp);
    } else if (cp == '\t') {
      out += "\\t";
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (invalid || cp < 0x20 || (cp >= 0x7F && cp <= 0xA0) || cp == 0xAD) {
      std::snprintf(buf, sizeof buf, "\\x%02x", cp);
      out += buf;
    } else {
      appendUtf8(out, cp);
    }
  }
  out += quote;
  return out;
}

std::string pyAsciiEscape(std::string_view repr) {
  std::string out;
  for (size_t i = 0; i < repr.size();) {
    size_t len = 1;
    const uint32_t cp = codePointAt(repr, i, &len);
    i += len;
    char buf[16];
    if (cp < 0x80)
      out += static_cast<char>(cp);
    else {
      std::snprintf(buf, sizeof buf,
                    cp < 0x100     ? "\\x%02x"
                    : cp < 0x10000 ? "\\u%04x"
                                   : "\\U%08x",
                    cp);
      out += buf;
    }
  }
  return out;
}

}  // namespace tirx::verify
