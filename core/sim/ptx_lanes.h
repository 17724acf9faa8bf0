// Private to core/sim: what ptx_exec.cpp and ptx_cvt.cpp share. A PTX type qualifier decoded into
// a kind, a lane width and a lane count (".f16x2" → F16 × 2), and the bit-level description of
// one floating-point lane format (sign mask, NaN test, canonical NaN, flush, conversion to and
// from double) so that min/max, .relu, .sat and .ftz are written once for f16, bf16, f32, f64.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/ptx/ptx_table.h"
#include "core/sim/sim_numerics.h"

namespace tirx::sim::lanes {

enum class Kind { F16, BF16, F32, F64, S, U, B, Pred, Unknown };

struct TypeInfo {
  Kind kind = Kind::Unknown;
  int bits = 32;  ///< per lane
  int lanes = 1;
};

/// ".f16x2" → {F16, 16, 2}, ".s32" → {S, 32, 1}; Unknown for anything else.
TypeInfo decodeType(std::string_view t);
bool isFloatKind(Kind k);

/// The rounding of a rounding qualifier (".rn", ".rzi", ...); `fallback` when there is none.
Round roundingOf(const std::string& r, Round fallback = Round::Rn);
bool hasQualifier(const PtxInstruction& in, std::string_view q);

inline uint64_t mask(int bits) {
  return bits >= 64 ? ~uint64_t{0} : ((uint64_t{1} << bits) - 1);
}
inline int64_t sext(uint64_t v, int bits) {
  if (bits >= 64) return static_cast<int64_t>(v);
  const uint64_t m = uint64_t{1} << (bits - 1);
  v &= mask(bits);
  return static_cast<int64_t>((v ^ m) - m);
}

/// One binary floating-point lane format. `canonicalNaN` is the NaN of an invalid operation:
/// all mantissa bits set for f16/bf16/f32, kDefaultNaN64 for f64.
struct LaneFormat {
  int mantBits, expBits;
  uint64_t signMask, canonicalNaN, one;
  uint64_t expMask() const { return ((uint64_t{1} << expBits) - 1) << mantBits; }
  uint64_t manMask() const { return (uint64_t{1} << mantBits) - 1; }
  bool signBit(uint64_t b) const { return (b & signMask) != 0; }
  bool isNaN(uint64_t b) const { return (b & expMask()) == expMask() && (b & manMask()) != 0; }
  bool isSubnormal(uint64_t b) const { return (b & expMask()) == 0 && (b & manMask()) != 0; }
  uint64_t quietBit() const { return uint64_t{1} << (mantBits - 1); }
  /// .ftz on an input: a subnormal becomes a zero of the same sign.
  uint64_t flush(uint64_t b) const { return isSubnormal(b) ? (b & signMask) : b; }
  /// Whether the exact result `v` (plus a residual of sign `sticky`), rounded with `m` to the
  /// format's precision but an unbounded exponent range, lies below the smallest normal: IEEE
  /// 754's tininess "before rounding". v must not be NaN and at most a few binades from it.
  bool tinyBeforeRounding(double v, int sticky, Round m) const;
  /// .ftz on the rounded result `r` of the exact value `v` (+ `sticky`): a zero of r's sign when
  /// r is subnormal or the exact value was tiny before rounding (so ±smallest normal reached by
  /// rounding up is flushed too, as the H200 does: docs/decisions.md "OPEN-12").
  uint64_t flushResult(uint64_t r, double v, int sticky, Round m) const;
  /// Exact value (every f16/bf16/f32/f64 value is a double); NaN stays NaN.
  double toDouble(uint64_t b) const;
  /// Round `v` (plus a residual of sign `sticky`) into the format; NaN → canonical NaN.
  uint64_t fromDouble(double v, int sticky, Round m) const;
};

extern const LaneFormat kF16, kBF16, kF32, kF64;
/// The lane format of a float kind (F16, BF16, F32, F64).
const LaneFormat& formatOf(Kind k);

}  // namespace tirx::sim::lanes

namespace tirx::sim {
/// cvt (ptx_cvt.cpp).
bool execCvt(const PtxInstruction& in, std::span<const uint64_t> srcs, uint64_t& dst,
             std::string* why);
}  // namespace tirx::sim
