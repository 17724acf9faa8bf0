// Array operations other than broadcasting arithmetic: math functions, casts, shape changes
// (reshape with -1, transpose, roll), bit views, where, reductions and numpy-style indexing.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/verify/array.h"

namespace tirx::verify {

Array unary(UnaryOp op, const Array& a, std::string* err) {
  const bool fl = ir::isFloat(a.dtype);
  DType rt = a.dtype;
  const bool numpy = a.flavor == Flavor::Numpy;
  // numpy has no integer loops for floor/ceil (and none for bool round); torch keeps the dtype.
  const bool mathOp =
      op != UnaryOp::Neg && op != UnaryOp::Abs && op != UnaryOp::Invert && op != UnaryOp::Not &&
      op != UnaryOp::Relu &&
      ((op != UnaryOp::Floor && op != UnaryOp::Ceil && op != UnaryOp::Trunc) || numpy) &&
      (op != UnaryOp::Round || (numpy && a.dtype == DType::Bool));
  // numpy picks the first float loop that holds the integer type safely: (u)int8 and bool ->
  // float16, (u)int16 -> float32, wider -> float64.
  if (mathOp && !fl) {
    const int bits = a.dtype == DType::Bool ? 8 : ir::dtypeBits(a.dtype);
    rt = !numpy       ? DType::Float32
         : bits <= 8  ? DType::Float16
         : bits <= 16 ? DType::Float32
                      : DType::Float64;
  }
  if (op == UnaryOp::Not) rt = DType::Bool;
  if (op == UnaryOp::Neg && a.dtype == DType::Bool && err) {
    *err = numpy ? "The numpy boolean negative, the `-` operator, is not supported, use the `~` "
                   "operator or the logical_not function instead."
                 : "Negation, the `-` operator, on a bool tensor is not supported. If you are "
                   "trying to invert a mask, use the `~` or `logical_not()` operator instead.";
    return makeArray(rt, a.shape, a.flavor);
  }
  Array out = makeArray(rt, a.shape, a.flavor);
  out.onDevice = a.onDevice;
  for (int64_t i = 0; i < a.size(); ++i) {
    if (!fl && !mathOp) {
      const int64_t x = a.getInt(i);
      int64_t r = 0;
      switch (op) {
        // wrapping negation (numpy: -INT64_MIN == INT64_MIN), in unsigned arithmetic
        case UnaryOp::Neg:
          r = static_cast<int64_t>(0 - static_cast<uint64_t>(x));
          break;
        case UnaryOp::Abs:
          r = x < 0 && ir::isSigned(a.dtype) ? static_cast<int64_t>(0 - static_cast<uint64_t>(x))
                                             : x;
          break;
        case UnaryOp::Invert:
          r = a.dtype == DType::Bool ? !x : ~x;
          break;
        case UnaryOp::Not:
          r = !x;
          break;
        case UnaryOp::Relu:
          r = std::max<int64_t>(0, x);
          break;
        default:
          r = x;
          break;
      }
      out.setInt(i, r);
      continue;
    }
    const double x = a.get(i);
    double r = 0;
    switch (op) {
      case UnaryOp::Neg:
        r = -x;
        break;
      case UnaryOp::Abs:
        r = std::fabs(x);
        break;
      case UnaryOp::Exp:
        r = std::exp(x);
        break;
      case UnaryOp::Exp2:
        r = std::exp2(x);
        break;
      case UnaryOp::Log:
        r = std::log(x);
        break;
      case UnaryOp::Log2:
        r = std::log2(x);
        break;
      case UnaryOp::Sqrt:
        r = std::sqrt(x);
        break;
      case UnaryOp::Rsqrt:
        r = 1.0 / std::sqrt(x);
        break;
      case UnaryOp::Sin:
        r = std::sin(x);
        break;
      case UnaryOp::Cos:
        r = std::cos(x);
        break;
      case UnaryOp::Tanh:
        r = std::tanh(x);
        break;
      case UnaryOp::Erf:
        r = std::erf(x);
        break;
      case UnaryOp::Sigmoid:
        r = 1.0 / (1.0 + std::exp(-x));
        break;
      case UnaryOp::Silu:
        r = x / (1.0 + std::exp(-x));
        break;
      case UnaryOp::Relu:
        r = std::isnan(x) ? x : (x > 0 ? x : 0.0);
        break;
      case UnaryOp::Gelu:
        r = 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
        break;
      case UnaryOp::Floor:
        r = std::floor(x);
        break;
      case UnaryOp::Ceil:
        r = std::ceil(x);
        break;
      case UnaryOp::Trunc:
        r = std::trunc(x);
        break;
      case UnaryOp::Round:
        r = std::nearbyint(x);
        break;
      case UnaryOp::Not:
        r = x == 0;
        break;
      case UnaryOp::Invert:
        if (err) *err = "bitwise not needs an integer or bool operand";
        r = 0;
        break;
    }
    out.set(i, r);
  }
  return out;
}

Array astype(const Array& a, DType t) {
  Array out = makeArray(t, a.shape, a.flavor);
  out.onDevice = a.onDevice;
  const bool intToInt = !ir::isFloat(a.dtype) && !ir::isFloat(t);
  for (int64_t i = 0; i < a.size(); ++i) {
    if (intToInt)
      out.setInt(i, a.getInt(i));
    else
      out.set(i, a.get(i));
  }
  return out;
}

std::optional<Array> reshape(const Array& a, std::vector<int64_t> shape, std::string* err) {
  int infer = -1;
  int64_t known = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (infer >= 0) {
        if (err) *err = "can only specify one unknown dimension";
        return std::nullopt;
      }
      infer = static_cast<int>(i);
    } else if (shape[i] < 0) {
      if (err) *err = "negative dimension " + std::to_string(shape[i]) + " in reshape";
      return std::nullopt;
    } else {
      known *= shape[i];
    }
  }
  if (infer >= 0) {
    if (known == 0 || a.size() % known != 0) {
      if (err)
        *err = "cannot reshape array of size " + std::to_string(a.size()) + " into shape " +
               shapeText(shape);
      return std::nullopt;
    }
    shape[infer] = a.size() / known;
    known *= shape[infer];
  }
  if (known != a.size()) {
    if (err)
      *err = "cannot reshape array of size " + std::to_string(a.size()) + " into shape " +
             shapeText(shape);
    return std::nullopt;
  }
  Array out = a;
  out.shape = std::move(shape);
  return out;
}

Array transpose(const Array& a) {
  Array out = a;
  out.origin = -1;
  out.defined.clear();
  const int n = a.ndim();
  if (n < 2) return out;
  std::reverse(out.shape.begin(), out.shape.end());
  const int eb = ir::dtypeBytes(a.dtype);
  std::vector<int64_t> c(n);
  for (int64_t i = 0; i < a.size(); ++i) {
    int64_t x = i;
    for (int d = n; d-- > 0;) {
      c[d] = x % a.shape[d];
      x /= a.shape[d];
    }
    int64_t j = 0;
    for (int d = n; d-- > 0;) j = j * a.shape[d] + c[d];
    std::memcpy(out.data.data() + j * eb, a.data.data() + i * eb, eb);
  }
  return out;
}

std::optional<Array> transpose(const Array& a, const std::vector<int64_t>& axes, std::string* err) {
  const int n = a.ndim();
  std::vector<int> perm;
  std::vector<bool> seen(size_t(n), false);
  if (static_cast<int>(axes.size()) != n) {
    if (err) *err = "axes don't match array";
    return std::nullopt;
  }
  for (int64_t ax : axes) {
    const int64_t d = ax < 0 ? ax + n : ax;
    if (d < 0 || d >= n) {
      if (err)
        *err = "axis " + std::to_string(ax) + " is out of bounds for array of dimension " +
               std::to_string(n);
      return std::nullopt;
    }
    if (seen[size_t(d)]) {
      if (err) *err = "repeated axis in transpose";
      return std::nullopt;
    }
    seen[size_t(d)] = true;
    perm.push_back(static_cast<int>(d));
  }
  Array out = a;
  out.origin = -1;
  out.defined.clear();
  for (int d = 0; d < n; ++d) out.shape[size_t(d)] = a.shape[size_t(perm[size_t(d)])];
  // Source strides (row-major) of a, read through the permutation.
  std::vector<int64_t> srcStride(size_t(n), 1);
  for (int d = n - 1; d > 0; --d)
    srcStride[size_t(d - 1)] = srcStride[size_t(d)] * a.shape[size_t(d)];
  const int eb = ir::dtypeBytes(a.dtype);
  std::vector<int64_t> c(size_t(n), 0);
  for (int64_t i = 0; i < out.size(); ++i) {
    int64_t x = i, src = 0;
    for (int d = n; d-- > 0;) {
      c[size_t(d)] = x % out.shape[size_t(d)];
      x /= out.shape[size_t(d)];
    }
    for (int d = 0; d < n; ++d) src += c[size_t(d)] * srcStride[size_t(perm[size_t(d)])];
    std::memcpy(out.data.data() + i * eb, a.data.data() + src * eb, size_t(eb));
  }
  return out;
}

std::optional<Array> roll(const Array& a, int64_t shift, std::optional<int> axis,
                          std::string* err) {
  const int eb = ir::dtypeBytes(a.dtype);
  Array out = a;
  out.origin = -1;
  out.defined.clear();
  if (!axis) {
    const int64_t n = a.size();
    if (n == 0) return out;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t j = ((i + shift) % n + n) % n;
      std::memcpy(out.data.data() + j * eb, a.data.data() + i * eb, eb);
    }
    return out;
  }
  int ax = *axis;
  if (ax < 0) ax += a.ndim();
  if (ax < 0 || ax >= a.ndim()) {
    if (err)
      *err = "axis " + std::to_string(*axis) + " is out of bounds for array of dimension " +
             std::to_string(a.ndim());
    return std::nullopt;
  }
  int64_t inner = 1;
  for (int d = ax + 1; d < a.ndim(); ++d) inner *= a.shape[d];
  const int64_t len = a.shape[ax];
  if (len == 0) return out;
  for (int64_t i = 0; i < a.size(); ++i) {
    const int64_t c = (i / inner) % len;
    const int64_t nc = ((c + shift) % len + len) % len;
    const int64_t j = i + (nc - c) * inner;
    std::memcpy(out.data.data() + j * eb, a.data.data() + i * eb, eb);
  }
  return out;
}

std::optional<Array> viewAs(const Array& a, DType t, std::string* err) {
  const int ob = ir::dtypeBytes(a.dtype), nb = ir::dtypeBytes(t);
  Array out = a;
  out.dtype = t;
  if (ob == nb) return out;
  out.origin = -1;
  out.defined.clear();
  if (a.ndim() == 0 || (a.shape.back() * ob) % nb != 0) {
    if (err)
      *err = "cannot view " + describe(a) + " as " + std::string(ir::dtypeName(t)) +
             ": the last dimension's bytes are not a multiple of " + std::to_string(nb);
    return std::nullopt;
  }
  out.shape.back() = a.shape.back() * ob / nb;
  return out;
}

std::optional<Array> where(const Array& c, const Array& a, const Array& b, std::string* err) {
  auto s1 = broadcastShapes(c.shape, a.shape);
  auto s = s1 ? broadcastShapes(*s1, b.shape) : std::nullopt;
  if (!s) {
    if (err) *err = "where: operands could not be broadcast together";
    return std::nullopt;
  }
  const DType rt = promote(a.dtype, b.dtype, a.flavor);
  auto pick = [&](const Array& x) {
    return *binary(BinaryOp::Add, x, makeArray(x.dtype, *s), x.dtype, nullptr);
  };
  const Array cc = *binary(BinaryOp::Ne, c, makeArray(c.dtype, {}), DType::Bool, nullptr);
  const Array full = *binary(BinaryOp::Add, cc, makeArray(DType::Bool, *s), DType::Bool, nullptr);
  const Array aa = astype(pick(a), rt), bb = astype(pick(b), rt);
  Array out = makeArray(rt, *s, a.flavor);
  const int eb = ir::dtypeBytes(rt);
  for (int64_t i = 0; i < out.size(); ++i)
    std::memcpy(out.data.data() + i * eb, (full.getInt(i) ? aa : bb).data.data() + i * eb, eb);
  return out;
}

namespace {

/// numpy's pairwise summation (`@TYPE@_pairwise_sum`) of `n` values in the accumulator type F.
template <class F>
F pairwiseSum(const std::vector<double>& v, size_t lo, size_t n) {
  if (n < 8) {
    F res = F(0);
    for (size_t i = 0; i < n; ++i) res = res + static_cast<F>(v[lo + i]);
    return res;
  }
  if (n <= 128) {
    F r[8];
    for (int j = 0; j < 8; ++j) r[j] = static_cast<F>(v[lo + j]);
    size_t i = 8;
    for (; i < n - (n % 8); i += 8)
      for (int j = 0; j < 8; ++j) r[j] = r[j] + static_cast<F>(v[lo + i + j]);
    F res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res = res + static_cast<F>(v[lo + i]);
    return res;
  }
  size_t n2 = n / 2;
  n2 -= n2 % 8;
  return pairwiseSum<F>(v, lo, n2) + pairwiseSum<F>(v, lo + n2, n - n2);
}

double roundTo(DType t, double x) {
  Array one = makeArray(t, {1});
  one.set(0, x);
  return one.get(0);
}

/// A numpy float sum, mean or product of `v` as numpy's reduction loops compute it: along a
/// contiguous run (`contiguous`: the reduced axis is the innermost one, or all of them) the add
/// loop's pairwise summation, otherwise one element-wise operation per step, rounded to the
/// dtype (float16 through float, as numpy's half loops); float16 means accumulate in float32.
template <class F>
double numpyFloatReduce(Reduce r, DType t, const std::vector<double>& v, bool contiguous) {
  const bool half = t == DType::Float16 || t == DType::BFloat16;
  F acc = r == Reduce::Prod ? F(1) : F(0);
  if (r != Reduce::Prod && contiguous) {
    acc = acc + pairwiseSum<F>(v, 0, v.size());
  } else {
    for (double x : v) {
      acc = r == Reduce::Prod ? acc * static_cast<F>(x) : acc + static_cast<F>(x);
      if (half && r != Reduce::Mean && !contiguous) acc = static_cast<F>(roundTo(t, acc));
    }
  }
  if (r == Reduce::Mean) acc = acc / static_cast<F>(v.size());
  return static_cast<double>(acc);
}

}  // namespace

std::optional<Array> matmul(const Array& a, const Array& b, DType rt, std::string* err) {
  auto fail = [&](std::string m) -> std::optional<Array> {
    if (err) *err = std::move(m);
    return std::nullopt;
  };
  if (a.ndim() == 0 || b.ndim() == 0)
    return fail("matmul: Input operand does not have enough dimensions");
  if (a.dtype == DType::Bool || b.dtype == DType::Bool || rt == DType::Bool)
    return fail("matmul of bool arrays is not supported by the harness");
  std::vector<int64_t> as = a.shape, bs = b.shape;
  const bool rowVector = as.size() == 1, colVector = bs.size() == 1;
  if (rowVector) as.insert(as.begin(), 1);
  if (colVector) bs.push_back(1);
  const int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  if (bs[bs.size() - 2] != k)
    return fail("matmul: Input operand 1 has a mismatch in its core dimension 0 (size " +
                std::to_string(bs[bs.size() - 2]) + " is different from " + std::to_string(k) +
                ")");
  const std::vector<int64_t> batchA(as.begin(), as.end() - 2), batchB(bs.begin(), bs.end() - 2);
  if (!batchA.empty() && !batchB.empty() && batchA != batchB)
    return fail("matmul: batch dimensions " + shapeText(batchA) + " and " + shapeText(batchB) +
                " differ (broadcasting between two stacks is not supported by the harness)");
  std::vector<int64_t> shape = batchA.empty() ? batchB : batchA;
  int64_t batches = 1;
  for (int64_t d : shape) batches *= d;
  if (!rowVector) shape.push_back(m);
  if (!colVector) shape.push_back(n);
  Array r = makeArray(rt, shape, a.flavor);
  const bool integer = !ir::isFloat(rt);
  const int64_t strideA = batchA.empty() ? 0 : m * k, strideB = batchB.empty() ? 0 : k * n;
  for (int64_t p = 0; p < batches; ++p) {
    const int64_t offA = p * strideA, offB = p * strideB, offR = p * m * n;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        if (integer) {
          uint64_t acc = 0;  // wraps like numpy's int64 loop
          for (int64_t q = 0; q < k; ++q)
            acc += static_cast<uint64_t>(a.getInt(offA + i * k + q)) *
                   static_cast<uint64_t>(b.getInt(offB + q * n + j));
          r.setInt(offR + i * n + j, static_cast<int64_t>(acc));
        } else {
          double acc = 0;
          for (int64_t q = 0; q < k; ++q) acc += a.get(offA + i * k + q) * b.get(offB + q * n + j);
          r.set(offR + i * n + j, acc);
        }
      }
    }
  }
  return r;
}

std::optional<Array> reduce(Reduce r, const Array& a, std::optional<int> axis, std::string* err) {
  DType rt = a.dtype;
  // numpy: sums and products of bool and signed ints accumulate in int64, of unsigned ints in
  // uint64 (torch: int64 for both).
  if ((r == Reduce::Sum || r == Reduce::Prod) && !ir::isFloat(a.dtype))
    rt = a.flavor == Flavor::Numpy && a.dtype != DType::Bool && !ir::isSigned(a.dtype)
             ? DType::UInt64
             : DType::Int64;
  if (r == Reduce::Mean && !ir::isFloat(a.dtype))
    rt = a.flavor == Flavor::Torch ? DType::Float32 : DType::Float64;
  if (r == Reduce::Any || r == Reduce::All) rt = DType::Bool;
  int ax = -1;
  int64_t outer = 1, len = a.size(), inner = 1;
  std::vector<int64_t> oshape;
  if (axis) {
    ax = *axis < 0 ? *axis + a.ndim() : *axis;
    if (ax < 0 || ax >= a.ndim()) {
      if (err)
        *err = "axis " + std::to_string(*axis) + " is out of bounds for array of dimension " +
               std::to_string(a.ndim());
      return std::nullopt;
    }
    outer = 1;
    for (int d = 0; d < ax; ++d) outer *= a.shape[d];
    len = a.shape[ax];
    inner = 1;
    for (int d = ax + 1; d < a.ndim(); ++d) inner *= a.shape[d];
    oshape = a.shape;
    oshape.erase(oshape.begin() + ax);
  }
  if (len == 0 && (r == Reduce::Max || r == Reduce::Min)) {
    if (err) *err = "zero-size array to reduction operation which has no identity";
    return std::nullopt;
  }
  Array out = makeArray(rt, oshape, a.flavor);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t in = 0; in < inner; ++in) {
      double acc = r == Reduce::Prod || r == Reduce::All ? 1 : 0;
      bool nan = false;
      for (int64_t k = 0; k < len; ++k) {
        const double x = a.get((o * len + k) * inner + in);
        if (std::isnan(x)) nan = true;
        switch (r) {
          case Reduce::Sum:
          case Reduce::Mean:
            acc += x;
            break;
          case Reduce::Prod:
            acc *= x;
            break;
          case Reduce::Max:
            acc = k == 0 ? x : std::max(acc, x);
            break;
          case Reduce::Min:
            acc = k == 0 ? x : std::min(acc, x);
            break;
          case Reduce::Any:
            acc = acc || x != 0;
            break;
          case Reduce::All:
            acc = acc && x != 0;
            break;
        }
      }
      if (r == Reduce::Mean) acc /= static_cast<double>(len);
      if (nan && (r == Reduce::Max || r == Reduce::Min)) acc = std::nan("");
      // (an integer mean sums in float64 the same way; numpy's 8192-element buffers of the cast
      // are not modelled: longer integer means may differ in the last bits)
      if (a.flavor == Flavor::Numpy &&
          ((ir::isFloat(a.dtype) && (r == Reduce::Sum || r == Reduce::Mean || r == Reduce::Prod)) ||
           (!ir::isFloat(a.dtype) && r == Reduce::Mean))) {
        std::vector<double> v(static_cast<size_t>(len));
        for (int64_t k = 0; k < len; ++k)
          v[static_cast<size_t>(k)] = a.get((o * len + k) * inner + in);
        acc = a.dtype == DType::Float64 || !ir::isFloat(a.dtype)
                  ? numpyFloatReduce<double>(r, a.dtype, v, inner == 1)
                  : numpyFloatReduce<float>(r, a.dtype, v, inner == 1);
      }
      if (!ir::isFloat(a.dtype) && r != Reduce::Mean && r != Reduce::Any && r != Reduce::All) {
        // Integers exactly, wrapping at 64 bits as numpy's int64/uint64 accumulators do.
        uint64_t iacc = r == Reduce::Prod ? 1 : 0;
        for (int64_t k = 0; k < len; ++k) {
          const int64_t x = a.getInt((o * len + k) * inner + in);
          const uint64_t ux = static_cast<uint64_t>(x);
          const bool uns = !ir::isSigned(a.dtype) && a.dtype != DType::Bool;
          switch (r) {
            case Reduce::Sum:
              iacc += ux;
              break;
            case Reduce::Prod:
              iacc *= ux;
              break;
            case Reduce::Max:
              if (k == 0 || (uns ? ux > iacc : x > static_cast<int64_t>(iacc))) iacc = ux;
              break;
            case Reduce::Min:
              if (k == 0 || (uns ? ux < iacc : x < static_cast<int64_t>(iacc))) iacc = ux;
              break;
            default:
              break;
          }
        }
        out.setInt(o * inner + in, static_cast<int64_t>(iacc));
        continue;
      }
      out.set(o * inner + in, acc);
    }
  }
  return out;
}

namespace {

struct DimSel {
  bool keep = true;  // false for an integer index (dimension dropped)
  bool newAxis = false;
  int64_t start = 0, step = 1, count = 1;
};

bool normalizeIndex(const Array& a, const std::vector<IndexItem>& idx, std::vector<DimSel>& sel,
                    std::string* err) {
  int consumed = 0, ell = -1;
  for (size_t i = 0; i < idx.size(); ++i) {
    if (idx[i].kind == IndexItem::Kind::Ellipsis) {
      if (ell >= 0) {
        if (err) *err = "an index can only have a single ellipsis ('...')";
        return false;
      }
      ell = static_cast<int>(i);
    } else if (idx[i].kind != IndexItem::Kind::NewAxis) {
      ++consumed;
    }
  }
  if (consumed > a.ndim()) {
    if (err)
      *err = "too many indices for array: array is " + std::to_string(a.ndim()) +
             "-dimensional, but " + std::to_string(consumed) + " were indexed";
    return false;
  }
  int dim = 0;
  auto fullDim = [&](int d) {
    DimSel s;
    s.count = a.shape[d];
    return s;
  };
  for (size_t i = 0; i < idx.size(); ++i) {
    const IndexItem& it = idx[i];
    if (it.kind == IndexItem::Kind::Ellipsis) {
      for (int k = 0; k < a.ndim() - consumed; ++k) sel.push_back(fullDim(dim++));
      continue;
    }
    if (it.kind == IndexItem::Kind::NewAxis) {
      DimSel s;
      s.newAxis = true;
      sel.push_back(s);
      continue;
    }
    const int64_t n = a.shape[dim];
    DimSel s;
    if (it.kind == IndexItem::Kind::Int) {
      int64_t v = it.value < 0 ? it.value + n : it.value;
      if (v < 0 || v >= n) {
        if (err)
          *err = "index " + std::to_string(it.value) + " is out of bounds for axis " +
                 std::to_string(dim) + " with size " + std::to_string(n);
        return false;
      }
      s.keep = false;
      s.start = v;
      s.count = 1;
    } else {
      const int64_t step = it.step.value_or(1);
      if (step == 0) {
        if (err) *err = "slice step cannot be zero";
        return false;
      }
      int64_t start, stop;
      if (step > 0) {
        start = it.start ? (*it.start < 0 ? *it.start + n : *it.start) : 0;
        stop = it.stop ? (*it.stop < 0 ? *it.stop + n : *it.stop) : n;
        start = std::clamp<int64_t>(start, 0, n);
        stop = std::clamp<int64_t>(stop, 0, n);
        s.count = stop > start ? (stop - start + step - 1) / step : 0;
      } else {
        start = it.start ? (*it.start < 0 ? *it.start + n : *it.start) : n - 1;
        stop = it.stop ? (*it.stop < 0 ? *it.stop + n : *it.stop) : -1;
        start = std::clamp<int64_t>(start, -1, n - 1);
        stop = std::clamp<int64_t>(stop, -1, n - 1);
        s.count = start > stop ? (start - stop + (-step) - 1) / (-step) : 0;
      }
      s.start = start;
      s.step = step;
    }
    sel.push_back(s);
    ++dim;
  }
  while (dim < a.ndim()) sel.push_back(fullDim(dim++));
  return true;
}

/// Calls f(resultIndex, sourceIndex) for every selected element.
template <class F>
void forEachSelected(const Array& a, const std::vector<DimSel>& sel, F&& f) {
  std::vector<const DimSel*> dims;
  for (const auto& s : sel)
    if (!s.newAxis) dims.push_back(&s);
  int64_t total = 1;
  for (auto* s : dims) total *= s->count;
  std::vector<int64_t> astr(a.ndim(), 1);
  for (int d = a.ndim() - 1; d > 0; --d) astr[d - 1] = astr[d] * a.shape[d];
  for (int64_t i = 0; i < total; ++i) {
    int64_t x = i, src = 0;
    for (size_t d = dims.size(); d-- > 0;) {
      const int64_t c = x % dims[d]->count;
      x /= dims[d]->count;
      src += (dims[d]->start + c * dims[d]->step) * astr[d];
    }
    f(i, src);
  }
}

}  // namespace

std::optional<Array> getItem(const Array& a, const std::vector<IndexItem>& idx, std::string* err) {
  std::vector<DimSel> sel;
  if (!normalizeIndex(a, idx, sel, err)) return std::nullopt;
  std::vector<int64_t> shape;
  for (const auto& s : sel)
    if (s.newAxis)
      shape.push_back(1);
    else if (s.keep)
      shape.push_back(s.count);
  Array out = makeArray(a.dtype, shape, a.flavor);
  out.onDevice = a.onDevice;
  const int eb = ir::dtypeBytes(a.dtype);
  forEachSelected(a, sel, [&](int64_t i, int64_t src) {
    std::memcpy(out.data.data() + i * eb, a.data.data() + src * eb, eb);
  });
  return out;
}

bool setItem(Array& a, const std::vector<IndexItem>& idx, const Array& value, std::string* err) {
  std::vector<DimSel> sel;
  if (!normalizeIndex(a, idx, sel, err)) return false;
  std::vector<int64_t> shape;
  for (const auto& s : sel)
    if (s.newAxis)
      shape.push_back(1);
    else if (s.keep)
      shape.push_back(s.count);
  auto bs = broadcastShapes(shape, value.shape);
  if (!bs || *bs != shape) {
    if (err)
      *err = "could not broadcast input array from shape " + shapeText(value.shape) +
             " into shape " + shapeText(shape);
    return false;
  }
  const Array v = astype(
      *binary(BinaryOp::Add, value, makeArray(value.dtype, shape), value.dtype, nullptr), a.dtype);
  const int eb = ir::dtypeBytes(a.dtype);
  const bool partlyDefined = a.defined.size() == static_cast<size_t>(a.size());
  forEachSelected(a, sel, [&](int64_t i, int64_t src) {
    std::memcpy(a.data.data() + src * eb, v.data.data() + i * eb, eb);
    if (partlyDefined) a.defined[src] = 1;
  });
  if (std::find(a.defined.begin(), a.defined.end(), uint8_t(0)) == a.defined.end())
    a.defined.clear();
  return true;
}

}  // namespace tirx::verify
