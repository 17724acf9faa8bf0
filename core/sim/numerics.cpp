// Floating-point primitives of the simulator: the generic correctly-rounded narrowing used for
// f16/bf16/f32 results, integer-to-float rounding, directed-rounding f32 and f64 arithmetic
// (through fesetround; this file is built with -frounding-math so the compiler neither folds nor
// reorders across mode changes), .ftz and .sat, the PTX min/max NaN rules and the saturating
// float-to-integer conversion of cvt.
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
  if (std::isnan(v)) return infBits | ((uint64_t{1} << mantBits) - 1);  // canonical NaN
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
  // A value exactly representable in the target with a negative residual lies just below it:
  // rounding toward zero must then give the predecessor, which the double predecessor reaches.
  if (magSticky < 0 && mode != Round::Rn && !awayDirected) a = std::nextafter(a, 0.0);
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
      case Round::Rz:
        break;
      case Round::Rp:
      case Round::Rm:
        up = awayDirected;
        break;
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

uint64_t intToFormat(uint64_t mag, bool negative, int mantBits, int expBits, Round mode) {
  const uint64_t s = negative ? uint64_t{1} << (mantBits + expBits) : 0;
  if (mag == 0) return s;
  const int bias = (1 << (expBits - 1)) - 1;
  const uint64_t expAllOnes = (uint64_t{1} << expBits) - 1;
  int msb = 63;
  while (!((mag >> msb) & 1)) --msb;
  // Keep mantBits + 1 significant bits; the rest decide the rounding.
  uint64_t m;
  bool half = false, rest = false;
  if (msb <= mantBits) {
    m = mag << (mantBits - msb);
  } else {
    const int drop = msb - mantBits;
    m = mag >> drop;
    half = (mag >> (drop - 1)) & 1;
    rest = (mag & ((uint64_t{1} << (drop - 1)) - 1)) != 0;
  }
  const bool away = (mode == Round::Rp && !negative) || (mode == Round::Rm && negative);
  bool up = false;
  if (half || rest) {
    if (mode == Round::Rn)
      up = half && (rest || (m & 1));
    else
      up = away;
  }
  int e = msb;
  m += up ? 1 : 0;
  if (m >> (mantBits + 1)) {
    m >>= 1;
    ++e;
  }
  if (e > bias) {  // overflow (only f16 from wide integers)
    const bool toInf = mode == Round::Rn || away;
    return s | (toInf ? expAllOnes << mantBits
                      : ((expAllOnes - 1) << mantBits) | ((uint64_t{1} << mantBits) - 1));
  }
  return s | (static_cast<uint64_t>(e + bias) << mantBits) | (m & ((uint64_t{1} << mantBits) - 1));
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
  if (exp == 0x1f) return man ? bitsFloat(kCanonicalNaN32) : (sign ? -INFINITY : INFINITY);
  const float mag = exp == 0 ? std::ldexp(static_cast<float>(man), -24)
                             : std::ldexp(static_cast<float>(man | 0x400u), exp - 25);
  return sign ? -mag : mag;
}

float bf16ToF32(uint16_t h) {
  return bitsFloat(static_cast<uint32_t>(h) << 16);
}

namespace {
int fenvMode(Round m) {
  switch (m) {
    case Round::Rz:
      return FE_TOWARDZERO;
    case Round::Rm:
      return FE_DOWNWARD;
    case Round::Rp:
      return FE_UPWARD;
    default:
      return FE_TONEAREST;
  }
}

/// Runs `f` under rounding mode `m`, restoring round-to-nearest afterwards.
template <class T, class F>
T withMode(Round m, F&& f) {
  if (m == Round::Rn) return f();
  std::fesetround(fenvMode(m));
  volatile T r = f();
  std::fesetround(FE_TONEAREST);
  return r;
}
}  // namespace

float addF32(float a, float b, Round m) {
  return withMode<float>(m, [&] {
    volatile float x = a, y = b;
    return x + y;
  });
}
float subF32(float a, float b, Round m) {
  return withMode<float>(m, [&] {
    volatile float x = a, y = b;
    return x - y;
  });
}
float mulF32(float a, float b, Round m) {
  return withMode<float>(m, [&] {
    volatile float x = a, y = b;
    return x * y;
  });
}
float fmaF32(float a, float b, float c, Round m) {
  return withMode<float>(m, [&] { return std::fma(a, b, c); });
}
float divF32(float a, float b, Round m) {
  return withMode<float>(m, [&] {
    volatile float x = a, y = b;
    return x / y;
  });
}
float sqrtF32(float a, Round m) {
  return withMode<float>(m, [&] {
    volatile float x = a;
    return std::sqrt(x);
  });
}
double addF64(double a, double b, Round m) {
  return withMode<double>(m, [&] {
    volatile double x = a, y = b;
    return x + y;
  });
}
double subF64(double a, double b, Round m) {
  return withMode<double>(m, [&] {
    volatile double x = a, y = b;
    return x - y;
  });
}
double mulF64(double a, double b, Round m) {
  return withMode<double>(m, [&] {
    volatile double x = a, y = b;
    return x * y;
  });
}
double fmaF64(double a, double b, double c, Round m) {
  return withMode<double>(m, [&] { return std::fma(a, b, c); });
}
double divF64(double a, double b, Round m) {
  return withMode<double>(m, [&] {
    volatile double x = a, y = b;
    return x / y;
  });
}
double sqrtF64(double a, Round m) {
  return withMode<double>(m, [&] {
    volatile double x = a;
    return std::sqrt(x);
  });
}

float flushF32(float x) {
  if (std::fpclassify(x) == FP_SUBNORMAL) return std::signbit(x) ? -0.0f : 0.0f;
  return x;
}

float saturateF32(float x) {
  if (std::isnan(x)) return 0.0f;
  if (x <= 0.0f) return 0.0f;  // -0 as well
  if (x > 1.0f) return 1.0f;
  return x;
}

float minF32(float a, float b, bool nanMode) {
  const bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb) {
    if (nanMode || (na && nb)) return bitsFloat(kCanonicalNaN32);
    return na ? b : a;
  }
  if (a == b) return std::signbit(a) ? a : b;  // -0 < +0
  return a < b ? a : b;
}

float maxF32(float a, float b, bool nanMode) {
  const bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb) {
    if (nanMode || (na && nb)) return bitsFloat(kCanonicalNaN32);
    return na ? b : a;
  }
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

uint64_t floatToIntBits(double v, bool sourceIsF64, int dstBits, bool dstSigned, Round mode) {
  const uint64_t mask = dstBits >= 64 ? ~uint64_t{0} : (uint64_t{1} << dstBits) - 1;
  if (std::isnan(v)) return (sourceIsF64 || dstBits == 64) ? uint64_t{1} << (dstBits - 1) : 0;
  double r = v;
  switch (mode) {
    case Round::Rn:
      r = std::nearbyint(v);
      break;  // the default mode is nearest-even
    case Round::Rz:
      r = std::trunc(v);
      break;
    case Round::Rm:
      r = std::floor(v);
      break;
    case Round::Rp:
      r = std::ceil(v);
      break;
  }
  if (dstSigned) {
    const double lim = std::ldexp(1.0, dstBits - 1);             // exact
    if (r >= lim) return mask >> 1;                              // MAXINT
    if (r < -lim) return (uint64_t{1} << (dstBits - 1)) & mask;  // MININT
    return static_cast<uint64_t>(static_cast<int64_t>(r)) & mask;
  }
  if (r <= 0) return 0;  // -0 and negative values
  if (r >= std::ldexp(1.0, dstBits)) return mask;
  return static_cast<uint64_t>(r) & mask;
}

}  // namespace tirx::sim
