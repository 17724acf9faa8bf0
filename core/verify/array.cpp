// Array storage, element access with dtype rounding, constructors (numpy's and torch's linspace
// algorithms reproduced exactly), dtype promotion and the element-wise kernels with broadcasting.
#include "core/verify/array.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/sim/sim_numerics.h"
#include "core/verify/py_numbers.h"

namespace tirx::verify {

namespace {

template <class T>
T rd(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <class T>
void wr(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

/// numpy's float → int cast (C truncation; NaN/inf give the minimum of int64, then wrap).
int64_t truncToInt(double v) {
  if (std::isnan(v) || std::isinf(v) || v >= 9.223372036854775807e18 ||
      v < -9.223372036854775807e18)
    return INT64_MIN;
  return static_cast<int64_t>(v);
}

}  // namespace

int64_t Array::size() const {
  int64_t n = 1;
  for (auto e : shape) n *= e;
  return n;
}

double Array::get(int64_t i) const {
  const uint8_t* p = data.data() + i * ir::dtypeBytes(dtype);
  switch (dtype) {
    case DType::Bool:
      return *p ? 1.0 : 0.0;
    case DType::Int8:
      return rd<int8_t>(p);
    case DType::Int16:
      return rd<int16_t>(p);
    case DType::Int32:
      return rd<int32_t>(p);
    case DType::Int64:
      return static_cast<double>(rd<int64_t>(p));
    case DType::UInt8:
      return rd<uint8_t>(p);
    case DType::UInt16:
      return rd<uint16_t>(p);
    case DType::UInt32:
      return rd<uint32_t>(p);
    case DType::UInt64:
      return static_cast<double>(rd<uint64_t>(p));
    case DType::Float16:
      return sim::f16ToF32(rd<uint16_t>(p));
    case DType::BFloat16:
      return sim::bf16ToF32(rd<uint16_t>(p));
    case DType::Float32:
      return rd<float>(p);
    case DType::Float64:
      return rd<double>(p);
    default:
      return 0;
  }
}

int64_t Array::getInt(int64_t i) const {
  const uint8_t* p = data.data() + i * ir::dtypeBytes(dtype);
  switch (dtype) {
    case DType::Bool:
      return *p ? 1 : 0;
    case DType::Int8:
      return rd<int8_t>(p);
    case DType::Int16:
      return rd<int16_t>(p);
    case DType::Int32:
      return rd<int32_t>(p);
    case DType::Int64:
      return rd<int64_t>(p);
    case DType::UInt8:
      return rd<uint8_t>(p);
    case DType::UInt16:
      return rd<uint16_t>(p);
    case DType::UInt32:
      return rd<uint32_t>(p);
    case DType::UInt64:
      return static_cast<int64_t>(rd<uint64_t>(p));
    default:
      return truncToInt(get(i));
  }
}

void Array::set(int64_t i, double v) {
  uint8_t* p = data.data() + i * ir::dtypeBytes(dtype);
  switch (dtype) {
    case DType::Float16:
      wr<uint16_t>(p, sim::f64ToF16(v));
      return;
    case DType::BFloat16:
      wr<uint16_t>(p, static_cast<uint16_t>(sim::roundToFormat(v, 0, 7, 8, sim::Round::Rn)));
      return;
    case DType::Float32:
      wr<float>(p, static_cast<float>(v));
      return;
    case DType::Float64:
      wr<double>(p, v);
      return;
    case DType::Bool:
      *p = v != 0;
      return;
    default:
      setInt(i, truncToInt(v));
      return;
  }
}

void Array::setInt(int64_t i, int64_t v) {
  uint8_t* p = data.data() + i * ir::dtypeBytes(dtype);
  switch (dtype) {
    case DType::Bool:
      *p = v != 0;
      return;
    case DType::Int8:
    case DType::UInt8:
      wr<uint8_t>(p, static_cast<uint8_t>(v));
      return;
    case DType::Int16:
    case DType::UInt16:
      wr<uint16_t>(p, static_cast<uint16_t>(v));
      return;
    case DType::Int32:
    case DType::UInt32:
      wr<uint32_t>(p, static_cast<uint32_t>(v));
      return;
    case DType::Int64:
    case DType::UInt64:
      wr<uint64_t>(p, static_cast<uint64_t>(v));
      return;
    default:
      set(i, dtype == DType::UInt64 ? static_cast<double>(static_cast<uint64_t>(v))
                                    : static_cast<double>(v));
      return;
  }
}

std::vector<double> Array::toDoubles() const {
  std::vector<double> v(size());
  for (int64_t i = 0; i < size(); ++i) v[i] = get(i);
  return v;
}

ir::HostTensor Array::toHost() const {
  ir::HostTensor t{dtype, shape, data, {}};
  if (defined.size() == static_cast<size_t>(size())) t.defined = defined;
  return t;
}

Array Array::fromHost(const ir::HostTensor& t, Flavor f) {
  Array a;
  a.dtype = t.dtype;
  a.shape = t.shape;
  a.data = t.data;
  a.defined = t.defined;
  a.flavor = f;
  return a;
}

std::string arraySizeError(DType t, const std::vector<int64_t>& shape) {
  int64_t bytes = ir::dtypeBytes(t);
  bool over = false;
  for (int64_t e : shape) {
    if (e < 0) return "negative dimensions are not allowed (shape " + shapeText(shape) + ")";
    if (e != 0 && bytes > kMaxArrayBytes / e)
      over = true;
    else
      bytes *= e;
  }
  if (!over && bytes <= kMaxArrayBytes) return {};
  // the size in GiB, saturating (a product past int64 is still "more than the limit")
  double gib = ir::dtypeBytes(t) / double(int64_t{1} << 30);
  for (int64_t e : shape) gib *= double(e);
  char size[64];
  std::snprintf(size, sizeof size, gib < 1e6 ? "%.0f GiB" : "%.3g GiB", gib);
  return "a " + std::string(ir::dtypeName(t)) + " array of shape " + shapeText(shape) + " needs " +
         size + ", more than the harness's limit of " + std::to_string(kMaxArrayBytes >> 30) +
         " GiB per array";
}

Array makeArray(DType t, std::vector<int64_t> shape, Flavor f) {
  Array a;
  a.dtype = t;
  a.shape = std::move(shape);
  a.flavor = f;
  a.data.assign(static_cast<size_t>(a.size()) * ir::dtypeBytes(t), 0);
  return a;
}

Array fromDoubles(DType t, std::vector<int64_t> shape, const std::vector<double>& v, Flavor f) {
  Array a = makeArray(t, std::move(shape), f);
  for (int64_t i = 0; i < a.size() && i < static_cast<int64_t>(v.size()); ++i) a.set(i, v[i]);
  return a;
}

Array numpyLinspace(double start, double stop, int64_t num, DType dtype, bool endpoint) {
  if (num < 0) num = 0;
  const int64_t div = endpoint ? num - 1 : num;
  std::vector<double> y(num);
  const double delta = stop - start;
  const double step = div > 0 ? delta / static_cast<double>(div) : std::nan("");
  for (int64_t i = 0; i < num; ++i) {
    double v = static_cast<double>(i);
    if (div > 0 && step == 0)
      v = v / static_cast<double>(div) * delta;  // numpy's step==0 path
    else if (div > 0)
      v = v * step;
    else
      v = v * delta;  // num == 1 with endpoint: numpy multiplies by delta (i is 0)
    y[i] = v + start;
  }
  if (endpoint && num > 1) y[num - 1] = stop;
  return fromDoubles(dtype, {num}, y);
}

Array torchLinspace(double start, double end, int64_t steps, DType dtype) {
  if (steps < 0) steps = 0;
  Array a = makeArray(dtype, {steps}, Flavor::Torch);
  const int64_t halfway = steps / 2;
  if (dtype == DType::Float32) {
    const float s = static_cast<float>(start), e = static_cast<float>(end);
    const float step = steps > 1 ? (e - s) / static_cast<float>(steps - 1) : 0.0f;
    for (int64_t i = 0; i < steps; ++i) {
      float v;
      if (i < halfway) {
        const volatile float prod = step * static_cast<float>(i);
        v = s + prod;
      } else {
        const volatile float prod = step * static_cast<float>(steps - i - 1);
        v = e - prod;
      }
      a.set(i, v);
    }
    return a;
  }
  if (dtype == DType::Float16 || dtype == DType::BFloat16) {
    // c10::Half arithmetic: each operation in float, rounded back to the half type.
    Array one = makeArray(dtype, {1});
    auto r = [&](double x) {
      one.set(0, x);
      return static_cast<float>(one.get(0));
    };
    const float s = r(start), e = r(end);
    const float step = steps > 1 ? r((e - s) / static_cast<float>(steps - 1)) : 0.0f;
    for (int64_t i = 0; i < steps; ++i) {
      if (i < halfway)
        a.set(i, r(s + r(step * static_cast<float>(i))));
      else
        a.set(i, r(e - r(step * static_cast<float>(steps - i - 1))));
    }
    return a;
  }
  const double step = steps > 1 ? (end - start) / static_cast<double>(steps - 1) : 0.0;
  for (int64_t i = 0; i < steps; ++i)
    a.set(i, i < halfway ? start + step * static_cast<double>(i)
                         : end - step * static_cast<double>(steps - i - 1));
  return a;
}

Array arange(double start, double stop, double step, DType dtype, Flavor f) {
  int64_t n = 0;
  if (step != 0) n = std::max<int64_t>(0, static_cast<int64_t>(std::ceil((stop - start) / step)));
  Array a = makeArray(dtype, {n}, f);
  for (int64_t i = 0; i < n; ++i) a.set(i, start + static_cast<double>(i) * step);
  return a;
}

namespace {
bool isF(DType t) {
  return ir::isFloat(t);
}
int rankFloat(DType t) {
  switch (t) {
    case DType::Float16:
    case DType::BFloat16:
      return 1;
    case DType::Float32:
      return 2;
    default:
      return 3;
  }
}
DType floatOfRank(int r) {
  return r <= 1 ? DType::Float16 : (r == 2 ? DType::Float32 : DType::Float64);
}
DType intOf(bool sgn, int bits) {
  if (sgn)
    return bits <= 8    ? DType::Int8
           : bits <= 16 ? DType::Int16
           : bits <= 32 ? DType::Int32
                        : DType::Int64;
  return bits <= 8    ? DType::UInt8
         : bits <= 16 ? DType::UInt16
         : bits <= 32 ? DType::UInt32
                      : DType::UInt64;
}
}  // namespace

DType promote(DType a, DType b, Flavor f) {
  if (a == b) return a;
  if (a == DType::Bool) return b;
  if (b == DType::Bool) return a;
  if (isF(a) && isF(b)) {
    if ((a == DType::Float16 && b == DType::BFloat16) ||
        (a == DType::BFloat16 && b == DType::Float16))
      return DType::Float32;
    return rankFloat(a) >= rankFloat(b) ? a : b;
  }
  if (isF(a) || isF(b)) {
    const DType fl = isF(a) ? a : b, in = isF(a) ? b : a;
    if (f == Flavor::Torch) return fl;
    const int bits = ir::dtypeBits(in);
    const int need = bits <= 8 ? 1 : bits <= 16 ? 2 : 3;
    if (fl == DType::BFloat16 && need <= 1) return fl;
    return floatOfRank(std::max(rankFloat(fl), need));
  }
  const bool sa = ir::isSigned(a), sb = ir::isSigned(b);
  const int ba = ir::dtypeBits(a), bb = ir::dtypeBits(b);
  if (sa == sb) return intOf(sa, std::max(ba, bb));
  const int bs = sa ? ba : bb, bu = sa ? bb : ba;
  if (bs > bu) return intOf(true, bs);
  if (bu >= 64) return f == Flavor::Torch ? DType::Int64 : DType::Float64;
  return intOf(true, bu * 2);
}

DType minScalarType(const PromoOperand& s, bool* smallUnsigned) {
  *smallUnsigned = false;
  if (s.dtype == DType::Bool) return DType::Bool;
  if (isF(s.dtype)) {
    const double v = s.f;
    if (std::isnan(v) || std::isinf(v) || (v > -65000 && v < 65000)) return DType::Float16;
    if (v > -3.4e38 && v < 3.4e38) return DType::Float32;
    return DType::Float64;
  }
  if (s.dtype == DType::UInt64 || s.i >= 0) {
    const uint64_t u = static_cast<uint64_t>(s.i);
    const int bits = u <= 0xff ? 8 : u <= 0xffff ? 16 : u <= 0xffffffffULL ? 32 : 64;
    *smallUnsigned =
        bits == 64 ? u <= static_cast<uint64_t>(INT64_MAX) : u < (uint64_t{1} << (bits - 1));
    return intOf(false, bits);
  }
  const int64_t v = s.i;
  return intOf(true, v >= -128 ? 8 : v >= -32768 ? 16 : v >= INT32_MIN ? 32 : 64);
}

DType numpyResultType(const PromoOperand& a, const PromoOperand& b) {
  auto kind = [](DType t) { return t == DType::Bool ? 0 : isF(t) ? 2 : 1; };
  if (a.scalar == b.scalar) return promote(a.dtype, b.dtype, Flavor::Numpy);
  const PromoOperand& arr = a.scalar ? b : a;
  const PromoOperand& sc = a.scalar ? a : b;
  if (kind(sc.dtype) > kind(arr.dtype)) return promote(a.dtype, b.dtype, Flavor::Numpy);
  bool small = false;
  DType m = minScalarType(sc, &small);
  if (small && arr.dtype != DType::Bool && (isF(arr.dtype) || ir::isSigned(arr.dtype)))
    m = intOf(true, ir::dtypeBits(m));
  return promote(arr.dtype, m, Flavor::Numpy);
}

bool canCastInPlace(DType from, DType to, Flavor f) {
  auto kind = [](DType t) { return t == DType::Bool ? 0 : isF(t) ? 3 : ir::isSigned(t) ? 2 : 1; };
  if (f == Flavor::Torch) {
    if (isF(from) && !isF(to)) return false;
    return to != DType::Bool || from == DType::Bool;
  }
  return kind(from) <= kind(to);
}

DType promoteWeak(DType a, bool scalarIsFloat, bool scalarIsBool, Flavor f) {
  if (scalarIsBool) return a;
  if (!scalarIsFloat) return a == DType::Bool ? DType::Int64 : a;
  if (isF(a)) return a;
  return f == Flavor::Torch ? DType::Float32 : DType::Float64;
}

std::optional<std::vector<int64_t>> broadcastShapes(const std::vector<int64_t>& a,
                                                    const std::vector<int64_t>& b) {
  const size_t n = std::max(a.size(), b.size());
  std::vector<int64_t> r(n, 1);
  for (size_t i = 0; i < n; ++i) {
    const int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (x != y && x != 1 && y != 1) return std::nullopt;
    r[i] = x == 1 ? y : x;
  }
  return r;
}

std::string shapeText(const std::vector<int64_t>& s) {
  std::string t = "(";
  for (size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  if (s.size() == 1) t += ",";
  return t + ")";
}

std::string describe(const Array& a) {
  std::string t = std::string(ir::dtypeName(a.dtype)) + "[";
  for (size_t i = 0; i < a.shape.size(); ++i) t += (i ? ", " : "") + std::to_string(a.shape[i]);
  return t + "]";
}

namespace {

/// Source index of result element `i` in an operand of shape `s` broadcast to `r`.
struct Broadcaster {
  std::vector<int64_t> rshape, stride;  // operand strides aligned to rshape (0 on broadcast dims)
  Broadcaster(const std::vector<int64_t>& r, const std::vector<int64_t>& s) : rshape(r) {
    stride.assign(r.size(), 0);
    int64_t st = 1;
    for (size_t k = s.size(); k-- > 0;) {
      const size_t d = k + (r.size() - s.size());
      stride[d] = s[k] == 1 ? 0 : st;
      st *= s[k];
    }
  }
  int64_t map(int64_t i) const {
    int64_t src = 0;
    for (size_t d = rshape.size(); d-- > 0;) {
      const int64_t c = i % rshape[d];
      i /= rshape[d];
      src += c * stride[d];
    }
    return src;
  }
};

/// A comparison of two values of one type; nullopt for the other operators.
template <class V>
std::optional<bool> compare(BinaryOp op, V x, V y) {
  switch (op) {
    case BinaryOp::Eq:
      return x == y;
    case BinaryOp::Ne:
      return x != y;
    case BinaryOp::Lt:
      return x < y;
    case BinaryOp::Le:
      return x <= y;
    case BinaryOp::Gt:
      return x > y;
    case BinaryOp::Ge:
      return x >= y;
    default:
      return std::nullopt;
  }
}

/// One float element of a binary op computed in type `ct`; nullopt for the bitwise operators.
std::optional<double> floatBinary(BinaryOp op, double x, double y, DType ct) {
  if (const std::optional<bool> c = compare(op, x, y)) return *c ? 1.0 : 0.0;
  // numpy computes float16 (and float32) in float and rounds to the result type once.
  const bool narrow = ct != DType::Float64;
  const float xf = static_cast<float>(x), yf = static_cast<float>(y);
  double r = 0;
  switch (op) {
    case BinaryOp::Add:
      r = narrow ? xf + yf : x + y;
      break;
    case BinaryOp::Sub:
      r = narrow ? xf - yf : x - y;
      break;
    case BinaryOp::Mul:
      r = narrow ? xf * yf : x * y;
      break;
    case BinaryOp::TrueDiv:
      r = narrow ? xf / yf : x / y;
      break;
    // numpy's npy_divmod (CPython's float divmod), in float for the narrow types as numpy
    // computes them; a zero divisor gives a / b and fmod's NaN.
    case BinaryOp::FloorDiv:
      r = y == 0                 ? x / y
          : ct == DType::Float64 ? pyFloorDiv(x, y)
                                 : pyFloorDivF(static_cast<float>(x), static_cast<float>(y));
      break;
    case BinaryOp::Mod:
      r = y == 0                 ? std::fmod(x, y)
          : ct == DType::Float64 ? pyMod(x, y)
                                 : pyModF(static_cast<float>(x), static_cast<float>(y));
      break;
    case BinaryOp::Pow:
      r = narrow ? std::pow(xf, yf) : std::pow(x, y);
      break;
    case BinaryOp::Maximum:
      r = (std::isnan(x) || std::isnan(y)) ? std::nan("") : std::max(x, y);
      break;
    case BinaryOp::Minimum:
      r = (std::isnan(x) || std::isnan(y)) ? std::nan("") : std::min(x, y);
      break;
    default:
      return std::nullopt;
  }
  return r;
}

/// One uint64 element of the ops whose unsigned result differs from the signed one (values
/// above INT64_MAX compare as such); nullopt for the others, which wrap alike.
std::optional<uint64_t> unsignedBinary(BinaryOp op, uint64_t ux, uint64_t uy) {
  if (op != BinaryOp::Eq && op != BinaryOp::Ne)
    if (const std::optional<bool> c = compare(op, ux, uy)) return *c ? 1 : 0;
  uint64_t u = 0;
  switch (op) {
    case BinaryOp::FloorDiv:
      u = uy == 0 ? 0 : ux / uy;
      break;
    case BinaryOp::Mod:
      u = uy == 0 ? 0 : ux % uy;
      break;
    case BinaryOp::Shr:
      u = uy < 64 ? ux >> uy : 0;
      break;
    case BinaryOp::Maximum:
      u = std::max(ux, uy);
      break;
    case BinaryOp::Minimum:
      u = std::min(ux, uy);
      break;
    default:
      return std::nullopt;
  }
  return u;
}

}  // namespace

std::optional<Array> binary(BinaryOp op, const Array& a, const Array& b, DType rt,
                            std::string* err) {
  auto shape = broadcastShapes(a.shape, b.shape);
  if (!shape) {
    if (err)
      *err = "operands could not be broadcast together with shapes " + shapeText(a.shape) +
             " and " + shapeText(b.shape);
    return std::nullopt;
  }
  const bool cmp = op == BinaryOp::Eq || op == BinaryOp::Ne || op == BinaryOp::Lt ||
                   op == BinaryOp::Le || op == BinaryOp::Gt || op == BinaryOp::Ge;
  // Operands are cast to the computation type first (numpy semantics).
  DType ct = cmp ? promote(a.dtype, b.dtype, a.flavor) : rt;
  if (op == BinaryOp::TrueDiv && !isF(ct)) ct = rt;
  if (std::string why = arraySizeError(cmp ? DType::Bool : rt, *shape); !why.empty()) {
    if (err) *err = why;  // a broadcast of (n, 1) and (1, n) grows quadratically
    return std::nullopt;
  }
  Array out = makeArray(
      cmp ? DType::Bool : rt, *shape,
      a.flavor == Flavor::Torch || b.flavor == Flavor::Torch ? Flavor::Torch : Flavor::Numpy);
  out.onDevice = a.onDevice || b.onDevice;
  const Broadcaster ba(*shape, a.shape), bb(*shape, b.shape);
  const bool fl = isF(ct);
  Array ca = makeArray(ct, {1}), cb = makeArray(ct, {1});
  for (int64_t i = 0; i < out.size(); ++i) {
    const int64_t ia = ba.map(i), ib = bb.map(i);
    if (fl) {
      ca.set(0, a.get(ia));
      cb.set(0, b.get(ib));
      const double x = ca.get(0), y = cb.get(0);
      const std::optional<double> r = floatBinary(op, x, y, ct);
      if (!r) {
        if (err) *err = "bitwise operators need integer or bool operands";
        return std::nullopt;
      }
      out.set(i, *r);
    } else {
      const int64_t x = a.getInt(ia), y = b.getInt(ib);
      int64_t r = 0;
      const auto ux = static_cast<uint64_t>(x), uy = static_cast<uint64_t>(y);
      if (ct == DType::UInt64) {  // both operands unsigned: values above INT64_MAX compare as such
        if (op == BinaryOp::TrueDiv) {
          out.set(i, static_cast<double>(ux) / static_cast<double>(uy));
          continue;
        }
        if (const std::optional<uint64_t> u = unsignedBinary(op, ux, uy)) {
          out.setInt(i, static_cast<int64_t>(*u));
          continue;
        }
      }
      if (const std::optional<bool> c = compare(op, x, y)) {
        out.setInt(i, *c ? 1 : 0);
        continue;
      }
      switch (op) {
        case BinaryOp::Add:
          r = static_cast<int64_t>(ux + uy);
          break;
        case BinaryOp::Sub:
          r = static_cast<int64_t>(ux - uy);
          break;
        case BinaryOp::Mul:
          r = static_cast<int64_t>(ux * uy);
          break;
        case BinaryOp::TrueDiv:
          out.set(i, static_cast<double>(x) / static_cast<double>(y));
          continue;
        // numpy: x // 0 and x % 0 are 0 (with a warning); MIN // -1 wraps to MIN.
        case BinaryOp::FloorDiv:
          r = y == 0 ? 0 : checkedFloorDiv(x, y).value_or(INT64_MIN);
          break;
        case BinaryOp::Mod:
          r = y == 0 ? 0 : pyIntMod(x, y);
          break;
        case BinaryOp::Pow:
          if (y < 0 && ir::isSigned(b.dtype)) {
            if (err) *err = "Integers to negative integer powers are not allowed.";
            return std::nullopt;
          }
          r = static_cast<int64_t>(wrapPow(ux, uy));
          break;
        case BinaryOp::Maximum:
          r = std::max(x, y);
          break;
        case BinaryOp::Minimum:
          r = std::min(x, y);
          break;
        case BinaryOp::And:
          r = x & y;
          break;
        case BinaryOp::Or:
          r = x | y;
          break;
        case BinaryOp::Xor:
          r = x ^ y;
          break;
        case BinaryOp::Shl:
          r = (y >= 0 && y < 64) ? static_cast<int64_t>(ux << y) : 0;
          break;
        case BinaryOp::Shr:
          r = (y >= 0 && y < 64) ? x >> y : (x < 0 ? -1 : 0);
          break;
        default:  // the comparisons, above
          break;
      }
      out.setInt(i, r);
    }
  }
  return out;
}

}  // namespace tirx::verify
