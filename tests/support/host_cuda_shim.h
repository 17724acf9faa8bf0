// The CUDA device intrinsics that tirx's scalar code uses, for compiling that generated CUDA as
// plain host C++ (tests/support/host_cuda_executor.cpp). Each intrinsic has the semantics of the
// PTX instruction NVRTC emits for it, written here from the PTX ISA — independently of the
// simulator (core/sim), which is what the host run is compared with:
// - __fadd_rn … __dsqrt_rn: one IEEE operation, rounded to nearest even (the host's SSE
//   arithmetic; the file is compiled with -ffp-contract=off, denormals kept as NVRTC keeps them);
// - tirx_f2i_rz … tirx_d2ull_rz (inline cvt.rzi in the prelude, replaced by these): toward zero,
//   saturating to the destination range;
//   NaN gives 0, except from f64 or into a 64-bit integer, where it gives 1 << (N-1) (the H200
//   answers of tests/data/ptx, as ptx-conform recorded them);
// - __float2half_rn / __float2bfloat16_rn: cvt.rn.f16.f32 / cvt.rn.bf16.f32, nearest even with
//   overflow to infinity; __half2float / __bfloat162float are exact;
// - tirx_fminf … tirx_fmax (inline PTX min/max in the generated prelude, which the executor
//   replaces by these): one NaN operand gives the other, two give the canonical NaN, −0 < +0.
// - tirx_s8 … tirx_u16 (inline cvt.s32.s8 … cvt.u32.u16): the low 8/16 bits, sign- or
//   zero-extended to 32.
// Thread and block indices are globals that the executor's driver loop sets before each call.
#pragma once

#include <math.h>

#include <cstdint>
#include <cstring>
#include <limits>

#define __device__
#define __global__
#define __forceinline__ inline
#define __restrict__
#define __launch_bounds__(...)

struct TirxHostDim3 {
  unsigned x = 0, y = 0, z = 0;
};
inline TirxHostDim3 threadIdx, blockIdx, blockDim, gridDim;

struct __half {
  unsigned short x;
};
struct __nv_bfloat16 {
  unsigned short x;
};

namespace tirx_host {

template <class To, class From>
inline To bitCast(From f) {
  static_assert(sizeof(To) == sizeof(From));
  To t;
  std::memcpy(&t, &f, sizeof t);
  return t;
}

/// cvt.rzi.{s,u}N.fM: toward zero, saturating; NaN gives `nanValue`.
template <class I>
inline I cvtRzi(double v, I nanValue) {
  if (v != v) return nanValue;
  const long double t = truncl(static_cast<long double>(v));
  if (t <= static_cast<long double>(std::numeric_limits<I>::min()))
    return std::numeric_limits<I>::min();
  if (t >= static_cast<long double>(std::numeric_limits<I>::max()))
    return std::numeric_limits<I>::max();
  return static_cast<I>(t);
}

template <class I>
inline I minBits() {
  return static_cast<I>(uint64_t{1} << (8 * sizeof(I) - 1));
}

/// f32 → f16, nearest even; NaN → 0x7fff.
inline unsigned short f32ToF16(float f) {
  const uint32_t b = bitCast<uint32_t>(f);
  const uint32_t sign = (b >> 16) & 0x8000u;
  const uint32_t exp = (b >> 23) & 0xffu;
  uint32_t man = b & 0x7fffffu;
  if (exp == 0xff) return man ? 0x7fff : static_cast<unsigned short>(sign | 0x7c00u);
  const int e = static_cast<int>(exp) - 127 + 15;  // biased f16 exponent
  if (e >= 31) return static_cast<unsigned short>(sign | 0x7c00u);
  if (e <= 0) {  // subnormal f16 (or zero): shift the full significand right
    if (e < -10) return static_cast<unsigned short>(sign);
    man |= 0x800000u;
    const int shift = 14 - e;  // 13 to drop to 10 bits, plus 1 - e for the subnormal scale
    const uint32_t kept = man >> shift, rest = man & ((1u << shift) - 1), half = 1u << (shift - 1);
    const uint32_t r = kept + ((rest > half || (rest == half && (kept & 1u))) ? 1u : 0u);
    return static_cast<unsigned short>(sign | r);  // r may carry into the smallest normal
  }
  const uint32_t kept = (static_cast<uint32_t>(e) << 10) | (man >> 13), rest = man & 0x1fffu;
  const uint32_t r = kept + ((rest > 0x1000u || (rest == 0x1000u && (kept & 1u))) ? 1u : 0u);
  return static_cast<unsigned short>(sign | r);  // a carry into exponent 31 is infinity
}

inline float f16ToF32(unsigned short h) {
  const uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  if (exp == 0x1f) return bitCast<float>(sign | 0x7f800000u | (man << 13));
  if (exp == 0) {
    const float v = ldexpf(static_cast<float>(man), -24);
    return sign ? -v : v;
  }
  return bitCast<float>(sign | ((exp - 15 + 127) << 23) | (man << 13));
}

inline unsigned short f32ToBf16(float f) {
  const uint32_t b = bitCast<uint32_t>(f);
  if ((b & 0x7fffffffu) > 0x7f800000u) return 0x7fff;
  return static_cast<unsigned short>((b + 0x7fffu + ((b >> 16) & 1u)) >> 16);
}

template <class F>
inline F ptxMinMax(F a, F b, bool isMin) {
  const bool na = a != a, nb = b != b;
  if (na && nb) return static_cast<F>(NAN);
  if (na) return b;
  if (nb) return a;
  if (a == b) return (signbit(a) == isMin) ? a : b;  // −0 orders below +0
  return isMin ? (a < b ? a : b) : (a > b ? a : b);
}

}  // namespace tirx_host

// neg.f16 / neg.bf16 (cuda_fp16.h's unary minus): the sign bit flips, NaN included.
inline __half operator-(__half h) {
  return __half{static_cast<unsigned short>(h.x ^ 0x8000u)};
}
inline __nv_bfloat16 operator-(__nv_bfloat16 h) {
  return __nv_bfloat16{static_cast<unsigned short>(h.x ^ 0x8000u)};
}
inline __half __ushort_as_half(unsigned short u) {
  return __half{u};
}
inline unsigned short __half_as_ushort(__half h) {
  return h.x;
}
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short u) {
  return __nv_bfloat16{u};
}
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) {
  return h.x;
}
inline float __half2float(__half h) {
  return tirx_host::f16ToF32(h.x);
}
inline __half __float2half_rn(float f) {
  return __half{tirx_host::f32ToF16(f)};
}
inline float __bfloat162float(__nv_bfloat16 h) {
  return tirx_host::bitCast<float>(static_cast<uint32_t>(h.x) << 16);
}
inline __nv_bfloat16 __float2bfloat16_rn(float f) {
  return __nv_bfloat16{tirx_host::f32ToBf16(f)};
}
inline float __int_as_float(int i) {
  return tirx_host::bitCast<float>(i);
}
inline double __longlong_as_double(long long i) {
  return tirx_host::bitCast<double>(i);
}

// One IEEE operation each, rounded to nearest even.
#define TIRX_HOST_RN(NAME, T, OP) \
  inline T NAME(T a, T b) {       \
    return a OP b;                \
  }
TIRX_HOST_RN(__fadd_rn, float, +)
TIRX_HOST_RN(__fsub_rn, float, -)
TIRX_HOST_RN(__fmul_rn, float, *)
TIRX_HOST_RN(__fdiv_rn, float, /)
TIRX_HOST_RN(__dadd_rn, double, +)
TIRX_HOST_RN(__dsub_rn, double, -)
TIRX_HOST_RN(__dmul_rn, double, *)
TIRX_HOST_RN(__ddiv_rn, double, /)
#undef TIRX_HOST_RN
inline float __fsqrt_rn(float a) {
  return sqrtf(a);
}
inline double __dsqrt_rn(double a) {
  return sqrt(a);
}

// The prelude's inline-PTX cvt of an 8/16-bit integer computed in 32 bits back to its type
// (tirx_s8 … tirx_u16): the low 8 or 16 bits, sign- or zero-extended (cvt.s32.s16 and co.).
inline int tirx_s8(unsigned v) {
  return static_cast<int8_t>(static_cast<uint8_t>(v));
}
inline int tirx_s16(unsigned v) {
  return static_cast<int16_t>(static_cast<uint16_t>(v));
}
inline unsigned tirx_u8(unsigned v) {
  return v & 0xffu;
}
inline unsigned tirx_u16(unsigned v) {
  return v & 0xffffu;
}

// The prelude's inline-PTX cvt.rzi helpers (tirx_f2i_rz … tirx_d2ull_rz).
#define TIRX_HOST_CVT(NAME, I, F, NAN_VALUE)   \
  inline I NAME(F f) {                         \
    return tirx_host::cvtRzi<I>(f, NAN_VALUE); \
  }
TIRX_HOST_CVT(tirx_f2i_rz, int, float, 0)
TIRX_HOST_CVT(tirx_f2ui_rz, unsigned, float, 0u)
TIRX_HOST_CVT(tirx_f2ll_rz, long long, float, tirx_host::minBits<long long>())
TIRX_HOST_CVT(tirx_f2ull_rz, unsigned long long, float, tirx_host::minBits<unsigned long long>())
TIRX_HOST_CVT(tirx_d2i_rz, int, double, tirx_host::minBits<int>())
TIRX_HOST_CVT(tirx_d2ui_rz, unsigned, double, tirx_host::minBits<unsigned>())
TIRX_HOST_CVT(tirx_d2ll_rz, long long, double, tirx_host::minBits<long long>())
TIRX_HOST_CVT(tirx_d2ull_rz, unsigned long long, double, tirx_host::minBits<unsigned long long>())
#undef TIRX_HOST_CVT

inline float tirx_fminf(float a, float b) {
  return tirx_host::ptxMinMax(a, b, true);
}
inline float tirx_fmaxf(float a, float b) {
  return tirx_host::ptxMinMax(a, b, false);
}
inline double tirx_fmin(double a, double b) {
  return tirx_host::ptxMinMax(a, b, true);
}
inline double tirx_fmax(double a, double b) {
  return tirx_host::ptxMinMax(a, b, false);
}

// CUDA's integer and floating min/max overloads (math_functions.hpp): a mixed signed/unsigned
// pair compares as unsigned; narrower integers promote to int.
#define TIRX_HOST_MINMAX(A, B, R)                                                         \
  inline R min(A a, B b) {                                                                \
    return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b); \
  }                                                                                       \
  inline R max(A a, B b) {                                                                \
    return static_cast<R>(a) > static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b); \
  }
TIRX_HOST_MINMAX(int, int, int)
TIRX_HOST_MINMAX(unsigned, unsigned, unsigned)
TIRX_HOST_MINMAX(int, unsigned, unsigned)
TIRX_HOST_MINMAX(unsigned, int, unsigned)
TIRX_HOST_MINMAX(long long, long long, long long)
TIRX_HOST_MINMAX(unsigned long long, unsigned long long, unsigned long long)
TIRX_HOST_MINMAX(long long, unsigned long long, unsigned long long)
TIRX_HOST_MINMAX(unsigned long long, long long, unsigned long long)
#undef TIRX_HOST_MINMAX
inline float min(float a, float b) {
  return fminf(a, b);
}
inline float max(float a, float b) {
  return fmaxf(a, b);
}
inline double min(double a, double b) {
  return fmin(a, b);
}
inline double max(double a, double b) {
  return fmax(a, b);
}

// libdevice's powf/pow keep C's special cases for signalling NaNs too (CUDA Math API: "pow(x, ±0)
// returns 1 for any x, even a NaN", "pow(+1, y) returns 1 for any y, even a NaN"); glibc returns
// NaN for a signalling one.
inline float tirx_host_powf(float x, float y) {
  return (y == 0 || x == 1) ? 1.0f : powf(x, y);
}
inline double tirx_host_pow(double x, double y) {
  return (y == 0 || x == 1) ? 1.0 : pow(x, y);
}
// The executor's driver source maps the kernel's powf/pow onto these (macros defined right before
// the kernel, after every standard header: here they would break std::pow in later headers).
