// One PTX instruction instance on raw bits: decodes the type qualifier (f32, f64, f16, bf16,
// packed f16x2/bf16x2/f32x2/u16x2/s16x2, signed/unsigned/bit integers), applies the family's rule
// per lane with the instruction's rounding, .ftz, .sat, .relu, .NaN and .xorsign.abs modifiers,
// and re-encodes the result (cvt is in ptx_cvt.cpp). Half-precision arithmetic is computed in
// double with an exact residual (two-sum) so that the final narrowing is a single correct
// rounding, fma included. NaN results of f16/bf16/f32 arithmetic are the canonical NaN of the
// format (kCanonicalNaN*); f64 propagates a NaN operand, quieted, and gives kDefaultNaN64 for an
// invalid operation; .ftz flushes a result that is tiny before rounding (both measured on the
// H200, docs/decisions.md "OPEN-12").
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/sim/ptx_lanes.h"
#include "core/sim/sim_numerics.h"

namespace tirx::sim {

namespace {

using namespace lanes;

/// Two-sum: s + err == a + b exactly.
void twoSum(double a, double b, double& s, double& err) {
  s = a + b;
  const double bb = s - a;
  err = (a - (s - bb)) + (b - bb);
}

int signOf(double x) {
  return x > 0 ? 1 : (x < 0 ? -1 : 0);
}

/// PTX min/max of two lane values (min_num/max_num or, with .NaN, min_nan/max_nan) on raw bits;
/// -0 orders below +0. A NaN result is the format's canonical NaN.
uint64_t minMaxBits(bool isMax, bool nanMode, const LaneFormat& f, uint64_t x, uint64_t y) {
  const bool nx = f.isNaN(x), ny = f.isNaN(y);
  if (nx || ny) {
    if (nanMode || (nx && ny)) return f.canonicalNaN;
    return nx ? y : x;
  }
  const double vx = f.toDouble(x), vy = f.toDouble(y);
  bool pickX;
  if (vx == vy)
    pickX = isMax ? !f.signBit(x) : f.signBit(x);  // ±0: +0 > -0
  else
    pickX = isMax ? vx > vy : vx < vy;
  return pickX ? x : y;
}

/// min/max with every modifier (PTX ISA 9.7.3.11/12, 9.7.4.7/8): .ftz flushes the inputs,
/// .xorsign.abs compares magnitudes and gives the result the XOR of the input signs, three inputs
/// fold left; a NaN result ignores .xorsign.
uint64_t minMaxLane(const PtxInstruction& in, const LaneFormat& f, const uint64_t* s, int n) {
  const bool isMax = in.family == PtxFamily::Max;
  const bool xorsign = hasQualifier(in, ".xorsign");
  const bool abs = hasQualifier(in, ".abs");
  uint64_t v[3] = {};
  for (int i = 0; i < n && i < 3; ++i) v[i] = in.ftz ? f.flush(s[i]) : s[i];
  const bool sign = n >= 2 && (f.signBit(v[0]) != f.signBit(v[1]));
  if (abs)
    for (int i = 0; i < n && i < 3; ++i) v[i] &= ~f.signMask;
  uint64_t d = minMaxBits(isMax, in.nanMode, f, v[0], v[1]);
  if (n == 3) d = minMaxBits(isMax, in.nanMode, f, d, v[2]);
  if (xorsign && !f.isNaN(d)) d = (d & ~f.signMask) | (sign ? f.signMask : 0);
  return d;
}

/// .relu: negative results (and -0) become +0, NaN the canonical NaN.
uint64_t reluBits(const LaneFormat& f, uint64_t r) {
  if (f.isNaN(r)) return f.canonicalNaN;
  return f.signBit(r) ? 0 : r;
}

/// .sat: clamp to [+0, 1]; NaN → +0.
uint64_t satBits(const LaneFormat& f, uint64_t r) {
  if (f.isNaN(r) || f.signBit(r)) return 0;
  return f.toDouble(r) > 1.0 ? f.one : r;
}

/// The approximate transcendental functions of the simulator, within the documented bound:
/// computed in double and rounded once to the lane format.
double approxValue(PtxFamily fam, double x) {
  switch (fam) {
    case PtxFamily::Ex2:
      return std::exp2(x);
    case PtxFamily::Lg2:
      return std::log2(x);
    case PtxFamily::Rcp:
      return 1.0 / x;
    case PtxFamily::Sqrt:
      return std::sqrt(x);
    default:
      return x;
  }
}

/// The exact result of an IEEE f32 operation on (already flushed) operands as a double `v` plus
/// the sign of what the double leaves out: sums, products and fma through an exact two-sum;
/// quotients and square roots through their exact fma residual.
void exactF32(PtxFamily fam, const float* x, double& v, int& sticky) {
  const double a = x[0], b = x[1], c = x[2];
  double err = 0;
  switch (fam) {
    case PtxFamily::Add:
      twoSum(a, b, v, err);
      break;
    case PtxFamily::Sub:
      twoSum(a, -b, v, err);
      break;
    case PtxFamily::Mul:
      v = a * b;
      break;  // 48 significant bits: exact
    case PtxFamily::Fma:
      twoSum(a * b, c, v, err);
      break;
    case PtxFamily::Div:
    case PtxFamily::Rcp: {
      const double num = fam == PtxFamily::Rcp ? 1.0 : a, den = fam == PtxFamily::Rcp ? a : b;
      v = num / den;
      err = std::fma(-v, den, num) * (den < 0 ? -1.0 : 1.0);  // num - v·den, exact
      break;
    }
    default:  // sqrt
      v = std::sqrt(a);
      err = std::fma(-v, v, a);
      break;
  }
  sticky = signOf(err);
}

/// .ftz on a rounded IEEE f32 result: subnormals, and ±FLT_MIN when the exact result was below
/// FLT_MIN before rounding (mul.rn.ftz.f32 0x3f7fffff × 0x00800000 is +0 on the H200).
float ftzF32(PtxFamily fam, const float* x, float r, Round m) {
  const uint32_t b = floatBits(r);
  if ((b & 0x7fffffffu) != 0x00800000u) return flushF32(r);
  double v = 0;
  int sticky = 0;
  exactF32(fam, x, v, sticky);
  return bitsFloat(static_cast<uint32_t>(kF32.flushResult(b, v, sticky, m)));
}

/// One lane of a half-precision (f16/bf16) instruction.
bool halfLane(const PtxInstruction& in, const LaneFormat& f, const uint64_t* s, int n,
              uint64_t& out, std::string* why) {
  if (in.family == PtxFamily::Min || in.family == PtxFamily::Max) {
    out = minMaxLane(in, f, s, n);
    return true;
  }
  uint64_t a[3] = {};
  for (int i = 0; i < n && i < 3; ++i) a[i] = in.ftz ? f.flush(s[i]) : s[i];
  double x[3] = {};
  for (int i = 0; i < n && i < 3; ++i) x[i] = f.toDouble(a[i]);
  double v = 0, err = 0;
  switch (in.family) {
    case PtxFamily::Add:
      twoSum(x[0], x[1], v, err);
      break;
    case PtxFamily::Sub:
      twoSum(x[0], -x[1], v, err);
      break;
    case PtxFamily::Mul:
      v = x[0] * x[1];
      break;  // exact in double
    case PtxFamily::Fma:
      twoSum(x[0] * x[1], x[2], v, err);
      break;
    case PtxFamily::Ex2:
      v = approxValue(in.family, x[0]);
      break;
    case PtxFamily::Abs:
      out = f.isNaN(a[0]) ? f.canonicalNaN : a[0] & ~f.signMask;
      return true;
    case PtxFamily::Neg:
      out = f.isNaN(a[0]) ? f.canonicalNaN : a[0] ^ f.signMask;
      return true;
    default:
      if (why) *why = "the simulator does not model " + in.opcode;
      return false;
  }
  uint64_t r = std::isnan(v) ? f.canonicalNaN : f.fromDouble(v, signOf(err), Round::Rn);
  if (in.ftz && !f.isNaN(r)) {
    // An approximate result (ex2) is not the exact value: only its rounded result is flushed.
    r = isApproximate(in) ? f.flush(r) : f.flushResult(r, v, signOf(err), Round::Rn);
  }
  if (hasQualifier(in, ".relu")) r = reluBits(f, r);
  if (in.sat) r = satBits(f, r);
  out = r;
  return true;
}

/// One lane of an f32 instruction (also each lane of .f32x2).
bool f32Lane(const PtxInstruction& in, const uint64_t* s, int n, uint64_t& out, std::string* why) {
  const LaneFormat& f = kF32;
  if (in.family == PtxFamily::Min || in.family == PtxFamily::Max) {
    out = minMaxLane(in, f, s, n);
    return true;
  }
  const Round m = roundingOf(in.rounding);
  float x[3] = {};
  for (int i = 0; i < n && i < 3; ++i) {
    x[i] = bitsFloat(static_cast<uint32_t>(s[i]));
    if (in.ftz) x[i] = flushF32(x[i]);
  }
  float r = 0;
  switch (in.family) {
    case PtxFamily::Add:
      r = addF32(x[0], x[1], m);
      break;
    case PtxFamily::Sub:
      r = subF32(x[0], x[1], m);
      break;
    case PtxFamily::Mul:
      r = mulF32(x[0], x[1], m);
      break;
    case PtxFamily::Fma:
      r = fmaF32(x[0], x[1], x[2], m);
      break;
    case PtxFamily::Div:
      if (!in.approx || hasQualifier(in, ".full")) {
        r = divF32(x[0], x[1], m);  // div.full: within 2 ulp; the correctly rounded quotient is
      } else if (std::fabs(x[1]) > 0x1p126f && std::isfinite(x[1])) {
        // div.approx for 2^126 < |b| < 2^128: a sign-preserving zero, or NaN for an infinite
        // (or NaN) a.
        r = !std::isfinite(x[0]) ? NAN : std::copysign(0.0f, x[0]) * std::copysign(1.0f, x[1]);
      } else {
        r = x[0] * (1.0f / x[1]);  // d = a * (1/b), as documented
      }
      break;
    case PtxFamily::Rcp:
      r = in.approx ? 1.0f / x[0] : divF32(1.0f, x[0], m);
      break;
    case PtxFamily::Sqrt:
      r = in.approx ? std::sqrt(x[0]) : sqrtF32(x[0], m);
      break;
    case PtxFamily::Ex2:
      r = static_cast<float>(approxValue(in.family, x[0]));
      break;
    case PtxFamily::Lg2:
      r = static_cast<float>(approxValue(in.family, x[0]));
      break;
    case PtxFamily::Abs:
      out = std::isnan(x[0]) ? kCanonicalNaN32 : floatBits(x[0]) & 0x7fffffffu;
      return true;
    case PtxFamily::Neg:
      out = std::isnan(x[0]) ? kCanonicalNaN32 : floatBits(x[0]) ^ 0x80000000u;
      return true;
    default:
      if (why) *why = "the simulator does not model " + in.opcode;
      return false;
  }
  if (in.ftz) r = isApproximate(in) || std::isnan(r) ? flushF32(r) : ftzF32(in.family, x, r, m);
  if (in.sat) r = saturateF32(r);
  out = std::isnan(r) ? kCanonicalNaN32 : floatBits(r);
  return true;
}

/// f64 (measured on the H200, docs/decisions.md "OPEN-12"): a NaN operand comes back with its
/// quiet bit set, sign and payload kept — the first NaN in operand order; abs, neg and sub leave
/// its sign alone. min/max return the other operand for one NaN and the first, quieted, for
/// two. An invalid operation gives kDefaultNaN64.
bool f64Op(const PtxInstruction& in, const uint64_t* s, int n, uint64_t& out, std::string* why) {
  int nans = 0, first = -1;
  for (int i = 0; i < n && i < 3; ++i) {
    if (!kF64.isNaN(s[i])) continue;
    ++nans;
    if (first < 0) first = i;
  }
  if (in.family == PtxFamily::Min || in.family == PtxFamily::Max) {
    out = nans == n ? s[0] | kF64.quietBit() : minMaxLane(in, kF64, s, n);
    return true;
  }
  if (first >= 0) {
    switch (in.family) {
      case PtxFamily::Add:
      case PtxFamily::Sub:
      case PtxFamily::Mul:
      case PtxFamily::Fma:
      case PtxFamily::Div:
      case PtxFamily::Rcp:
      case PtxFamily::Sqrt:
      case PtxFamily::Abs:
      case PtxFamily::Neg:
        out = s[first] | kF64.quietBit();
        return true;
      default:
        break;
    }
  }
  const Round m = roundingOf(in.rounding);
  double x[3] = {};
  for (int i = 0; i < n && i < 3; ++i) x[i] = bitsDouble(s[i]);
  double r = 0;
  switch (in.family) {
    case PtxFamily::Add:
      r = addF64(x[0], x[1], m);
      break;
    case PtxFamily::Sub:
      r = subF64(x[0], x[1], m);
      break;
    case PtxFamily::Mul:
      r = mulF64(x[0], x[1], m);
      break;
    case PtxFamily::Fma:
      r = fmaF64(x[0], x[1], x[2], m);
      break;
    case PtxFamily::Div:
      r = divF64(x[0], x[1], m);
      break;
    case PtxFamily::Rcp:
      r = divF64(1.0, x[0], m);
      break;
    case PtxFamily::Sqrt:
      r = sqrtF64(x[0], m);
      break;
    case PtxFamily::Abs:
      out = s[0] & ~(uint64_t{1} << 63);
      return true;
    case PtxFamily::Neg:
      out = s[0] ^ (uint64_t{1} << 63);
      return true;
    default:
      if (why) *why = "the simulator does not model " + in.opcode;
      return false;
  }
  out = std::isnan(r) ? kDefaultNaN64 : doubleBits(r);
  return true;
}

/// Integer multiply: .lo keeps the low `b` bits, .hi the high `b` bits of the 2b-bit product,
/// .wide the whole product (the destination is twice as wide).
uint64_t mulInt(bool sgn, int b, uint64_t ua, uint64_t ub, bool hi, bool wide) {
  unsigned __int128 p;
  if (sgn)
    p = static_cast<unsigned __int128>(static_cast<__int128>(sext(ua, b)) * sext(ub, b));
  else
    p = static_cast<unsigned __int128>(ua) * ub;
  if (wide) return static_cast<uint64_t>(p) & mask(2 * b);
  if (hi) return static_cast<uint64_t>(p >> b) & mask(b);
  return static_cast<uint64_t>(p) & mask(b);
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
      if (in.sat && sgn && b == 32) {  // .sat is only accepted on .s32
        const int64_t w = in.family == PtxFamily::Add ? val(0) + val(1) : val(0) - val(1);
        r = static_cast<uint64_t>(std::clamp<int64_t>(w, INT32_MIN, INT32_MAX));
      }
      break;
    }
    case PtxFamily::Mul: {
      const bool wide = hasQualifier(in, ".wide");
      out = mulInt(sgn, b, ua, ub, hasQualifier(in, ".hi"), wide);
      if (wide) return true;  // the destination is 2b bits wide
      r = out;
      break;
    }
    case PtxFamily::Min:
    case PtxFamily::Max: {
      const bool isMin = in.family == PtxFamily::Min;
      if (sgn) {
        int64_t best = val(0);
        for (int i = 1; i < n; ++i) best = isMin ? std::min(best, val(i)) : std::max(best, val(i));
        if (hasQualifier(in, ".relu")) best = std::max<int64_t>(best, 0);
        r = static_cast<uint64_t>(best);
      } else {
        uint64_t best = ua;
        for (int i = 1; i < n; ++i) {
          const uint64_t v = s[i] & mask(b);
          best = isMin ? std::min(best, v) : std::max(best, v);
        }
        r = best;
      }
      break;
    }
    // Two's complement with wrap-around: |INT_MIN| and -INT_MIN are INT_MIN.
    case PtxFamily::Abs:
      r = val(0) < 0 ? uint64_t{0} - ua : ua;
      break;
    case PtxFamily::Neg:
      r = uint64_t{0} - ua;
      break;
    case PtxFamily::Div:
      if (ub == 0) {
        r = mask(b);  // PTX: unspecified, machine-specific; all ones
      } else if (sgn) {
        const int64_t x = val(0), y = val(1);
        // INT_MIN / -1 overflows: the quotient wraps to INT_MIN (and never traps on the host).
        r = (y == -1) ? uint64_t{0} - ua : static_cast<uint64_t>(x / y);
      } else {
        r = ua / ub;
      }
      break;
    default:
      if (why) *why = "the simulator does not model " + in.opcode;
      return false;
  }
  out = r & mask(b);
  return true;
}

}  // namespace

bool execPtx(const PtxInstruction& in, std::span<const uint64_t> srcs, uint64_t& dst,
             std::string* why) {
  const int n = static_cast<int>(srcs.size());
  if (in.family == PtxFamily::Mov) {
    const TypeInfo t = decodeType(in.type);
    dst = n > 0 ? srcs[0] & mask(t.kind == Kind::Unknown ? 64 : t.bits * t.lanes) : 0;
    return true;
  }
  if (in.family == PtxFamily::Cvt) return execCvt(in, srcs, dst, why);
  if (in.family == PtxFamily::Ld || in.family == PtxFamily::St) {
    if (why) *why = "memory instructions are executed by the simulator's executor";
    return false;
  }
  const TypeInfo t = decodeType(in.type);
  if (t.kind == Kind::Unknown || t.kind == Kind::Pred || n == 0 || n > 3) {
    if (why) *why = "the simulator does not model the type of " + in.opcode;
    return false;
  }
  const bool wide = in.family == PtxFamily::Mul && hasQualifier(in, ".wide");
  uint64_t result = 0;
  for (int lane = 0; lane < t.lanes; ++lane) {
    const int shift = lane * t.bits;
    uint64_t l[3] = {};
    for (int i = 0; i < n; ++i) l[i] = (srcs[i] >> shift) & mask(t.bits);
    uint64_t r = 0;
    bool ok = false;
    switch (t.kind) {
      case Kind::F16:
        ok = halfLane(in, kF16, l, n, r, why);
        break;
      case Kind::BF16:
        ok = halfLane(in, kBF16, l, n, r, why);
        break;
      case Kind::F32:
        ok = f32Lane(in, l, n, r, why);
        break;
      case Kind::F64:
        ok = f64Op(in, l, n, r, why);
        break;
      default:
        ok = intOp(in, t, l, n, r, why);
        break;
    }
    if (!ok) return false;
    if (wide) {
      dst = r;
      return true;
    }
    result |= (r & mask(t.bits)) << shift;
  }
  dst = result;
  return true;
}

}  // namespace tirx::sim
