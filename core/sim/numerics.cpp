// Floating-point primitives of the simulator: the generic correctly-rounded narrowing used for
// f16/bf16/f32 results, directed-rounding f32 arithmetic (through fesetround; this file is built
// with -frounding-math so the compiler neither folds nor reorders across mode changes), .ftz and
// .sat, and the PTX min/max NaN rules.
#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/sim/sim_numerics.h"

namespace tirx::sim {

uint32_t floatBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
float bitsFloat(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
uint64_t doubleBits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}
double bitsDouble(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}

uint64_t roundToFormat(double v, int sticky, int mantBits, int expBits, Round mode) {
  const bool neg = std::signbit(v);
  const uint64_t signBit = uint64_t{1} << (mantBits + expBits);
  const uint64_t expAllOnes = (uint64_t{1} << expBits) - 1;
  const uint64_t infBits = expAllOnes << mantBits;
  if (std::isnan(v)) return infBits | (uint64_t{1} << (mantBits - 1));  // canonical quiet NaN
  const uint64_t s = neg ? signBit : 0;
  if (std::isinf(v)) return s | infBits;
  const int bias = (1 << (expBits - 1)) - 1;
  const int emin = 1 - bias, emax = bias;
  const uint64_t maxFinite = ((expAllOnes - 1) << mantBits) | ((uint64_t{1} << mantBits) - 1);
  double a = std::fabs(v);
  const int magSticky = neg ? -sticky : sticky;
  // Whether rounding away from zero (in magnitude) is wanted for a value strictly between two
  // representable neighbours, by mode.
  const bool awayDirected = (mode == Round::Rp && !neg) || (mode == Round::Rm && neg);
  if (a == 0) {
    if (magSticky > 0 && awayDirected) return s | 1;  // smallest subnormal
    return s;
  }
  int e2;
  std::frexp(a, &e2);  // a = f * 2^e2, f in [0.5, 1)
  int e = e2 - 1;
  if (e < emin) e = emin;
  const double q = std::ldexp(1.0, e - mantBits);  // quantum of the target binade
  const double n = a / q;                          // exact: scaling by a power of two
  double fl = std::floor(n);
  const double frac = n - fl;
  bool up = false;
  if (frac > 0 || magSticky > 0) {
    switch (mode) {
      case Round::Rn:
        if (frac > 0.5 || (frac == 0.5 && magSticky > 0))
          up = true;
        else if (frac == 0.5 && magSticky == 0)
          up = std::fmod(fl, 2.0) != 0;
        break;
      case Round::Rz: break;
      case Round::Rp:
      case Round::Rm: up = awayDirected; break;
    }
  }
  uint64_t m = static_cast<uint64_t>(fl) + (up ? 1 : 0);
  const uint64_t hidden = uint64_t{1} << mantBits;
  uint64_t bits;
  if (m >= 2 * hidden) {  // carried into the next binade
    m >>= 1;
    ++e;
  }
  if (m < hidden) {
    bits = m;  // subnormal (exponent field 0)
  } else {
    if (e > emax) {
      const bool toInf = mode == Round::Rn || awayDirected;
      return s | (toInf ? infBits : maxFinite);
    }
    bits = (static_cast<uint64_t>(e + bias) << mantBits) | (m - hidden);
  }
  return s | bits;
}

uint16_t f32ToF16(float x, Round mode) {
  return static_cast<uint16_t>(roundToFormat(x, 0, 10, 5, mode));
}
uint16_t f32ToBf16(float x, Round mode) {
  return static_cast<uint16_t>(roundToFormat(x, 0, 7, 8, mode));
}
uint16_t f64ToF16(double x, Round mode) {
  return static_cast<uint16_t>(roundToFormat(x, 0, 10, 5, mode));
}

float f16ToF32(uint16_t h) {
  const uint32_t sign = (h & 0x8000u) ? 1 : 0;
  const int exp = (h >> 10) & 0x1f;
  const uint32_t man = h & 0x3ffu;
  float mag;
  if (exp == 0x1f)
    mag = man ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  else if (exp == 0)
    mag = std::ldexp(static_cast<float>(man), -24);
  else
    mag = std::ldexp(static_cast<float>(man | 0x400u), exp - 25);
  if (exp == 0x1f && man) return bitsFloat((sign << 31) | 0x7fc00000u | (man << 13));
  return sign ? -mag : mag;
}

float bf16ToF32(uint16_t h) { return bitsFloat(static_cast<uint32_t>(h) << 16); }

namespace {
int fenvMode(Round m) {
  switch (m) {
    case Round::Rz: return FE_TOWARDZERO;
    case Round::Rm: return FE_DOWNWARD;
    case Round::Rp: return FE_UPWARD;
    default: return FE_TONEAREST;
  }
}

/// Runs `f` under rounding mode `m`, restoring round-to-nearest afterwards.
template <class F>
float withMode(Round m, F&& f) {
  if (m == Round::Rn) return f();
  std::fesetround(fenvMode(m));
  volatile float r = f();
  std::fesetround(FE_TONEAREST);
  return r;
}
}  // namespace

float addF32(float a, float b, Round m) {
  return withMode(m, [&] { volatile float x = a, y = b; return x + y; });
}
float subF32(float a, float b, Round m) {
  return withMode(m, [&] { volatile float x = a, y = b; return x - y; });
}
float mulF32(float a, float b, Round m) {
  return withMode(m, [&] { volatile float x = a, y = b; return x * y; });
}
float fmaF32(float a, float b, float c, Round m) {
  return withMode(m, [&] { return std::fma(a, b, c); });
}
float divF32(float a, float b, Round m) {
  return withMode(m, [&] { volatile float x = a, y = b; return x / y; });
}
float sqrtF32(float a, Round m) {
  return withMode(m, [&] { volatile float x = a; return std::sqrt(x); });
}

float flushF32(float x) {
  if (std::fpclassify(x) == FP_SUBNORMAL) return std::signbit(x) ? -0.0f : 0.0f;
  return x;
}

float saturateF32(float x) {
  if (std::isnan(x)) return 0.0f;
  if (x < 0.0f || (x == 0.0f && std::signbit(x))) return 0.0f;
  if (x > 1.0f) return 1.0f;
  return x;
}

namespace {
constexpr uint32_t kCanonicalNanF32 = 0x7fffffffu;
}

float minF32(float a, float b, bool nanMode) {
  const bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb) {
    if (nanMode || (na && nb)) return bitsFloat(kCanonicalNanF32);
    return na ? b : a;
  }
  if (a == b) return std::signbit(a) ? a : b;  // -0 < +0
  return a < b ? a : b;
}

float maxF32(float a, float b, bool nanMode) {
  const bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb) {
    if (nanMode || (na && nb)) return bitsFloat(kCanonicalNanF32);
    return na ? b : a;
  }
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

}  // namespace tirx::sim
