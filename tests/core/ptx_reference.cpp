// The independent PTX reference model (see ptx_reference.h). Compiled with -frounding-math
// -ffp-contract=off (tests/CMakeLists.txt) because it changes the rounding mode. Rules follow the
// PTX ISA text; where the ISA leaves a NaN unspecified the lane accepts any NaN, and integer
// division by zero (and INT_MIN / -1) accepts anything — except where the H200 was measured
// (docs/decisions.md "OPEN-12"): f64 NaN results and float→float cvt NaNs are exact bits, and
// .ftz flushes results that are tiny before rounding; those rules are written here from the
// decision text, not from the simulator's code.
#include "ptx_reference.h"

#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace ptxref {
namespace {

using tirx::PtxFamily;
using tirx::PtxInstruction;
using u64 = uint64_t;
using i128 = __int128;

struct Fmt {
  int p;      // precision, hidden bit included
  int k;      // exponent bits
  int width;  // storage bits
};
constexpr Fmt kH{11, 5, 16}, kB{8, 8, 16}, kS{24, 8, 32}, kD{53, 11, 64};

u64 ones(int n) {
  return n >= 64 ? ~u64{0} : (u64{1} << n) - 1;
}
u64 signBit(Fmt f) {
  return u64{1} << (f.width - 1);
}
u64 expOf(Fmt f, u64 b) {
  return (b >> (f.p - 1)) & ones(f.k);
}
u64 fracOf(Fmt f, u64 b) {
  return b & ones(f.p - 1);
}
bool nan(Fmt f, u64 b) {
  return expOf(f, b) == ones(f.k) && fracOf(f, b) != 0;
}
bool inf(Fmt f, u64 b) {
  return expOf(f, b) == ones(f.k) && fracOf(f, b) == 0;
}
bool neg(Fmt f, u64 b) {
  return (b & signBit(f)) != 0;
}
u64 canonical(Fmt f) {
  return ones(f.width - 1);
}
u64 flushed(Fmt f, u64 b) {
  return (expOf(f, b) == 0 && fracOf(f, b) != 0) ? (b & signBit(f)) : b;
}
u64 quiet(Fmt f) {
  return u64{1} << (f.p - 2);
}
u64 maxFinite(Fmt f) {
  return ((ones(f.k) - 1) << (f.p - 1)) | ones(f.p - 1);
}
u64 infBits(Fmt f) {
  return ones(f.k) << (f.p - 1);
}

double asDouble(u64 b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}
u64 bitsOf(double d) {
  u64 b;
  std::memcpy(&b, &d, 8);
  return b;
}

/// Exact value of a bit pattern (NaN → NaN).
double decode(Fmt f, u64 b) {
  if (f.width == 64) return asDouble(b);
  const int bias = (1 << (f.k - 1)) - 1;
  const u64 e = expOf(f, b), m = fracOf(f, b);
  double mag;
  if (e == ones(f.k))
    mag = m ? NAN : INFINITY;
  else if (e == 0)
    mag = std::ldexp(static_cast<double>(m), 1 - bias - (f.p - 1));
  else
    mag = std::ldexp(static_cast<double>(m | (u64{1} << (f.p - 1))),
                     static_cast<int>(e) - bias - (f.p - 1));
  return neg(f, b) ? -mag : mag;
}

/// sig · 2^E (sig > 0) rounded once into `f` with mode 'n', 'z', 'm' or 'p', integers only.
u64 encodeParts(Fmt f, bool negative, u64 sig, int E, char mode) {
  const u64 s = negative ? signBit(f) : 0;
  if (sig == 0) return s;
  int msb = 63;
  while (!((sig >> msb) & 1)) --msb;
  const int bias = (1 << (f.k - 1)) - 1, emin = 1 - bias, emax = bias;
  int te = std::max(E + msb, emin);
  const int shift = (te - (f.p - 1)) - E;
  u64 M, rem = 0, half = 0;
  if (shift <= 0) {
    M = sig << -shift;
  } else if (shift > 62) {
    M = 0;
    rem = 1;  // nonzero, below half
    half = 2;
  } else {
    M = sig >> shift;
    rem = sig & ones(shift);
    half = u64{1} << (shift - 1);
  }
  const bool away = (mode == 'p' && !negative) || (mode == 'm' && negative);
  bool up = false;
  if (rem != 0) up = mode == 'n' ? (rem > half || (rem == half && (M & 1))) : away;
  M += up ? 1 : 0;
  if (M == (u64{1} << f.p)) {
    M >>= 1;
    ++te;
  }
  if (te > emax) return s | ((mode == 'n' || away) ? infBits(f) : maxFinite(f));
  if (M < (u64{1} << (f.p - 1))) return s | M;
  return s | (static_cast<u64>(te + bias) << (f.p - 1)) | (M - (u64{1} << (f.p - 1)));
}

u64 encode(Fmt f, double v, char mode) {
  if (std::isnan(v)) return canonical(f);
  const u64 b = bitsOf(v);
  const bool n = b >> 63;
  const int de = static_cast<int>((b >> 52) & 0x7ff);
  u64 sig = b & ones(52);
  if (de == 0x7ff) return (n ? signBit(f) : 0) | infBits(f);
  if (f.width == 64) return b;
  if (de == 0) return encodeParts(f, n, sig, -1074, mode);
  return encodeParts(f, n, sig | (u64{1} << 52), de - 1075, mode);
}

/// IEEE 754 tininess before rounding: `v` (not NaN, nonzero; a double rounded to odd is enough)
/// rounded to f.p significant bits with mode m but an unbounded exponent range is below the
/// smallest normal 2^(2 - 2^(k-1)). Integer arithmetic on v's significand and exponent.
bool tinyBeforeRounding(Fmt f, double v, char m) {
  const u64 b = bitsOf(v);
  const bool negative = b >> 63;
  const int de = static_cast<int>((b >> 52) & 0x7ff);
  const u64 sig = de == 0 ? (b & ones(52)) : ((b & ones(52)) | (u64{1} << 52));
  if (sig == 0 || de == 0x7ff) return false;
  const int E = de == 0 ? -1074 : de - 1075;  // v = sig · 2^E
  int msb = 63;
  while (!((sig >> msb) & 1)) --msb;
  int lead = E + msb;  // v's binade: 2^lead <= |v| < 2^(lead+1)
  const int drop = msb + 1 - f.p;
  if (drop > 0) {
    const u64 kept = sig >> drop, rem = sig & ones(drop), half = u64{1} << (drop - 1);
    const bool away = (m == 'p' && !negative) || (m == 'm' && negative);
    bool up = false;
    if (rem != 0) up = m == 'n' ? (rem > half || (rem == half && (kept & 1))) : away;
    if (up && kept + 1 == (u64{1} << f.p)) ++lead;  // carried into the next binade
  }
  return lead < 2 - (1 << (f.k - 1));
}

/// .ftz on the rounded result `b` of the exact value `v`: a zero of b's sign when b is subnormal
/// or v was tiny before rounding (the H200 flushes mul.rn.ftz.f32 0x3f7fffff × 0x00800000,
/// which rounds to the smallest normal).
u64 ftzResult(Fmt f, u64 b, double v, char m) {
  if (v != 0 && !std::isnan(v) && tinyBeforeRounding(f, v, m)) return b & signBit(f);
  return flushed(f, b);
}

int fenvOf(char m) {
  return m == 'z' ? FE_TOWARDZERO : m == 'm' ? FE_DOWNWARD : m == 'p' ? FE_UPWARD : FE_TONEAREST;
}

/// `op` evaluated in double rounded to odd: truncated, with the last bit set when inexact.
template <class F>
double toOdd(F op) {
  std::fesetround(FE_TOWARDZERO);
  std::feclearexcept(FE_ALL_EXCEPT);
  volatile double r = op();
  const bool inexact = std::fetestexcept(FE_INEXACT);
  std::fesetround(FE_TONEAREST);
  double out = r;
  if (inexact && std::isfinite(out)) out = asDouble(bitsOf(out) | 1);
  return out;
}

/// `op` evaluated in double under the rounding mode `m` (f64 results, signs of exact zeros).
template <class F>
double inMode(char m, F op) {
  std::fesetround(fenvOf(m));
  volatile double r = op();
  std::fesetround(FE_TONEAREST);
  return r;
}

char modeOf(const std::string& r) {
  if (r == ".rz" || r == ".rzi") return 'z';
  if (r == ".rm" || r == ".rmi") return 'm';
  if (r == ".rp" || r == ".rpi") return 'p';
  return 'n';
}

bool has(const PtxInstruction& in, const char* q) {
  for (const auto& x : in.qualifiers)
    if (x == q) return true;
  return false;
}

Lane exact(u64 b) {
  return Lane{Mode::Exact, b};
}
Lane anyNaN() {
  return Lane{Mode::AnyNaN};
}
Lane unspecified() {
  return Lane{Mode::Unspecified};
}

struct TypeDesc {
  char kind = '?';  // 'h' f16, 'b' bf16, 'f' f32, 'd' f64, 's' signed, 'u' unsigned/bits
  int bits = 0;
  int lanes = 1;
};

TypeDesc describe(const std::string& t) {
  if (t == ".f16") return {'h', 16};
  if (t == ".f16x2") return {'h', 16, 2};
  if (t == ".bf16") return {'b', 16};
  if (t == ".bf16x2") return {'b', 16, 2};
  if (t == ".f32") return {'f', 32};
  if (t == ".f32x2") return {'f', 32, 2};
  if (t == ".f64") return {'d', 64};
  if (t == ".u16x2") return {'u', 16, 2};
  if (t == ".s16x2") return {'s', 16, 2};
  return {t[1] == 's' ? 's' : 'u', std::stoi(t.substr(2))};
}

Fmt fmtOf(char k) {
  return k == 'h' ? kH : k == 'b' ? kB : k == 'd' ? kD : kS;
}
bool isFloat(char k) {
  return k == 'h' || k == 'b' || k == 'f' || k == 'd';
}

i128 signedValue(u64 b, int bits) {
  b &= ones(bits);
  if (bits < 64 && (b >> (bits - 1)) & 1)
    return static_cast<i128>(b) - (static_cast<i128>(1) << bits);
  if (bits == 64) return static_cast<i128>(static_cast<int64_t>(b));
  return static_cast<i128>(b);
}

// ---------------------------------------------------------------- floating-point arithmetic

/// .relu and .sat on a finished result.
Lane finish(const PtxInstruction& in, Fmt f, u64 r) {
  if (has(in, ".relu")) r = nan(f, r) ? canonical(f) : (neg(f, r) ? 0 : r);
  if (in.sat) {
    if (nan(f, r) || neg(f, r))
      r = 0;
    else if (decode(f, r) > 1.0)
      r = encode(f, 1.0, 'n');
  }
  return exact(r);
}

/// add/sub/mul/fma/div/sqrt/rcp (IEEE rounding) in f16, bf16, f32 or f64.
Lane arith(const PtxInstruction& in, Fmt f, const u64* s, int n) {
  const char m = modeOf(in.rounding);
  double x[3] = {};
  for (int i = 0; i < n; ++i) x[i] = decode(f, in.ftz ? flushed(f, s[i]) : s[i]);
  double r;
  auto op = [&]() -> double {
    switch (in.family) {
      case PtxFamily::Add:
        return x[0] + x[1];
      case PtxFamily::Sub:
        return x[0] - x[1];
      case PtxFamily::Mul:
        return x[0] * x[1];
      case PtxFamily::Fma:
        return std::fma(x[0], x[1], x[2]);
      case PtxFamily::Div:
        return x[0] / x[1];
      case PtxFamily::Rcp:
        return 1.0 / x[0];
      case PtxFamily::Sqrt:
        return std::sqrt(x[0]);
      default:
        return NAN;
    }
  };
  if (f.width == 64) {
    // Measured on the H200: the first NaN operand, quieted (sign and payload kept); an invalid
    // operation gives the negative default NaN.
    for (int i = 0; i < n; ++i)
      if (nan(f, s[i])) return exact(s[i] | quiet(f));
    r = inMode(m, op);
    return std::isnan(r) ? exact(signBit(f) | infBits(f) | quiet(f)) : exact(bitsOf(r));
  }
  r = toOdd(op);
  if (r == 0) r = inMode(m, op);  // an exact zero takes its sign from the mode (x + -x)
  if (std::isnan(r)) {
    if (in.sat) return exact(0);
    if (has(in, ".relu")) return exact(canonical(f));
    // f32 arithmetic returns the canonical NaN; half precision "an unspecified NaN" (§9.7.4).
    return f.width == 32 ? exact(canonical(f)) : anyNaN();
  }
  u64 b = encode(f, r, m);
  if (in.ftz) b = ftzResult(f, b, r, m);
  return finish(in, f, b);
}

/// min/max per the ISA pseudo code (min_num/min_nan, .xorsign.abs, three inputs).
Lane minMax(const PtxInstruction& in, Fmt f, const u64* s, int n) {
  const bool isMax = in.family == PtxFamily::Max;
  u64 v[3] = {};
  for (int i = 0; i < n; ++i) v[i] = in.ftz ? flushed(f, s[i]) : s[i];
  const bool xs = has(in, ".xorsign") && n == 2;
  const bool sign = neg(f, v[0]) != neg(f, v[1]);
  if (has(in, ".abs"))
    for (int i = 0; i < n; ++i) v[i] &= ~signBit(f);
  bool isNaNResult = false, canonicalNaN = false;
  auto two = [&](u64 a, u64 b) -> u64 {
    isNaNResult = canonicalNaN = false;
    if (nan(f, a) || nan(f, b)) {
      if (in.nanMode) {
        isNaNResult = canonicalNaN = true;
        return canonical(f);
      }
      if (nan(f, a) && nan(f, b)) {
        isNaNResult = true;
        return canonical(f);
      }
      return nan(f, a) ? b : a;
    }
    const double da = decode(f, a), db = decode(f, b);
    if (da == db) return (neg(f, a) == isMax) ? b : a;  // -0 < +0
    return (isMax ? da > db : da < db) ? a : b;
  };
  u64 d = two(v[0], v[1]);
  if (n == 3) d = two(d, v[2]);
  // f64 with two NaNs (measured on the H200 with two equal NaNs): the first, quieted.
  if (isNaNResult && f.width == 64 && !canonicalNaN) return exact(v[0] | quiet(f));
  if (isNaNResult) return canonicalNaN ? exact(canonical(f)) : anyNaN();
  if (xs) d = (d & ~signBit(f)) | (sign ? signBit(f) : 0);
  return exact(d);
}

Lane absNeg(const PtxInstruction& in, Fmt f, u64 a) {
  if (in.ftz) a = flushed(f, a);
  if (nan(f, a) && f.width == 64) return exact(a | quiet(f));  // H200: quieted, sign untouched
  if (nan(f, a)) return anyNaN();  // "NaN inputs yield an unspecified NaN"
  return exact(in.family == PtxFamily::Abs ? a & ~signBit(f) : a ^ signBit(f));
}

// ---------------------------------------------------------------- approximate instructions

Lane special(u64 b) {
  Lane l{Mode::Bound};
  l.isSpecial = true;
  l.special = b;
  return l;
}

Lane approx(const PtxInstruction& in, Fmt f, const u64* s, int n) {
  u64 a = in.ftz ? flushed(f, s[0]) : s[0];
  u64 b = n > 1 ? (in.ftz ? flushed(f, s[1]) : s[1]) : 0;
  const long double x = decode(f, a), y = n > 1 ? decode(f, b) : 0;
  if (std::isnan(x) || std::isnan(y)) return anyNaN();
  Lane l{Mode::Bound};
  l.ftz = in.ftz;
  const u64 sa = a & signBit(f);
  switch (in.family) {
    case PtxFamily::Rcp:
      if (x == 0) return special(sa | infBits(f));
      if (std::isinf(x)) return special(sa);
      l.exact = 1.0L / x;
      l.ulps = 1;
      return l;
    case PtxFamily::Sqrt:
      if (x == 0) return special(a);
      if (x < 0) return anyNaN();
      if (std::isinf(x)) return special(infBits(f));
      l.exact = std::sqrt(x);
      l.rel = 0x1p-23L;
      return l;
    case PtxFamily::Lg2:
      if (x == 0) return special(signBit(f) | infBits(f));
      if (x < 0) return anyNaN();
      if (std::isinf(x)) return special(infBits(f));
      l.exact = std::log2(x);
      if (x > 0.5L && x < 2.0L)
        l.abs = 0x1p-22L;
      else
        l.rel = 0x1p-22L;
      return l;
    case PtxFamily::Ex2:
      if (std::isinf(x)) return special(x < 0 ? 0 : infBits(f));
      if (x == 0) return special(encode(f, 1.0, 'n'));
      l.exact = std::exp2(x);
      if (f.width == 32)
        l.ulps = 2;
      else
        l.rel = f.p == 11 ? std::exp2(-9.9L) : 0x1p-7L;
      return l;
    case PtxFamily::Div: {
      const bool full = has(in, ".full");
      if (!full && std::fabs(y) > 0x1p126L && !std::isinf(y))
        return std::isinf(x) ? anyNaN() : special((a ^ b) & signBit(f));
      if (!full && y != 0 && std::fabs(y) < 0x1p-126L) return unspecified();  // no bound stated
      if (x == 0 || y == 0 || std::isinf(x) || std::isinf(y)) {
        const double q = static_cast<double>(x / y);
        return std::isnan(q) ? anyNaN() : special(encode(f, q, 'n'));
      }
      l.exact = x / y;
      l.ulps = 2;
      return l;
    }
    default:
      return unspecified();
  }
}

// ---------------------------------------------------------------- integers

Lane integer(const PtxInstruction& in, const TypeDesc& t, const u64* s, int n) {
  const int w = t.bits;
  const bool sg = t.kind == 's';
  auto val = [&](int i) -> i128 {
    return sg ? signedValue(s[i], w) : static_cast<i128>(s[i] & ones(w));
  };
  auto wrap = [&](i128 v) { return static_cast<u64>(v) & ones(w); };
  switch (in.family) {
    case PtxFamily::Add:
    case PtxFamily::Sub: {
      const i128 r = in.family == PtxFamily::Add ? val(0) + val(1) : val(0) - val(1);
      if (in.sat) {
        const i128 hi = (static_cast<i128>(1) << (w - 1)) - 1, lo = -hi - 1;
        return exact(wrap(r > hi ? hi : (r < lo ? lo : r)));
      }
      return exact(wrap(r));
    }
    case PtxFamily::Mul: {
      // Multiply in unsigned 128-bit arithmetic (defined wrap-around); for signed operands the
      // sign-extended values' product modulo 2^128 has the same low 128 bits as the exact one.
      const unsigned __int128 up =
          sg ? static_cast<unsigned __int128>(val(0)) * static_cast<unsigned __int128>(val(1))
             : static_cast<unsigned __int128>(s[0] & ones(w)) * (s[1] & ones(w));
      if (has(in, ".wide")) return exact(static_cast<u64>(up) & ones(2 * w));
      if (has(in, ".hi")) return exact(static_cast<u64>(up >> w) & ones(w));
      return exact(static_cast<u64>(up) & ones(w));
    }
    case PtxFamily::Min:
    case PtxFamily::Max: {
      i128 r = val(0);
      for (int i = 1; i < n; ++i)
        r = in.family == PtxFamily::Min ? (val(i) < r ? val(i) : r) : (val(i) > r ? val(i) : r);
      if (has(in, ".relu") && r < 0) r = 0;
      return exact(wrap(r));
    }
    case PtxFamily::Abs:
      return exact(wrap(val(0) < 0 ? -val(0) : val(0)));
    case PtxFamily::Neg:
      return exact(wrap(-val(0)));
    case PtxFamily::Div: {
      if (val(1) == 0) return unspecified();  // "unspecified, machine-specific value"
      const i128 q = val(0) / val(1);         // truncates toward zero
      if (sg && q == (static_cast<i128>(1) << (w - 1))) return unspecified();  // INT_MIN / -1
      return exact(wrap(q));
    }
    default:
      return unspecified();
  }
}

// ---------------------------------------------------------------- cvt

double roundToIntegral(double x, char m) {
  switch (m) {
    case 'z':
      return std::trunc(x);
    case 'm':
      return std::floor(x);
    case 'p':
      return std::ceil(x);
    default: {
      const double fl = std::floor(x), fr = x - fl;
      double r = (fr > 0.5 || (fr == 0.5 && std::fmod(fl, 2.0) != 0)) ? fl + 1 : fl;
      return r == 0 ? std::copysign(0.0, x) : r;
    }
  }
}

/// A float destination value (not NaN): rounding, .ftz on f32 (of the exact value `v` rounded
/// with `m`), .satfinite, .relu, .sat.
Lane floatResult(const PtxInstruction& in, Fmt d, u64 r, double v = 0, char m = 'n') {
  if (in.ftz && d.width == 32) r = ftzResult(d, r, v, m);
  if (has(in, ".satfinite") && inf(d, r)) r = (r & signBit(d)) | maxFinite(d);
  return finish(in, d, r);
}

/// A float→float cvt of a NaN, as measured on the H200 (docs/decisions.md "OPEN-12"): cvt.f32.f32
/// and cvt.f64.f64 (no rounding, no .ftz) copy the bits; cvt.f32.bf16 (no .ftz) moves them up 16
/// bits; to or from f64 the sign and the top payload bits carry over and the NaN is quieted, an
/// f32 source under .ftz counting as 0x7fffffff; f16/bf16/f32 among themselves the canonical NaN.
u64 cvtNaN(const PtxInstruction& in, char dk, char sk, u64 a) {
  const Fmt d = fmtOf(dk), sf = fmtOf(sk);
  if (in.rounding.empty() && !in.ftz && dk == sk && (dk == 'f' || dk == 'd')) return a;
  if (dk == 'f' && sk == 'b' && !in.ftz) return a << 16;
  if (dk != 'd' && sk != 'd') return canonical(d);
  if (in.ftz && sk == 'f') a = canonical(sf);
  const u64 frac = fracOf(sf, a);
  const u64 moved = d.p >= sf.p ? frac << (d.p - sf.p) : frac >> (sf.p - d.p);
  return (neg(sf, a) ? signBit(d) : 0) | infBits(d) | quiet(d) | moved;
}

Lane cvtLane(const PtxInstruction& in, const TypeDesc& dt, const TypeDesc& st, u64 a) {
  const char m = modeOf(in.rounding);
  const bool integralRound = in.rounding.size() == 4;
  if (isFloat(st.kind)) {
    const Fmt sf = fmtOf(st.kind);
    // .ftz flushes an f32 source, but not toward f16 (H200: cvt.rp.ftz.f16.f32 of 0x1 is 0x1).
    if (in.ftz && st.kind == 'f' && dt.kind != 'h') a = flushed(sf, a);
    const double x = decode(sf, a);
    if (!isFloat(dt.kind)) {  // float → integer: round, saturate; NaN → 0 or 1 << (N-1)
      const int w = dt.bits;
      if (std::isnan(x)) return exact((st.kind == 'd' || w == 64) ? u64{1} << (w - 1) : 0);
      const long double r = roundToIntegral(x, m);
      const long double hi = dt.kind == 's' ? std::ldexp(1.0L, w - 1) - 1 : std::ldexp(1.0L, w) - 1;
      const long double lo = dt.kind == 's' ? -std::ldexp(1.0L, w - 1) : 0;
      const long double c = r > hi ? hi : (r < lo ? lo : r);
      return exact(static_cast<u64>(static_cast<i128>(c)) & ones(w));
    }
    const Fmt df = fmtOf(dt.kind);
    if (std::isnan(x)) {
      if (in.sat) return exact(0);
      if (has(in, ".relu")) return exact(canonical(df));
      return exact(cvtNaN(in, dt.kind, st.kind, a));
    }
    const double v = integralRound ? roundToIntegral(x, m) : x;
    const char vm = integralRound ? 'n' : m;
    return floatResult(in, df, encode(df, v, vm), v, vm);
  }
  const i128 v = st.kind == 's' ? signedValue(a, st.bits) : static_cast<i128>(a & ones(st.bits));
  if (isFloat(dt.kind)) {
    const Fmt df = fmtOf(dt.kind);
    const bool ng = v < 0;
    const u64 mag = static_cast<u64>(ng ? -v : v);
    return floatResult(in, df, encodeParts(df, ng, mag, 0, m));
  }
  if (!in.sat) return exact(static_cast<u64>(v) & ones(dt.bits));
  const i128 hi = dt.kind == 's' ? (static_cast<i128>(1) << (dt.bits - 1)) - 1
                                 : (static_cast<i128>(1) << dt.bits) - 1;
  const i128 lo = dt.kind == 's' ? -hi - 1 : 0;
  return exact(static_cast<u64>(v > hi ? hi : (v < lo ? lo : v)) & ones(dt.bits));
}

}  // namespace

Expected expect(const PtxInstruction& in, const u64* s, int n) {
  Expected e;
  if (in.family == PtxFamily::Mov) {
    const TypeDesc t = describe(in.type);
    e.laneBits = t.bits;
    e.lanes = {exact(s[0] & ones(t.bits))};  // mov copies bits: compared as an integer
    return e;
  }
  if (in.family == PtxFamily::Cvt) {
    const TypeDesc dt = describe(in.type), st = describe(in.srcType);
    e.kind = isFloat(dt.kind) ? dt.kind : 'i';
    if (dt.lanes == 2) {  // d = cvt(hi) << 16 | cvt(lo): lane 0 is the second source
      e.laneBits = 16;
      const TypeDesc one{dt.kind, 16};
      e.lanes = {cvtLane(in, one, st, s[1] & 0xffffffffu),
                 cvtLane(in, one, st, s[0] & 0xffffffffu)};
      return e;
    }
    e.laneBits = dt.bits;
    e.lanes = {cvtLane(in, dt, st, s[0] & ones(st.bits))};
    return e;
  }
  const TypeDesc t = describe(in.type);
  const bool wide = in.family == PtxFamily::Mul && has(in, ".wide");
  e.laneBits = wide ? 2 * t.bits : t.bits;
  e.kind = isFloat(t.kind) ? t.kind : 'i';
  for (int lane = 0; lane < t.lanes; ++lane) {
    u64 l[3] = {};
    for (int i = 0; i < n; ++i) l[i] = (s[i] >> (lane * t.bits)) & ones(t.bits);
    if (!isFloat(t.kind)) {
      e.lanes.push_back(integer(in, t, l, n));
      continue;
    }
    const Fmt f = fmtOf(t.kind);
    if (in.approx || in.family == PtxFamily::Ex2 || in.family == PtxFamily::Lg2)
      e.lanes.push_back(approx(in, f, l, n));
    else if (in.family == PtxFamily::Min || in.family == PtxFamily::Max)
      e.lanes.push_back(minMax(in, f, l, n));
    else if (in.family == PtxFamily::Abs || in.family == PtxFamily::Neg)
      e.lanes.push_back(absNeg(in, f, l[0]));
    else
      e.lanes.push_back(arith(in, f, l, n));
  }
  return e;
}

namespace {

int64_t ordered(Fmt f, u64 b) {
  const int64_t mag = static_cast<int64_t>(b & ~signBit(f));
  return neg(f, b) ? -mag : mag;
}

bool withinBound(const Lane& l, Fmt f, u64 r) {
  if (l.isSpecial) return r == l.special;
  if (nan(f, r)) return false;
  u64 cr = encode(f, static_cast<double>(l.exact), 'n');
  if (l.ftz) cr = flushed(f, cr);
  if (l.ulps > 0) {
    const int64_t d = ordered(f, r) - ordered(f, cr);
    return (d < 0 ? -d : d) <= static_cast<int64_t>(l.ulps);
  }
  if (r == cr) return true;  // the correctly rounded value always is
  const long double bound = std::fabs(l.exact) * l.rel + l.abs;
  if (inf(f, r) || inf(f, cr)) {
    // Overflow: infinity is right when the bound reaches past the largest finite value.
    const long double top = decode(f, maxFinite(f));
    return inf(f, r) ? (std::fabs(l.exact) + bound > top && neg(f, r) == (l.exact < 0))
                     : std::fabs(static_cast<long double>(decode(f, r)) - l.exact) <= bound;
  }
  long double v = decode(f, r);
  if (std::fabs(v - l.exact) <= bound) return true;
  return l.ftz && decode(f, r) == 0 && decode(f, cr) == 0;
}

std::string hex(u64 b) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(b));
  return buf;
}

}  // namespace

bool accepts(const Expected& e, u64 actual, std::string* why) {
  for (size_t i = 0; i < e.lanes.size(); ++i) {
    const Lane& l = e.lanes[i];
    const int w = e.laneBits;
    const u64 r = (actual >> (i * static_cast<size_t>(w))) & ones(w);
    const Fmt f = fmtOf(e.kind);
    bool ok = true;
    std::string want;
    switch (l.mode) {
      case Mode::Exact:
        ok = r == l.bits;
        want = hex(l.bits);
        break;
      case Mode::Unspecified:
        break;
      case Mode::AnyNaN:
        ok = e.kind != 'i' && nan(f, r);
        want = "a NaN";
        break;
      case Mode::Bound:
        ok = withinBound(l, f, r);
        want = l.isSpecial ? hex(l.special) : "a value within the documented bound";
        break;
    }
    if (!ok) {
      if (why) *why = "lane " + std::to_string(i) + ": got " + hex(r) + ", expected " + want;
      return false;
    }
  }
  return true;
}

}  // namespace ptxref
