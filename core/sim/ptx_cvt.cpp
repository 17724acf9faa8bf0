// cvt on raw bits (PTX ISA 9.7.9.21 and §6.5): float→float (narrowing rounds once with the named
// mode, widening is exact, .rni/.rzi/.rmi/.rpi round to an integral value of the same format),
// float→integer (integer rounding, saturation to the destination range, NaN → 0 or 1 << (N-1)),
// integer→float (one rounding of the exact integer), integer→integer (sign- or zero-extension by
// the source type, truncation, or clamping with .sat), the packed f32 pair → f16x2/bf16x2 form,
// and the modifiers .ftz (f32 operands only; ignored with an f16 destination), .sat ([0, 1],
// NaN → +0), .relu (negative → +0, NaN → canonical NaN) and .satfinite (±inf → ±max finite).
// A NaN source gives what the H200 gives (cvtNaN; docs/decisions.md "OPEN-12").
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
    if (f.isNaN(r) || f.signBit(r))
      r = 0;
    else if (f.toDouble(r) > 1.0)
      r = f.one;
  }
  return r;
}

/// `x` rounded to an integral value with the mode of .rni/.rzi/.rmi/.rpi (exact in double).
double roundIntegral(double x, Round m) {
  switch (m) {
    case Round::Rz:
      return std::trunc(x);
    case Round::Rm:
      return std::floor(x);
    case Round::Rp:
      return std::ceil(x);
    default:
      return std::nearbyint(x);  // the default environment rounds to nearest even
  }
}

/// The NaN a float → float cvt gives for a NaN source `bits` (before .sat/.relu), as measured on
/// the H200 (sm_90):
/// - a register copy — cvt.f32.f32 and cvt.f64.f64 without rounding or .ftz — keeps the bits, a
///   signalling NaN included; cvt.f32.bf16 without .ftz shifts them (bits << 16);
/// - to or from f64: the sign, the payload aligned at the top of the destination's mantissa
///   (shifted left when widening, truncated when narrowing) and the quiet bit; cvt.rni.f64.f64
///   and friends thus just quiet the NaN; with .ftz an f32 source is first the canonical f32 NaN
///   (cvt.ftz.f64.f32 of any NaN is 0x7fffffffe0000000);
/// - everything else (f32/f16/bf16 among themselves): the destination's canonical NaN.
uint64_t cvtNaN(const PtxInstruction& in, Kind dk, Kind sk, uint64_t bits) {
  const LaneFormat &d = formatOf(dk), &sf = formatOf(sk);
  if (in.rounding.empty() && !in.ftz && dk == sk && (dk == Kind::F32 || dk == Kind::F64))
    return bits;
  if (dk == Kind::F32 && sk == Kind::BF16 && !in.ftz) return bits << 16;
  if (dk != Kind::F64 && sk != Kind::F64) return d.canonicalNaN;
  if (in.ftz && sk == Kind::F32) bits = kCanonicalNaN32;
  const uint64_t payload = bits & sf.manMask();
  const uint64_t aligned = d.mantBits >= sf.mantBits ? payload << (d.mantBits - sf.mantBits)
                                                     : payload >> (sf.mantBits - d.mantBits);
  return (sf.signBit(bits) ? d.signMask : 0) | d.expMask() | d.quietBit() | aligned;
}

/// Float source bits (already flushed when .ftz applies to the source) to a float destination.
uint64_t floatToFloat(const PtxInstruction& in, Kind dk, Kind sk, uint64_t bits) {
  const LaneFormat& d = formatOf(dk);
  if (formatOf(sk).isNaN(bits)) return finishFloat(in, d, cvtNaN(in, dk, sk, bits));
  const double x = formatOf(sk).toDouble(bits);
  const Round m = roundingOf(in.rounding);
  const bool integral = in.rounding.size() == 4;  // .rni/.rzi/.rmi/.rpi: same-size formats
  const double v = integral ? roundIntegral(x, m) : x;
  const Round vm = integral ? Round::Rn : m;
  uint64_t r = d.fromDouble(v, 0, vm);
  // .ftz with an f32 destination: a result that was tiny before rounding is flushed too.
  if (in.ftz && dk == Kind::F32) r = d.flushResult(r, v, 0, vm);
  return finishFloat(in, d, r);
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
    uint64_t half[2];
    for (int i = 0; i < 2; ++i) {
      const uint64_t b = srcs[static_cast<size_t>(i)] & 0xffffffffu;  // (no .ftz form exists)
      half[i] = floatToFloat(in, d.kind, Kind::F32, b) & 0xffff;
    }
    out = (half[0] << 16) | half[1];
    return true;
  }
  const uint64_t bits = srcs[0] & mask(st.bits);
  if (sFloat) {
    const LaneFormat& sf = formatOf(st.kind);
    // .ftz flushes a subnormal f32 source, except toward f16: the H200 converts it
    // (cvt.rp.ftz.f16.f32 of 0x00000001 is 0x0001).
    const bool flushSource = st.kind == Kind::F32 && in.ftz && d.kind != Kind::F16;
    const uint64_t a = flushSource ? sf.flush(bits) : bits;
    if (dFloat)
      out = floatToFloat(in, d.kind, st.kind, a);
    else
      out = floatToIntBits(sf.toDouble(a), st.kind == Kind::F64, d.bits, d.kind == Kind::S,
                           roundingOf(in.rounding, Round::Rz));
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
