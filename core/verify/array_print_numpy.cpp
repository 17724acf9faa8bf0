// numpy 1.24's str() and repr() of an ndarray with the default print options, following
// numpy/core/arrayprint.py: one element formatter is chosen from the elements shown (all of them,
// or the edge items of a summarized array) — FloatingFormat ('maxprec', precision 8: the unique
// shortest digits cut to 8 places, integer parts and fractions padded to common widths;
// scientific with common mantissa digits and exponent width when the largest non-zero magnitude
// is >= 1e8, the smallest < 1e-4, or their ratio > 1e3), IntegerFormat (right-aligned to the
// widest of min and max) or BoolFormat (" True"/"False") — then _formatArray nests the rows:
// elements wrap at 75 columns less the closing bracket, axes past the last are separated by one
// newline per remaining dimension, and `...` stands for the middle of a long axis.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

#include "core/verify/array_print.h"
#include "core/verify/array_print_detail.h"

namespace tirx::verify::print_detail {

namespace {

constexpr int kPrecision = 8;
constexpr size_t kLineWidth = 75;

/// One finite value's text in the first pass: sign and integer part, fraction, exponent.
struct Parts {
  std::string intPart, frac;
  int exp = 0;
};

/// dragon4_positional(unique=True, precision=8, trim='.'): the shortest digits, or the value
/// rounded to 8 places when they need more.
Parts positionalParts(double v, DType t) {
  std::string s;
  if (v == 0) {
    s = "0.";
  } else {
    const Digits d = shortestDigits(v, t);
    if (static_cast<int>(d.digits.size()) - (d.exp + 1) <= kPrecision) {
      s = positional(d);
    } else {
      char buf[400];
      auto r =
          std::to_chars(buf, buf + sizeof buf, std::fabs(v), std::chars_format::fixed, kPrecision);
      s.assign(buf, r.ptr);
      while (s.back() == '0') s.pop_back();
    }
  }
  const size_t dot = s.find('.');
  return {(std::signbit(v) ? "-" : "") + s.substr(0, dot), s.substr(dot + 1), 0};
}

/// dragon4_scientific(unique=True, precision=8, trim='.'): mantissa digits and exponent.
Parts scientificParts(double v, DType t) {
  Digits d = shortestDigits(v, t);
  if (static_cast<int>(d.digits.size()) > kPrecision + 1) d = roundedDigits(v, kPrecision + 1);
  return {(std::signbit(v) ? "-" : "") + d.digits.substr(0, 1), d.digits.substr(1), d.exp};
}

/// numpy's FloatingFormat for the default options.
class FloatFormat {
 public:
  FloatFormat(const Array& a, const std::vector<int64_t>& shown) : m_dtype(a.dtype) {
    std::vector<double> finite;
    bool negInf = false, nonFinite = false;
    for (int64_t i : shown) {
      const double v = a.get(i);
      if (std::isfinite(v)) {
        finite.push_back(v);
      } else {
        nonFinite = true;
        negInf = negInf || (std::isinf(v) && v < 0);
      }
    }
    double maxAbs = 0, minAbs = INFINITY;
    for (double v : finite)
      if (v != 0) maxAbs = std::max(maxAbs, std::fabs(v)), minAbs = std::min(minAbs, std::fabs(v));
    if (maxAbs > 0) {
      // numpy divides in the array's dtype (a float32 ratio may round onto 1000).
      Array q = makeArray(m_dtype, {});
      q.set(0, maxAbs / minAbs);
      m_exp = maxAbs >= 1e8 || minAbs < 1e-4 || q.get(0) > 1000.0;
    }
    size_t padRight = 0;
    for (double v : finite) {
      const Parts p = m_exp ? scientificParts(v, m_dtype) : positionalParts(v, m_dtype);
      m_padLeft = std::max(m_padLeft, p.intPart.size());
      padRight = std::max(padRight, p.frac.size());
      if (m_exp) {
        const int e = std::abs(p.exp);
        m_expDigits = std::max(m_expDigits, e >= 100 ? size_t(3) : size_t(2));
      }
    }
    m_fracDigits = padRight;
    m_padRight = m_exp ? m_expDigits + 2 + padRight : padRight;
    if (finite.empty()) m_padLeft = m_padRight = 0;
    if (nonFinite) {
      const size_t offset = m_padRight + 1;
      const size_t infLen = 3 + (negInf ? 1 : 0);
      if (3 > offset) m_padLeft = std::max(m_padLeft, 3 - offset);
      if (infLen > offset) m_padLeft = std::max(m_padLeft, infLen - offset);
    }
  }

  std::string operator()(double v) const {
    if (!std::isfinite(v)) {
      const std::string t = std::isnan(v) ? "nan" : (v < 0 ? "-inf" : "inf");
      const size_t w = m_padLeft + m_padRight + 1;
      return std::string(w > t.size() ? w - t.size() : 0, ' ') + t;
    }
    if (m_exp) {
      // numpy asks for at least the common mantissa digits: a shorter value shows its exact
      // digits rounded there (0.6666667f as 6.6666669e-01 beside 3.3333334e-01), not zeros.
      Parts p = scientificParts(v, m_dtype);
      if (p.frac.size() < m_fracDigits) {
        const Digits d = roundedDigits(v, static_cast<int>(m_fracDigits) + 1);
        p.frac = d.digits.substr(1);
        p.exp = d.exp;
      }
      const int e = std::abs(p.exp);
      std::string es = std::to_string(e);
      es = std::string(m_expDigits > es.size() ? m_expDigits - es.size() : 0, '0') + es;
      return std::string(m_padLeft - p.intPart.size(), ' ') + p.intPart + "." + p.frac +
             std::string(m_fracDigits - p.frac.size(), '0') + (p.exp < 0 ? "e-" : "e+") + es;
    }
    const Parts p = positionalParts(v, m_dtype);
    return std::string(m_padLeft - p.intPart.size(), ' ') + p.intPart + "." + p.frac +
           std::string(m_padRight - p.frac.size(), ' ');
  }

 private:
  DType m_dtype;
  bool m_exp = false;
  size_t m_padLeft = 0, m_padRight = 0, m_fracDigits = 0, m_expDigits = 2;
};

/// The formatted text of every shown element, by row-major index.
class Elements {
 public:
  Elements(const Array& a, const std::vector<int64_t>& shown) : m_a(a) {
    if (ir::isFloat(a.dtype)) {
      m_float.emplace(a, shown);
    } else if (a.dtype != DType::Bool) {
      for (int64_t i : shown) m_width = std::max(m_width, intText(a, i).size());
    }
  }
  std::string operator()(int64_t i) const {
    if (m_float) return (*m_float)(m_a.get(i));
    if (m_a.dtype == DType::Bool)
      return m_a.getInt(i) ? (m_a.ndim() == 0 ? "True" : " True") : "False";
    const std::string t = intText(m_a, i);
    return std::string(m_width - t.size(), ' ') + t;
  }

 private:
  const Array& m_a;
  std::optional<FloatFormat> m_float;
  size_t m_width = 0;
};

/// numpy's _extendLine: wrap before `word` when the line would pass `width`, unless the line
/// holds nothing but its indent.
void extendLine(std::string& s, std::string& line, const std::string& word, size_t width,
                const std::string& indent) {
  if (line.size() + word.size() > width && line.size() > indent.size()) {
    size_t end = line.find_last_not_of(' ');
    s += line.substr(0, end == std::string::npos ? 0 : end + 1) + "\n";
    line = indent;
  }
  line += word;
}

/// numpy's _formatArray.recurser for the sub-array at `offset` (row-major) along `axis`.
class Layout {
 public:
  Layout(const Array& a, const Elements& fmt, std::string sep, bool summarize)
      : m_a(a), m_fmt(fmt), m_sep(std::move(sep)), m_summarize(summarize) {
    m_strides.assign(a.shape.size(), 1);
    for (int d = a.ndim() - 2; d >= 0; --d)
      m_strides[size_t(d)] = m_strides[size_t(d) + 1] * a.shape[size_t(d) + 1];
  }

  std::string recurse(size_t axis, int64_t offset, const std::string& indent, size_t width) const {
    if (axis == m_a.shape.size()) return m_fmt(offset);
    const std::string nextIndent = indent + " ";
    const size_t nextWidth = width - 1;
    const int64_t n = m_a.shape[axis];
    const bool summary = m_summarize && 2 * kEdgeItems < n;
    const int64_t lead = summary ? kEdgeItems : 0, trail = summary ? kEdgeItems : n;
    const int64_t stride = m_strides[axis];
    std::string s;
    const std::string sepTrim = m_sep.substr(0, m_sep.find_last_not_of(' ') + 1);
    if (axis + 1 == m_a.shape.size()) {
      const size_t elemWidth = width - std::max(sepTrim.size(), size_t(1));
      std::string line = indent;
      for (int64_t i = 0; i < lead; ++i) {
        extendLine(s, line, recurse(axis + 1, offset + i * stride, nextIndent, nextWidth),
                   elemWidth, indent);
        line += m_sep;
      }
      if (summary) {
        extendLine(s, line, "...", elemWidth, indent);
        line += m_sep;
      }
      for (int64_t i = trail; i > 1; --i) {
        extendLine(s, line, recurse(axis + 1, offset + (n - i) * stride, nextIndent, nextWidth),
                   elemWidth, indent);
        line += m_sep;
      }
      extendLine(s, line, recurse(axis + 1, offset + (n - 1) * stride, nextIndent, nextWidth),
                 elemWidth, indent);
      s += line;
    } else {
      const std::string lineSep = sepTrim + std::string(m_a.shape.size() - axis - 1, '\n');
      for (int64_t i = 0; i < lead; ++i)
        s += indent + recurse(axis + 1, offset + i * stride, nextIndent, nextWidth) + lineSep;
      if (summary) s += indent + "..." + lineSep;
      for (int64_t i = trail; i > 1; --i)
        s += indent + recurse(axis + 1, offset + (n - i) * stride, nextIndent, nextWidth) + lineSep;
      s += indent + recurse(axis + 1, offset + (n - 1) * stride, nextIndent, nextWidth);
    }
    return "[" + s.substr(indent.size()) + "]";
  }

 private:
  const Array& m_a;
  const Elements& m_fmt;
  std::string m_sep;
  bool m_summarize;
  std::vector<int64_t> m_strides;
};

/// numpy's dtype_is_implied: repr omits the dtype of float64, int64 and bool arrays.
bool dtypeImplied(DType t) {
  return t == DType::Float64 || t == DType::Int64 || t == DType::Bool;
}

std::string shapeTuple(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

}  // namespace

std::string numpyArrayText(const Array& a, bool repr) {
  // numpy scalars print alike in str and repr, as does str() of a 0-d array.
  if (a.ndim() == 0 && !(repr && a.zeroDimArray))
    return ir::isFloat(a.dtype) ? numpyScalarText(a.get(0), a.dtype) : intText(a, 0);
  const bool summarize = summarizes(a);
  const std::vector<int64_t> shown = printedIndices(a, summarize);
  const Elements fmt(a, shown);
  if (!repr) {
    if (a.size() == 0) return "[]";
    return Layout(a, fmt, " ", summarize).recurse(0, 0, " ", kLineWidth);
  }
  const bool skipDtype = dtypeImplied(a.dtype) && a.size() > 0;
  const std::string suffix = skipDtype ? ")" : ",";
  std::string body;
  if (a.size() > 0)
    body = Layout(a, fmt, ", ", summarize).recurse(0, 0, "       ", kLineWidth - suffix.size());
  else
    body = a.ndim() == 1 ? "[]" : "[], shape=" + shapeTuple(a.shape);
  std::string text = "array(" + body + suffix;
  if (skipDtype) return text;
  const std::string dtype = "dtype=" + std::string(ir::dtypeName(a.dtype)) + ")";
  const size_t nl = text.rfind('\n');
  const size_t lastLine = text.size() - (nl == std::string::npos ? 0 : nl + 1);
  return text + (lastLine + dtype.size() + 1 > kLineWidth ? "\n      " : " ") + dtype;
}

}  // namespace tirx::verify::print_detail
