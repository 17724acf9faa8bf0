// One PTX instruction instance on raw bits: decodes the type qualifier (f32, f64, f16, bf16,
// packed f16x2/bf16x2/f32x2, signed/unsigned/bit integers), applies the family's rule per lane with
// the instruction's rounding, .ftz, .sat and .NaN modifiers, and re-encodes the result. Half
// precision arithmetic is computed in double with an exact residual (two-sum) so that the final
// narrowing is a single correct rounding, fma included.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/sim/sim_numerics.h"

namespace tirx::sim {

namespace {

enum class Kind { F16, BF16, F32, F64, S, U, B, Pred, Unknown };

struct TypeInfo {
  Kind kind = Kind::Unknown;
  int bits = 32;   ///< per lane
  int lanes = 1;
};

TypeInfo decodeType(std::string_view t) {
  if (!t.empty() && t[0] == '.') t.remove_prefix(1);
  TypeInfo ti;
  if (t == "f16x2") return {Kind::F16, 16, 2};
  if (t == "bf16x2") return {Kind::BF16, 16, 2};
  if (t == "f32x2") return {Kind::F32, 32, 2};
  if (t == "u16x2") return {Kind::U, 16, 2};
  if (t == "s16x2") return {Kind::S, 16, 2};
  if (t == "f16") return {Kind::F16, 16, 1};
  if (t == "bf16") return {Kind::BF16, 16, 1};
  if (t == "f32") return {Kind::F32, 32, 1};
  if (t == "f64") return {Kind::F64, 64, 1};
  if (t == "pred") return {Kind::Pred, 32, 1};
  if (t.size() >= 2) {
    const char c = t[0];
    int bits = 0;
    for (char d : t.substr(1)) {
      if (d < '0' || d > '9') return ti;
      bits = bits * 10 + (d - '0');
    }
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64) return ti;
    if (c == 's') return {Kind::S, bits, 1};
    if (c == 'u') return {Kind::U, bits, 1};
    if (c == 'b') return {Kind::B, bits, 1};
  }
  return ti;
}

Round roundOf(const std::string& r, Round fallback = Round::Rn) {
  if (r == ".rz" || r == ".rzi") return Round::Rz;
  if (r == ".rm" || r == ".rmi") return Round::Rm;
  if (r == ".rp" || r == ".rpi") return Round::Rp;
  if (r == ".rn" || r == ".rni") return Round::Rn;
  return fallback;
}

uint64_t mask(int bits) { return bits >= 64 ? ~uint64_t{0} : ((uint64_t{1} << bits) - 1); }

int64_t sext(uint64_t v, int bits) {
  if (bits >= 64) return static_cast<int64_t>(v);
  const uint64_t m = uint64_t{1} << (bits - 1);
  v &= mask(bits);
  return static_cast<int64_t>((v ^ m) - m);
}

bool hasQual(const PtxInstruction& in, std::string_view q) {
  for (const auto& x : in.qualifiers)
    if (x == q) return true;
  return false;
}

/// Two-sum: s + err == a + b exactly.
void twoSum(double a, double b, double& s, double& err) {
  s = a + b;
  const double bb = s - a;
  err = (a - (s - bb)) + (b - bb);
}

int signOf(double x) { return x > 0 ? 1 : (x < 0 ? -1 : 0); }

double halfToDouble(Kind k, uint64_t bits) {
  return k == Kind::F16 ? f16ToF32(static_cast<uint16_t>(bits))
                        : bf16ToF32(static_cast<uint16_t>(bits));
}

uint64_t narrowHalf(Kind k, double v, int sticky, Round m) {
  return k == Kind::F16 ? roundToFormat(v, sticky, 10, 5, m) : roundToFormat(v, sticky, 7, 8, m);
}

bool isHalfSubnormal(Kind k, uint64_t b) {
  const uint64_t exp = k == Kind::F16 ? (b >> 10) & 0x1f : (b >> 7) & 0xff;
  const uint64_t man = k == Kind::F16 ? b & 0x3ff : b & 0x7f;
  return exp == 0 && man != 0;
}

uint64_t flushHalf(Kind k, uint64_t b) { return isHalfSubnormal(k, b) ? (b & 0x8000) : b; }

/// One lane of a half-precision (f16/bf16) arithmetic instruction.
bool halfLane(const PtxInstruction& in, Kind k, const uint64_t* s, int n, uint64_t& out,
              std::string* why) {
  const Round m = roundOf(in.rounding);
  uint64_t a[3] = {};
  for (int i = 0; i < n && i < 3; ++i) a[i] = in.ftz ? flushHalf(k, s[i]) : s[i];
  double x[3] = {};
  for (int i = 0; i < n && i < 3; ++i) x[i] = halfToDouble(k, a[i]);
  double v = 0, err = 0;
  switch (in.family) {
    case PtxFamily::Add: twoSum(x[0], x[1], v, err); break;
    case PtxFamily::Sub: twoSum(x[0], -x[1], v, err); break;
    case PtxFamily::Mul: v = x[0] * x[1]; break;  // exact in double
    case PtxFamily::Fma: twoSum(x[0] * x[1], x[2], v, err); break;
    case PtxFamily::Min:
    case PtxFamily::Max: {
      float r = static_cast<float>(x[0]);
      for (int i = 1; i < n; ++i)
        r = in.family == PtxFamily::Min ? minF32(r, static_cast<float>(x[i]), in.nanMode)
                                        : maxF32(r, static_cast<float>(x[i]), in.nanMode);
      if (std::isnan(r)) {
        out = k == Kind::F16 ? 0x7fff : 0x7fff;
        return true;
      }
      v = r;
      break;
    }
    case PtxFamily::Abs: out = a[0] & 0x7fff; return true;
    case PtxFamily::Neg: out = a[0] ^ 0x8000; return true;
    default:
      if (why) *why = "the simulator does not model " + in.opcode;
      return false;
  }
  if (std::isnan(v)) {
    out = 0x7fff;
    return true;
  }
  uint64_t r = narrowHalf(k, v, signOf(err), m);
  if (in.ftz) r = flushHalf(k, r);
  if (in.sat) {
    const double rv = halfToDouble(k, r);
    if (std::isnan(rv) || rv <= 0) r = 0;
    else if (rv > 1) r = narrowHalf(k, 1.0, 0, Round::Rn);
  }
  out = r;
  return true;
}

/// One lane of an f32 instruction.
bool f32Lane(const PtxInstruction& in, const uint64_t* s, int n, uint64_t& out, std::string* why) {
  const Round m = roundOf(in.rounding);
  float x[3] = {};
  for (int i = 0; i < n && i < 3; ++i) {
    x[i] = bitsFloat(static_cast<uint32_t>(s[i]));
    if (in.ftz) x[i] = flushF32(x[i]);
  }
  float r = 0;
  switch (in.family) {
    case PtxFamily::Add: r = addF32(x[0], x[1], m); break;
    case PtxFamily::Sub: r = subF32(x[0], x[1], m); break;
    case PtxFamily::Mul: r = mulF32(x[0], x[1], m); break;
    case PtxFamily::Fma: r = fmaF32(x[0], x[1], x[2], m); break;
    case PtxFamily::Div:
      r = in.approx ? x[0] * (1.0f / x[1]) : divF32(x[0], x[1], m);
      if (in.approx && std::isinf(x[1]) && std::isfinite(x[0])) r = std::copysign(0.0f, x[0] * x[1]);
      break;
    case PtxFamily::Rcp: r = in.approx ? 1.0f / x[0] : divF32(1.0f, x[0], m); break;
    case PtxFamily::Sqrt: r = in.approx ? std::sqrt(x[0]) : sqrtF32(x[0], m); break;
    case PtxFamily::Ex2: r = std::exp2(x[0]); break;
    case PtxFamily::Lg2: r = std::log2(x[0]); break;
    case PtxFamily::Min:
      r = x[0];
      for (int i = 1; i < n; ++i) r = minF32(r, x[i], in.nanMode);
      break;
    case PtxFamily::Max:
      r = x[0];
      for (int i = 1; i < n; ++i) r = maxF32(r, x[i], in.nanMode);
      break;
    case PtxFamily::Abs: out = floatBits(x[0]) & 0x7fffffffu; return true;
    case PtxFamily::Neg: out = floatBits(x[0]) ^ 0x80000000u; return true;
    default:
      if (why) *why = "the simulator does not model " + in.opcode;
      return false;
  }
  if (in.ftz) r = flushF32(r);
  if (in.sat) r = saturateF32(r);
  out = floatBits(r);
  return true;
}

bool f64Op(const PtxInstruction& in, const uint64_t* s, int n, uint64_t& out, std::string* why) {
  double x[3] = {};
  for (int i = 0; i < n && i < 3; ++i) x[i] = bitsDouble(s[i]);
  double r = 0;
  switch (in.family) {
    case PtxFamily::Add: r = x[0] + x[1]; break;
    case PtxFamily::Sub: r = x[0] - x[1]; break;
    case PtxFamily::Mul: r = x[0] * x[1]; break;
    case PtxFamily::Fma: r = std::fma(x[0], x[1], x[2]); break;
    case PtxFamily::Div: r = x[0] / x[1]; break;
    case PtxFamily::Rcp: r = 1.0 / x[0]; break;
    case PtxFamily::Sqrt: r = std::sqrt(x[0]); break;
    case PtxFamily::Min:
    case PtxFamily::Max: {
      r = x[0];
      for (int i = 1; i < n; ++i) {
        const bool na = std::isnan(r), nb = std::isnan(x[i]);
        if (na || nb) r = (in.nanMode || (na && nb)) ? std::nan("") : (na ? x[i] : r);
        else if (in.family == PtxFamily::Min) r = (x[i] < r || (x[i] == r && std::signbit(x[i]))) ? x[i] : r;
        else r = (x[i] > r || (x[i] == r && !std::signbit(x[i]))) ? x[i] : r;
      }
      break;
    }
    case PtxFamily::Abs: out = s[0] & ~(uint64_t{1} << 63); return true;
    case PtxFamily::Neg: out = s[0] ^ (uint64_t{1} << 63); return true;
    default:
      if (why) *why = "the simulator does not model " + in.opcode;
      return false;
  }
  out = doubleBits(r);
  return true;
}

bool intOp(const PtxInstruction& in, const TypeInfo& t, const uint64_t* s, int n, uint64_t& out,
           std::string* why) {
  const bool sgn = t.kind == Kind::S;
  const int b = t.bits;
  auto val = [&](int i) { return sgn ? sext(s[i], b) : static_cast<int64_t>(s[i] & mask(b)); };
  const uint64_t ua = s[0] & mask(b), ub = n > 1 ? s[1] & mask(b) : 0;
  uint64_t r = 0;
  switch (in.family) {
    case PtxFamily::Add:
    case PtxFamily::Sub: {
      r = in.family == PtxFamily::Add ? ua + ub : ua - ub;
      if (in.sat && sgn && b == 32) {
        const int64_t w = in.family == PtxFamily::Add ? val(0) + val(1) : val(0) - val(1);
        r = static_cast<uint64_t>(std::clamp<int64_t>(w, INT32_MIN, INT32_MAX));
      }
      break;
    }
    case PtxFamily::Mul: {
      const bool hi = hasQual(in, "hi"), wide = hasQual(in, "wide");
      if (wide || hi) {
        if (b > 32) {
          const __int128 p = sgn ? static_cast<__int128>(val(0)) * val(1)
                                 : static_cast<__int128>(static_cast<unsigned __int128>(ua) * ub);
          r = hi ? static_cast<uint64_t>(static_cast<unsigned __int128>(p) >> 64)
                 : static_cast<uint64_t>(p);
        } else {
          const int64_t p = sgn ? val(0) * val(1) : static_cast<int64_t>(ua * ub);
          r = hi ? static_cast<uint64_t>(p) >> b : static_cast<uint64_t>(p);
          if (wide) {
            out = static_cast<uint64_t>(p) & mask(2 * b);
            return true;
          }
        }
      } else {
        r = ua * ub;
      }
      break;
    }
    case PtxFamily::Min:
    case PtxFamily::Max: {
      int64_t best = val(0);
      for (int i = 1; i < n; ++i) {
        const int64_t v = val(i);
        if (sgn) best = in.family == PtxFamily::Min ? std::min(best, v) : std::max(best, v);
        else best = static_cast<int64_t>(in.family == PtxFamily::Min
                                             ? std::min<uint64_t>(best, v)
                                             : std::max<uint64_t>(best, v));
      }
      r = static_cast<uint64_t>(best);
      break;
    }
    case PtxFamily::Abs: r = static_cast<uint64_t>(val(0) < 0 ? -val(0) : val(0)); break;
    case PtxFamily::Neg: r = static_cast<uint64_t>(-val(0)); break;
    case PtxFamily::Div:
      if (ub == 0) {
        r = mask(b);  // PTX leaves it unspecified; all ones like the hardware
      } else {
        r = sgn ? static_cast<uint64_t>(val(0) / val(1)) : ua / ub;
      }
      break;
    default:
      if (why) *why = "the simulator does not model " + in.opcode;
      return false;
  }
  out = r & mask(b);
  return true;
}

bool cvtOp(const PtxInstruction& in, const uint64_t* s, int n, uint64_t& out, std::string* why);

}  // namespace

bool execPtx(const PtxInstruction& in, std::span<const uint64_t> srcs, uint64_t& dst,
             std::string* why) {
  const int n = static_cast<int>(srcs.size());
  if (in.family == PtxFamily::Mov) {
    dst = n > 0 ? srcs[0] : 0;
    return true;
  }
  if (in.family == PtxFamily::Cvt) return cvtOp(in, srcs.data(), n, dst, why);
  if (in.family == PtxFamily::Ld || in.family == PtxFamily::St) {
    if (why) *why = "memory instructions are executed by the simulator's executor";
    return false;
  }
  const TypeInfo t = decodeType(in.type);
  if (t.kind == Kind::Unknown || n == 0 || n > 3) {
    if (why) *why = "the simulator does not model the type of " + in.opcode;
    return false;
  }
  uint64_t result = 0;
  for (int lane = 0; lane < t.lanes; ++lane) {
    const int shift = lane * t.bits;
    uint64_t l[3] = {};
    for (int i = 0; i < n; ++i) l[i] = (srcs[i] >> shift) & mask(t.bits);
    uint64_t r = 0;
    bool ok = false;
    switch (t.kind) {
      case Kind::F16:
      case Kind::BF16: ok = halfLane(in, t.kind, l, n, r, why); break;
      case Kind::F32: ok = f32Lane(in, l, n, r, why); break;
      case Kind::F64: ok = f64Op(in, l, n, r, why); break;
      default: ok = intOp(in, t, l, n, r, why); break;
    }
    if (!ok) return false;
    if (in.family == PtxFamily::Mul && hasQual(in, "wide") && t.lanes == 1) {
      dst = r;
      return true;
    }
    result |= (r & mask(t.bits)) << shift;
  }
  dst = result;
  return true;
}

namespace {

/// A decoded scalar: floating value (exact in double) or integer.
struct Scalar {
  bool isFloat = true;
  double f = 0;
  int64_t i = 0;
  uint64_t u = 0;
  bool isSigned = false;
};

Scalar decodeScalar(const TypeInfo& t, uint64_t bits) {
  Scalar v;
  switch (t.kind) {
    case Kind::F16: v.f = f16ToF32(static_cast<uint16_t>(bits)); break;
    case Kind::BF16: v.f = bf16ToF32(static_cast<uint16_t>(bits)); break;
    case Kind::F32: v.f = bitsFloat(static_cast<uint32_t>(bits)); break;
    case Kind::F64: v.f = bitsDouble(bits); break;
    case Kind::S:
      v.isFloat = false;
      v.isSigned = true;
      v.i = sext(bits, t.bits);
      break;
    default:
      v.isFloat = false;
      v.u = bits & mask(t.bits);
      v.i = static_cast<int64_t>(v.u);
      break;
  }
  return v;
}

/// Float to integer with PTX's saturating semantics (NaN → 0).
uint64_t floatToInt(double f, const TypeInfo& d, Round m) {
  if (std::isnan(f)) return 0;
  double r = f;
  switch (m) {
    case Round::Rn: r = std::nearbyint(f); break;  // default env mode is nearest-even
    case Round::Rz: r = std::trunc(f); break;
    case Round::Rm: r = std::floor(f); break;
    case Round::Rp: r = std::ceil(f); break;
  }
  if (d.kind == Kind::S) {
    const double lo = -std::ldexp(1.0, d.bits - 1), hi = std::ldexp(1.0, d.bits - 1) - 1;
    if (r <= lo) return static_cast<uint64_t>(static_cast<int64_t>(lo)) & mask(d.bits);
    if (r >= hi) return static_cast<uint64_t>(d.bits == 64 ? INT64_MAX : static_cast<int64_t>(hi));
    return static_cast<uint64_t>(static_cast<int64_t>(r)) & mask(d.bits);
  }
  if (r <= 0) return 0;
  if (r >= std::ldexp(1.0, d.bits)) return mask(d.bits);
  return static_cast<uint64_t>(r) & mask(d.bits);
}

/// Integer (exact as int64/uint64) to float with the given rounding; values beyond 2^53 keep a
/// residual so that the narrowing is still a single rounding.
uint64_t intToFloat(const Scalar& v, const TypeInfo& d, Round m) {
  double x;
  int sticky = 0;
  if (v.isSigned) {
    x = static_cast<double>(v.i);
    const int64_t back = static_cast<int64_t>(x);
    if (x < 9.2e18 && back != v.i) sticky = v.i > back ? 1 : -1;
  } else {
    x = static_cast<double>(v.u);
    if (x < 1.8e19) {
      const uint64_t back = static_cast<uint64_t>(x);
      if (back != v.u) sticky = v.u > back ? 1 : -1;
    }
  }
  switch (d.kind) {
    case Kind::F16: return roundToFormat(x, sticky, 10, 5, m);
    case Kind::BF16: return roundToFormat(x, sticky, 7, 8, m);
    case Kind::F32: return roundToFormat(x, sticky, 23, 8, m);
    default: return doubleBits(x);
  }
}

bool cvtOp(const PtxInstruction& in, const uint64_t* s, int n, uint64_t& out, std::string* why) {
  const TypeInfo d = decodeType(in.type), st = decodeType(in.srcType);
  if (d.kind == Kind::Unknown || st.kind == Kind::Unknown || n < 1) {
    if (why) *why = "the simulator does not model " + in.opcode;
    return false;
  }
  const bool dFloat = d.kind == Kind::F16 || d.kind == Kind::BF16 || d.kind == Kind::F32 ||
                      d.kind == Kind::F64;
  // Packed destination: cvt.rn.f16x2.f32 d, hi, lo  ->  d = f16(hi) << 16 | f16(lo).
  if (d.lanes == 2) {
    if (n < 2 || st.kind != Kind::F32) {
      if (why) *why = "the simulator does not model " + in.opcode;
      return false;
    }
    const Round m = roundOf(in.rounding);
    uint64_t half[2];
    for (int i = 0; i < 2; ++i) {
      float x = bitsFloat(static_cast<uint32_t>(s[i]));
      if (in.ftz) x = flushF32(x);
      uint64_t h = narrowHalf(d.kind, x, 0, m);
      if (in.sat) {
        const double hv = halfToDouble(d.kind, h);
        h = (std::isnan(hv) || hv <= 0) ? 0 : (hv > 1 ? narrowHalf(d.kind, 1.0, 0, m) : h);
      }
      half[i] = h & 0xffff;
    }
    out = (half[0] << 16) | half[1];
    return true;
  }
  Scalar v = decodeScalar(st, s[0]);
  const bool isIntRound = in.rounding.size() == 4;  // .rni/.rzi/.rmi/.rpi
  if (v.isFloat && in.ftz && st.kind == Kind::F32) v.f = flushF32(static_cast<float>(v.f));
  if (dFloat) {
    const Round m = roundOf(in.rounding);
    double x = v.isFloat ? v.f : 0;
    uint64_t r;
    if (!v.isFloat) {
      r = intToFloat(v, d, m);
    } else {
      if (isIntRound && std::isfinite(x)) {
        switch (m) {
          case Round::Rn: x = std::nearbyint(x); break;
          case Round::Rz: x = std::trunc(x); break;
          case Round::Rm: x = std::floor(x); break;
          case Round::Rp: x = std::ceil(x); break;
        }
      }
      const Round fm = isIntRound ? Round::Rn : m;
      switch (d.kind) {
        case Kind::F16: r = roundToFormat(x, 0, 10, 5, fm); break;
        case Kind::BF16: r = roundToFormat(x, 0, 7, 8, fm); break;
        case Kind::F32: r = roundToFormat(x, 0, 23, 8, fm); break;
        default: r = doubleBits(x); break;
      }
    }
    if (d.kind == Kind::F32) {
      float f = bitsFloat(static_cast<uint32_t>(r));
      if (in.ftz) f = flushF32(f);
      if (in.sat) f = saturateF32(f);
      r = floatBits(f);
    } else if (in.sat && d.kind != Kind::F64) {
      const double hv = halfToDouble(d.kind, r);
      r = (std::isnan(hv) || hv <= 0) ? 0 : (hv > 1 ? narrowHalf(d.kind, 1.0, 0, Round::Rn) : r);
    }
    out = r & mask(d.bits);
    return true;
  }
  // Integer destination.
  if (v.isFloat) {
    out = floatToInt(v.f, d, roundOf(in.rounding, Round::Rz));
    return true;
  }
  int64_t x = v.isSigned ? v.i : static_cast<int64_t>(v.u);
  if (in.sat) {
    if (d.kind == Kind::S) {
      const int64_t lo = d.bits >= 64 ? INT64_MIN : -(int64_t{1} << (d.bits - 1));
      const int64_t hi = d.bits >= 64 ? INT64_MAX : (int64_t{1} << (d.bits - 1)) - 1;
      if (v.isSigned) x = std::clamp(x, lo, hi);
      else if (v.u > static_cast<uint64_t>(hi)) x = hi;
    } else if (v.isSigned && x < 0) {
      x = 0;
    } else if (d.bits < 64 && static_cast<uint64_t>(x) > mask(d.bits)) {
      x = static_cast<int64_t>(mask(d.bits));
    }
  }
  out = static_cast<uint64_t>(x) & mask(d.bits);
  return true;
}

}  // namespace

}  // namespace tirx::sim
