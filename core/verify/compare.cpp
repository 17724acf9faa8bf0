// assert_allclose / assert_close / allclose: one element-wise kernel with the two libraries'
// different defaults and NaN/dtype/shape rules.
#include "core/verify/compare.h"

#include <algorithm>
#include <cmath>

namespace tirx::verify {

std::pair<double, double> torchDefaultTolerance(DType t) {
  switch (t) {
    case DType::Float16:
      return {1e-3, 1e-5};
    case DType::BFloat16:
      return {1.6e-2, 1e-5};
    case DType::Float32:
      return {1.3e-6, 1e-5};
    case DType::Float64:
      return {1e-7, 1e-7};
    default:
      return {0, 0};
  }
}

bool withinTolerance(double x, double y, double rtol, double atol, bool equalNan) {
  if (std::isnan(x) || std::isnan(y)) return equalNan && std::isnan(x) && std::isnan(y);
  if (std::isinf(x) || std::isinf(y)) return x == y;
  return std::fabs(x - y) <= atol + rtol * std::fabs(y);
}

namespace {

std::vector<int64_t> unflat(int64_t f, const std::vector<int64_t>& shape) {
  std::vector<int64_t> c(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    c[d] = shape[d] ? f % shape[d] : 0;
    f = shape[d] ? f / shape[d] : 0;
  }
  return c;
}

/// Element-wise closeness over equal shapes (or a 0-d `expected` broadcast).
Comparison compareValues(const Array& a, const Array& b, double rtol, double atol, bool equalNan) {
  Comparison c;
  c.rtol = rtol;
  c.atol = atol;
  c.equalNan = equalNan;
  const int64_t n = a.size();
  c.total = n;
  struct Bad {
    int64_t flat;
    double excess;
  };
  std::vector<Bad> bad, all;
  for (int64_t i = 0; i < n; ++i) {
    const double x = a.get(i), y = b.size() == 1 ? b.get(0) : b.get(i);
    const bool ok = withinTolerance(x, y, rtol, atol, equalNan);
    double diff = std::fabs(x - y);
    if (std::isnan(x) || std::isnan(y) || std::isinf(x) || std::isinf(y)) diff = ok ? 0 : INFINITY;
    const double rel = y != 0 ? diff / std::fabs(y) : (diff == 0 ? 0 : INFINITY);
    if (!(std::isnan(x) && std::isnan(y))) {
      c.maxAbs = std::max(c.maxAbs, diff);
      c.maxRel = std::max(c.maxRel, rel);
    }
    const double excess = diff - (atol + rtol * std::fabs(y));
    if (!ok)
      bad.push_back({i, std::isnan(excess) ? INFINITY : excess});
    else if (diff > 0)
      all.push_back({i, diff});
  }
  c.mismatches = static_cast<int64_t>(bad.size());
  c.pass = bad.empty();
  auto& src = bad.empty() ? all : bad;
  const size_t keep = std::min<size_t>(src.size(), bad.empty() ? 3 : 8);
  std::partial_sort(src.begin(), src.begin() + keep, src.end(),
                    [](const Bad& p, const Bad& q) { return p.excess > q.excess; });
  for (size_t k = 0; k < keep; ++k) {
    ElementError e;
    e.flat = src[k].flat;
    e.coord = unflat(e.flat, a.shape);
    e.actual = a.get(e.flat);
    e.expected = b.size() == 1 ? b.get(0) : b.get(e.flat);
    e.absErr = std::fabs(e.actual - e.expected);
    e.relErr = e.expected != 0 ? e.absErr / std::fabs(e.expected) : (e.absErr == 0 ? 0 : INFINITY);
    c.worst.push_back(e);
  }
  if (!c.pass)
    c.message = "mismatched elements: " + std::to_string(c.mismatches) + " / " + std::to_string(n);
  return c;
}

}  // namespace

Comparison assertAllclose(const Array& actual, const Array& desired, double rtol, double atol,
                          bool equalNan) {
  if (actual.shape != desired.shape && desired.size() != 1 && actual.size() != 1) {
    Comparison c;
    c.rtol = rtol;
    c.atol = atol;
    c.message =
        "shapes " + shapeText(actual.shape) + " and " + shapeText(desired.shape) + " mismatch";
    return c;
  }
  if (actual.shape != desired.shape && actual.size() == 1 && desired.size() != 1) {
    Array a = makeArray(actual.dtype, desired.shape);
    for (int64_t i = 0; i < a.size(); ++i) a.set(i, actual.get(0));
    return compareValues(a, desired, rtol, atol, equalNan);
  }
  return compareValues(actual, desired, rtol, atol, equalNan);
}

Comparison assertClose(const Array& actual, const Array& expected, std::optional<double> rtol,
                       std::optional<double> atol, bool equalNan, bool checkDtype) {
  Comparison c;
  if (rtol.has_value() != atol.has_value()) {
    c.message = "both 'rtol' and 'atol' must be either specified or omitted";
    return c;
  }
  const auto [dr, da] = torchDefaultTolerance(actual.dtype);
  const auto [er, ea] = torchDefaultTolerance(expected.dtype);
  const double r = rtol.value_or(std::max(dr, er)), t = atol.value_or(std::max(da, ea));
  if (actual.shape != expected.shape) {
    c.rtol = r;
    c.atol = t;
    c.message = "the values for attribute 'shape' do not match: " + shapeText(actual.shape) +
                " != " + shapeText(expected.shape);
    return c;
  }
  if (checkDtype && actual.dtype != expected.dtype) {
    c.rtol = r;
    c.atol = t;
    c.message = std::string("the values for attribute 'dtype' do not match: torch.") +
                std::string(ir::dtypeName(actual.dtype)) + " != torch." +
                std::string(ir::dtypeName(expected.dtype));
    return c;
  }
  return compareValues(actual, expected, r, t, equalNan);
}

bool allclose(const Array& a, const Array& b, double rtol, double atol, bool equalNan) {
  auto s = broadcastShapes(a.shape, b.shape);
  if (!s) return false;
  std::string err;
  auto za = binary(BinaryOp::Add, a, makeArray(DType::Float64, *s), DType::Float64, &err);
  auto zb = binary(BinaryOp::Add, b, makeArray(DType::Float64, *s), DType::Float64, &err);
  if (!za || !zb) return false;
  return compareValues(*za, *zb, rtol, atol, equalNan).pass;
}

}  // namespace tirx::verify
