// torch's repr of a tensor with the default print options, following torch/_tensor_str.py: one
// _Formatter is chosen from the elements shown — integers and bools as Python prints them,
// floats (float16/bfloat16 widened to float32) as `{:.4f}`, as integers with a point (`1.`) when
// every finite non-zero value is whole, or as `{:.4e}` when the largest magnitude is > 1e8 or
// passes 1000 times the smallest (or, not all whole, the smallest is < 1e-4) — all padded to the
// widest. Rows hold as many elements as fit in 80 columns less the indent, higher dimensions
// join with "," and one newline per remaining dimension, a long axis shows its 3 first and 3
// last items around `...`, and a dtype other than float32, int64 and bool is added as a suffix.
// The device is not printed (decision PRINT-1).
#include <algorithm>
#include <cmath>

#include "core/verify/array_print_detail.h"
#include "core/verify/py_format.h"

namespace tirx::verify::print_detail {

namespace {

constexpr size_t kLineWidth = 80;

std::string formatReal(double v, const char* spec) {
  FormatError err;
  return pyFormat(FormatArg::real(v), spec, &err).value_or("?");
}

/// torch's _Formatter.
class TorchFormat {
 public:
  TorchFormat(const Array& a, const std::vector<int64_t>& shown) : m_a(a) {
    m_float = ir::isFloat(a.dtype);
    if (!m_float) {
      for (int64_t i : shown) m_width = std::max(m_width, intText(a, i).size());
      return;
    }
    std::vector<double> vals;
    for (int64_t i : shown) {
      const double v = a.get(i);
      if (std::isfinite(v) && v != 0) vals.push_back(v);
    }
    if (vals.empty()) return;
    double lo = INFINITY, hi = 0;
    for (double v : vals) {
      lo = std::min(lo, std::fabs(v)), hi = std::max(hi, std::fabs(v));
      m_intMode = m_intMode && v == std::ceil(v);
    }
    m_sci = hi / lo > 1000.0 || hi > 1.0e8 || (!m_intMode && lo < 1.0e-4);
    for (double v : vals) {
      const size_t w = m_sci       ? formatReal(v, ".4e").size()
                       : m_intMode ? formatReal(v, ".0f").size() + 1
                                   : formatReal(v, ".4f").size();
      m_width = std::max(m_width, w);
    }
  }

  size_t width() const { return m_width; }

  std::string operator()(int64_t i) const {
    std::string t;
    if (!m_float) {
      t = intText(m_a, i);
    } else {
      const double v = m_a.get(i);
      if (m_sci) {
        t = formatReal(v, ".4e");
      } else if (m_intMode) {
        t = formatReal(v, ".0f") + (std::isfinite(v) ? "." : "");
      } else {
        t = formatReal(v, ".4f");
      }
    }
    return std::string(m_width > t.size() ? m_width - t.size() : 0, ' ') + t;
  }

 private:
  const Array& m_a;
  bool m_float = false, m_intMode = true, m_sci = false;
  size_t m_width = 1;
};

class TorchLayout {
 public:
  TorchLayout(const Array& a, const TorchFormat& fmt, bool summarize)
      : m_a(a), m_fmt(fmt), m_summarize(summarize) {
    m_strides.assign(a.shape.size(), 1);
    for (int d = a.ndim() - 2; d >= 0; --d)
      m_strides[size_t(d)] = m_strides[size_t(d) + 1] * a.shape[size_t(d) + 1];
  }

  /// _tensor_str_with_formatter for the sub-tensor at `offset` from dimension `axis` on.
  std::string recurse(size_t axis, int64_t offset, size_t indent) const {
    const size_t dims = m_a.shape.size() - axis;
    if (dims == 0) return m_fmt(offset);
    const int64_t n = m_a.shape[axis], stride = m_strides[axis];
    const bool summary = m_summarize && n > 2 * kEdgeItems;
    std::vector<std::string> parts;
    for (int64_t i = 0; i < n; ++i) {
      if (summary && i == kEdgeItems) {
        parts.push_back(dims == 1 ? " ..." : "...");
        i = n - kEdgeItems;
      }
      parts.push_back(dims == 1 ? m_fmt(offset + i * stride)
                                : recurse(axis + 1, offset + i * stride, indent + 1));
    }
    if (dims > 1)
      return "[" + join(parts, "," + std::string(dims - 1, '\n') + pad(indent + 1)) + "]";
    // _vector_str: as many elements per line as fit.
    const size_t perLine =
        std::max<size_t>(1, kLineWidth > indent ? (kLineWidth - indent) / (m_fmt.width() + 2) : 0);
    std::vector<std::string> lines;
    for (size_t i = 0; i < parts.size(); i += perLine)
      lines.push_back(
          join({parts.begin() + long(i), parts.begin() + long(std::min(parts.size(), i + perLine))},
               ", "));
    return "[" + join(lines, ",\n" + pad(indent + 1)) + "]";
  }

 private:
  static std::string pad(size_t n) { return std::string(n, ' '); }
  static std::string join(const std::vector<std::string>& v, const std::string& sep) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
    return s;
  }

  const Array& m_a;
  const TorchFormat& m_fmt;
  bool m_summarize;
  std::vector<int64_t> m_strides;
};

std::string torchDtypeName(DType t) {
  return "torch." + std::string(ir::dtypeName(t));
}

}  // namespace

std::string torchTensorText(const Array& a) {
  constexpr size_t kIndent = 7;  // "tensor("
  std::vector<std::string> suffixes;
  std::string body;
  if (a.size() == 0) {
    if (a.ndim() != 1) {
      std::string s = "size=(";
      for (size_t i = 0; i < a.shape.size(); ++i) s += (i ? ", " : "") + std::to_string(a.shape[i]);
      suffixes.push_back(s + (a.shape.size() == 1 ? ",)" : ")"));
    }
    if (a.dtype != DType::Float32) suffixes.push_back("dtype=" + torchDtypeName(a.dtype));
    body = "[]";
  } else {
    if (a.dtype != DType::Float32 && a.dtype != DType::Int64 && a.dtype != DType::Bool)
      suffixes.push_back("dtype=" + torchDtypeName(a.dtype));
    const bool summarize = summarizes(a);
    const TorchFormat fmt(a, printedIndices(a, summarize));
    body = TorchLayout(a, fmt, summarize).recurse(0, 0, kIndent);
  }
  std::string text = "tensor(" + body;
  // _add_suffixes measures the last line as len - rfind("\n") + 1 (2 more than its length when
  // there is no newline); kept as torch computes it.
  const size_t nl = text.rfind('\n');
  size_t lastLine = text.size() + 1 - (nl == std::string::npos ? size_t(-1) : nl);
  for (const std::string& s : suffixes) {
    if (lastLine + s.size() + 2 > kLineWidth) {
      text += ",\n" + std::string(kIndent, ' ') + s;
      lastLine = kIndent + s.size();
    } else {
      text += ", " + s;
      lastLine += s.size() + 2;
    }
  }
  return text + ")";
}

}  // namespace tirx::verify::print_detail
