// The documented accuracy of PTX's approximate instructions (PTX ISA 9.7.3.8, .13, .15, .20,
// .21, 9.7.4.10) as a check: the special inputs of each instruction's table give a fixed result
// (NaN inputs: any NaN), other inputs must lie within the bound of the exact value, computed in
// long double. Bounds in ulp are measured from the correctly rounded result; relative and
// absolute bounds become an interval of representable values, rounded outward, so that
// subnormal results, overflow and .ftz flushing are judged in the format itself.
#include <cmath>
#include <cstdio>

#include "core/sim/ptx_lanes.h"

namespace tirx::sim {

namespace {

using namespace lanes;

/// Monotonic integer image of a non-NaN value: ±0 → 0, the next representable value is ±1 away,
/// infinity one past the largest finite value.
int64_t ordered(const LaneFormat& f, uint64_t b) {
  const int64_t mag = static_cast<int64_t>(b & ~f.signMask);
  return f.signBit(b) ? -mag : mag;
}

std::string hex(uint64_t b) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(b));
  return buf;
}

/// What one lane must be: a fixed special result, a NaN, or an interval [lo, hi] of ordered values.
struct Expect {
  enum { Fixed, AnyNaN, Interval, Anything } kind = Interval;
  uint64_t fixed = 0;
  int64_t lo = 0, hi = 0;
  std::string bound;
};

Expect fixedBits(uint64_t b) {
  Expect e;
  e.kind = Expect::Fixed;
  e.fixed = b;
  return e;
}

/// Interval of representable values around `exact` within `relErr`·|exact| + `absErr`, rounded
/// outward (and flushed with .ftz).
Expect around(const LaneFormat& f, long double exact, long double relErr, long double absErr,
              bool ftz) {
  if (std::isinf(exact)) return fixedBits((exact < 0 ? f.signMask : 0) | f.expMask());
  const long double slack = std::fabs(exact) * relErr + absErr;
  const double lo = static_cast<double>(exact - slack * (1 + 0x1p-40L));
  const double hi = static_cast<double>(exact + slack * (1 + 0x1p-40L));
  uint64_t l =
      f.mantBits == 52 ? doubleBits(lo) : roundToFormat(lo, 0, f.mantBits, f.expBits, Round::Rm);
  uint64_t h =
      f.mantBits == 52 ? doubleBits(hi) : roundToFormat(hi, 0, f.mantBits, f.expBits, Round::Rp);
  if (ftz) {
    l = f.flush(l);
    h = f.flush(h);
  }
  Expect e;
  e.lo = ordered(f, l);
  e.hi = ordered(f, h);
  return e;
}

/// `ulps` representable values either side of the correctly rounded `exact`.
Expect ulpsAround(const LaneFormat& f, long double exact, int ulps, bool ftz) {
  uint64_t cr = roundToFormat(static_cast<double>(exact), 0, f.mantBits, f.expBits, Round::Rn);
  if (ftz) cr = f.flush(cr);
  Expect e;
  e.lo = ordered(f, cr) - ulps;
  e.hi = ordered(f, cr) + ulps;
  return e;
}

constexpr uint64_t kInf32 = 0x7f800000u;

Expect expectF32(const PtxInstruction& in, const uint64_t* s, int n) {
  const LaneFormat& f = kF32;
  uint64_t a = s[0] & 0xffffffffu, b = n > 1 ? s[1] & 0xffffffffu : 0;
  if (in.ftz) {
    a = f.flush(a);
    b = f.flush(b);
  }
  const long double x = f.toDouble(a), y = f.toDouble(b);
  Expect nan;
  nan.kind = Expect::AnyNaN;
  if (std::isnan(x) || (n > 1 && std::isnan(y))) return nan;
  const uint64_t sx = a & f.signMask;
  switch (in.family) {
    case PtxFamily::Rcp:
      if (x == 0) return fixedBits(sx | kInf32);
      if (std::isinf(x)) return fixedBits(sx);
      return ulpsAround(f, 1.0L / x, 1, in.ftz);
    case PtxFamily::Sqrt:
      if (x == 0) return fixedBits(a);
      if (x < 0) return nan;
      if (std::isinf(x)) return fixedBits(kInf32);
      return around(f, std::sqrt(x), 0x1p-23L, 0, in.ftz);
    case PtxFamily::Ex2:
      if (std::isinf(x)) return fixedBits(x < 0 ? 0 : kInf32);
      if (x == 0) return fixedBits(f.one);
      return ulpsAround(f, std::exp2(x), 2, in.ftz);
    case PtxFamily::Lg2:
      if (x == 0) return fixedBits(f.signMask | kInf32);
      if (x < 0) return nan;
      if (std::isinf(x)) return fixedBits(kInf32);
      if (x > 0.5L && x < 2.0L) return around(f, std::log2(x), 0, 0x1p-22L, in.ftz);
      return around(f, std::log2(x), 0x1p-22L, 0, in.ftz);
    case PtxFamily::Div: {
      const bool full = hasQualifier(in, ".full");
      if (!full && std::fabs(y) > 0x1p126L && std::isfinite(y)) {
        if (std::isinf(x)) return nan;
        return fixedBits(sx ^ (b & f.signMask));
      }
      if (!full && y != 0 && std::fabs(y) < 0x1p-126L) {
        Expect any;  // below 2^-126 the ISA states no bound for div.approx
        any.kind = Expect::Anything;
        return any;
      }
      // Zero or infinite operands: the IEEE special results.
      if (x == 0 || y == 0 || std::isinf(x) || std::isinf(y)) {
        const double q = static_cast<double>(x) / static_cast<double>(y);
        return std::isnan(q) ? nan : fixedBits(floatBits(static_cast<float>(q)));
      }
      return ulpsAround(f, x / y, 2, in.ftz);
    }
    default:
      return nan;
  }
}

Expect expectHalf(const PtxInstruction& in, const LaneFormat& f, uint64_t a) {
  if (in.ftz) a = f.flush(a);
  const double x = f.toDouble(a);
  Expect nan;
  nan.kind = Expect::AnyNaN;
  if (std::isnan(x)) return nan;
  if (std::isinf(x)) return fixedBits(x < 0 ? 0 : f.expMask());
  if (x == 0) return fixedBits(f.one);
  const long double rel = f.mantBits == 10 ? std::exp2(-9.9L) : 0x1p-7L;
  return around(f, std::exp2(static_cast<long double>(x)), rel, 0, in.ftz);
}

std::string laneCheck(const LaneFormat& f, const Expect& e, uint64_t r) {
  switch (e.kind) {
    case Expect::Anything:
      return {};
    case Expect::AnyNaN:
      return f.isNaN(r) ? std::string() : "a NaN";
    case Expect::Fixed:
      return r == e.fixed ? std::string() : hex(e.fixed);
    case Expect::Interval:
      if (!f.isNaN(r) && ordered(f, r) >= e.lo && ordered(f, r) <= e.hi) return {};
      return "a value within the bound";
  }
  return {};
}

}  // namespace

bool isApproximate(const PtxInstruction& in) {
  return in.approx || in.family == PtxFamily::Ex2 || in.family == PtxFamily::Lg2;
}

std::string approximationBound(const PtxInstruction& in) {
  switch (in.family) {
    case PtxFamily::Rcp:
      return "1 ulp";
    case PtxFamily::Sqrt:
      return "relative error 2^-23";
    case PtxFamily::Lg2:
      return "absolute error 2^-22 in (0.5, 2), relative 2^-22 elsewhere";
    case PtxFamily::Div:
      return hasQualifier(in, ".full") ? "2 ulp" : "2 ulp for |b| in [2^-126, 2^126]";
    case PtxFamily::Ex2:
      if (in.type == ".f16" || in.type == ".f16x2") return "relative error 2^-9.9";
      if (in.type == ".bf16" || in.type == ".bf16x2") return "relative error 2^-7";
      return "2 ulp";
    default:
      return "exact";
  }
}

bool checkApproximate(const PtxInstruction& in, std::span<const uint64_t> srcs, uint64_t result,
                      std::string* why) {
  const TypeInfo t = decodeType(in.type);
  const int n = static_cast<int>(srcs.size());
  if (!isApproximate(in) || n == 0) {
    if (why) *why = in.opcode + " is not an approximate instruction";
    return false;
  }
  for (int lane = 0; lane < t.lanes; ++lane) {
    const int shift = lane * t.bits;
    uint64_t l[3] = {};
    for (int i = 0; i < n && i < 3; ++i)
      l[i] = (srcs[static_cast<size_t>(i)] >> shift) & mask(t.bits);
    const uint64_t r = (result >> shift) & mask(t.bits);
    const LaneFormat& f = formatOf(t.kind);
    const Expect e = t.kind == Kind::F32 ? expectF32(in, l, n) : expectHalf(in, f, l[0]);
    const std::string want = laneCheck(f, e, r);
    if (!want.empty()) {
      if (why)
        *why = in.opcode + (t.lanes > 1 ? " lane " + std::to_string(lane) : std::string()) +
               " gave " + hex(r) + ", expected " + want + " (" + approximationBound(in) + ")";
      return false;
    }
  }
  return true;
}

}  // namespace tirx::sim
