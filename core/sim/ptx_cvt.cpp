// cvt on raw bits (PTX ISA 9.7.9.21 and §6.5): float→float (narrowing rounds once with the named
// mode, widening is exact, .rni/.rzi/.rmi/.rpi round to an integral value of the same format),
// float→integer (integer rounding, saturation to the destination range, NaN → 0 or 1 << (N-1)),
// integer→float (one rounding of the exact integer), integer→integer (sign- or zero-extension by
// the source type, truncation, or clamping with .sat), the packed f32 pair → f16x2/bf16x2 form,
// and the modifiers .ftz (f32 operands only), .sat ([0, 1], NaN → +0), .relu (negative → +0,
// NaN → canonical NaN) and .satfinite (±inf → ±max finite). NaN results are canonical.
#include <cmath>

#include "core/sim/ptx_lanes.h"

namespace tirx::sim {

namespace {

using namespace lanes;

/// .relu, .satfinite and .sat on a float result of the destination format.
uint64_t finishFloat(const PtxInstruction& in, const LaneFormat& f, uint64_t r) {
  if (in.ftz && f.mantBits == 23) r = f.flush(r);
  if (hasQualifier(in, ".satfinite") && !f.isNaN(r) && (r & ~f.signMask) == f.expMask())
    r = (r & f.signMask) | (f.expMask() - (uint64_t{1} << f.mantBits)) | f.manMask();
  if (hasQualifier(in, ".relu")) r = f.isNaN(r) ? f.canonicalNaN : (f.signBit(r) ? 0 : r);
  if (in.sat) {
    if (f.isNaN(r) || f.signBit(r)) r = 0;
    else if (f.toDouble(r) > 1.0) r = f.one;
  }
  return r;
}

/// `x` rounded to an integral value with the mode of .rni/.rzi/.rmi/.rpi (exact in double).
double roundIntegral(double x, Round m) {
  switch (m) {
    case Round::Rz: return std::trunc(x);
    case Round::Rm: return std::floor(x);
    case Round::Rp: return std::ceil(x);
    default: return std::nearbyint(x);  // the default environment rounds to nearest even
  }
}

/// Float source (already flushed when .ftz applies) to a float destination.
uint64_t floatToFloat(const PtxInstruction& in, const LaneFormat& d, double x) {
  if (std::isnan(x)) return finishFloat(in, d, d.canonicalNaN);
  const Round m = roundingOf(in.rounding);
  const bool integral = in.rounding.size() == 4;  // .rni/.rzi/.rmi/.rpi: same-size formats
  const double v = integral ? roundIntegral(x, m) : x;
  return finishFloat(in, d, d.fromDouble(v, 0, integral ? Round::Rn : m));
}

/// Integer to integer: extension by the source's signedness, truncation, or .sat clamping.
uint64_t intToInt(const PtxInstruction& in, const TypeInfo& d, const TypeInfo& st, uint64_t bits) {
  const __int128 v = st.kind == Kind::S ? static_cast<__int128>(sext(bits, st.bits))
                                        : static_cast<__int128>(bits & mask(st.bits));
  if (!in.sat) return static_cast<uint64_t>(v) & mask(d.bits);
  __int128 lo = 0, hi = static_cast<__int128>(mask(d.bits));
  if (d.kind == Kind::S) {
    hi = static_cast<__int128>(mask(d.bits - 1));
    lo = -hi - 1;
  }
  const __int128 c = v < lo ? lo : (v > hi ? hi : v);
  return static_cast<uint64_t>(c) & mask(d.bits);
}

}  // namespace

bool execCvt(const PtxInstruction& in, std::span<const uint64_t> srcs, uint64_t& out,
             std::string* why) {
  const TypeInfo d = decodeType(in.type), st = decodeType(in.srcType);
  const bool dFloat = isFloatKind(d.kind), sFloat = isFloatKind(st.kind);
  auto unsupported = [&] {
    if (why) *why = "the simulator does not model " + in.opcode;
    return false;
  };
  if (d.kind == Kind::Unknown || d.kind == Kind::Pred || st.kind == Kind::Unknown ||
      st.kind == Kind::Pred || srcs.empty())
    return unsupported();
  // Packed destination: cvt.rn.f16x2.f32 d, hi, lo  ->  d = cvt(hi) << 16 | cvt(lo).
  if (d.lanes == 2) {
    if (srcs.size() < 2 || st.kind != Kind::F32 || !dFloat) return unsupported();
    const LaneFormat& f = formatOf(d.kind);
    uint64_t half[2];
    for (int i = 0; i < 2; ++i) {
      uint64_t b = srcs[static_cast<size_t>(i)] & 0xffffffffu;
      if (in.ftz) b = kF32.flush(b);
      half[i] = floatToFloat(in, f, kF32.toDouble(b)) & 0xffff;
    }
    out = (half[0] << 16) | half[1];
    return true;
  }
  const uint64_t bits = srcs[0] & mask(st.bits);
  if (sFloat) {
    const LaneFormat& sf = formatOf(st.kind);
    const double x = sf.toDouble(st.kind == Kind::F32 && in.ftz ? sf.flush(bits) : bits);
    if (dFloat) out = floatToFloat(in, formatOf(d.kind), x);
    else out = floatToIntBits(x, st.kind == Kind::F64, d.bits, d.kind == Kind::S, roundingOf(in.rounding, Round::Rz));
    return true;
  }
  if (dFloat) {
    const LaneFormat& f = formatOf(d.kind);
    const bool neg = st.kind == Kind::S && sext(bits, st.bits) < 0;
    const uint64_t mag = neg ? (uint64_t{0} - bits) & mask(st.bits) : bits;
    out = finishFloat(in, f, intToFormat(mag, neg, f.mantBits, f.expBits, roundingOf(in.rounding)));
    return true;
  }
  out = intToInt(in, d, st, bits);
  return true;
}

}  // namespace tirx::sim
