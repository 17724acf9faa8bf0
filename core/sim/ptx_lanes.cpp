// Lane formats and type decoding shared by ptx_exec.cpp and ptx_cvt.cpp (see ptx_lanes.h).
#include "core/sim/ptx_lanes.h"

#include <cmath>

namespace tirx::sim::lanes {

const LaneFormat kF16{10, 5, 0x8000, kCanonicalNaN16, 0x3c00};
const LaneFormat kBF16{7, 8, 0x8000, kCanonicalNaN16, 0x3f80};
const LaneFormat kF32{23, 8, 0x80000000u, kCanonicalNaN32, 0x3f800000u};
const LaneFormat kF64{52, 11, uint64_t{1} << 63, kDefaultNaN64, 0x3ff0000000000000u};

const LaneFormat& formatOf(Kind k) {
  switch (k) {
    case Kind::F16:
      return kF16;
    case Kind::BF16:
      return kBF16;
    case Kind::F64:
      return kF64;
    default:
      return kF32;
  }
}

double LaneFormat::toDouble(uint64_t b) const {
  if (mantBits == 52) return bitsDouble(b);
  if (mantBits == 23) return bitsFloat(static_cast<uint32_t>(b));
  if (mantBits == 7) return bitsFloat(static_cast<uint32_t>(b & 0xffff) << 16);
  if (isNaN(b)) return NAN;
  const int exp = static_cast<int>((b >> mantBits) & ((1u << expBits) - 1));
  const double man = static_cast<double>(b & manMask());
  double mag;
  if (exp == (1 << expBits) - 1)
    mag = INFINITY;
  else if (exp == 0)
    mag = std::ldexp(man, 1 - 15 - mantBits);
  else
    mag = std::ldexp(man + static_cast<double>(uint64_t{1} << mantBits), exp - 15 - mantBits);
  return signBit(b) ? -mag : mag;
}

bool LaneFormat::tinyBeforeRounding(double v, int sticky, Round m) const {
  // Scaled so that the smallest normal is 1 (exact: a power of two), the value rounds inside
  // the normal range, where the format's rounding is the unbounded-exponent one.
  const int emin = 2 - (1 << (expBits - 1));
  const double scaled = std::ldexp(v, -emin);
  return std::fabs(toDouble(roundToFormat(scaled, sticky, mantBits, expBits, m))) < 1.0;
}

uint64_t LaneFormat::flushResult(uint64_t r, double v, int sticky, Round m) const {
  if (isSubnormal(r)) return r & signMask;
  if ((r & ~signMask) == (uint64_t{1} << mantBits) && tinyBeforeRounding(v, sticky, m))
    return r & signMask;  // rounded up to the smallest normal from a tiny value
  return r;
}

uint64_t LaneFormat::fromDouble(double v, int sticky, Round m) const {
  if (std::isnan(v)) return canonicalNaN;
  if (mantBits == 52) return doubleBits(v);  // callers pass exact values
  return roundToFormat(v, sticky, mantBits, expBits, m);
}

TypeInfo decodeType(std::string_view t) {
  if (!t.empty() && t[0] == '.') t.remove_prefix(1);
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
      if (d < '0' || d > '9') return {};
      bits = bits * 10 + (d - '0');
    }
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64) return {};
    if (c == 's') return {Kind::S, bits, 1};
    if (c == 'u') return {Kind::U, bits, 1};
    if (c == 'b') return {Kind::B, bits, 1};
  }
  return {};
}

bool isFloatKind(Kind k) {
  return k == Kind::F16 || k == Kind::BF16 || k == Kind::F32 || k == Kind::F64;
}

Round roundingOf(const std::string& r, Round fallback) {
  if (r == ".rz" || r == ".rzi") return Round::Rz;
  if (r == ".rm" || r == ".rmi") return Round::Rm;
  if (r == ".rp" || r == ".rpi") return Round::Rp;
  if (r == ".rn" || r == ".rni") return Round::Rn;
  return fallback;
}

bool hasQualifier(const PtxInstruction& in, std::string_view q) {
  for (const auto& x : in.qualifiers)
    if (x == q) return true;
  return false;
}

}  // namespace tirx::sim::lanes
