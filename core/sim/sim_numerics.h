// The simulator's numeric core: bit-exact models of the PTX arithmetic the tile subset can apply
// (spec §7.2, PTX ISA §9.7). Every function takes and returns raw bits so that the executor never
// reinterprets registers through a host type by accident. Exact operations (add/sub/mul/fma/div/
// sqrt/rcp with .rn/.rz/.rm/.rp in f32 and f64, half arithmetic, every cvt) are correctly rounded
// with the PTX rules for .ftz, .sat, .relu, .satfinite, NaN results and integer saturation;
// approximate ones (.approx ex2/lg2/rcp/sqrt/div, div.full) are modelled within their documented
// bound, which checkApproximate() states and checks. docs/simulator.md lists every rule. The
// implementation is compiled with -ffp-contract=off -frounding-math.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/ir/dtype.h"
#include "core/ptx/ptx_table.h"

namespace tirx::sim {

enum class Round { Rn, Rz, Rm, Rp };

/// The NaN the GPU produces for an f16/bf16/f32 NaN result (all mantissa bits set, sign clear).
inline constexpr uint16_t kCanonicalNaN16 = 0x7fff;  ///< f16 and bf16
inline constexpr uint32_t kCanonicalNaN32 = 0x7fffffffu;
/// The NaN an invalid f64 operation (0/0, 0·inf, inf − inf, sqrt of a negative) gives on the
/// H200: sign set, only the quiet bit. A NaN operand of f64 arithmetic is propagated instead
/// (docs/decisions.md "OPEN-12", measured on the H200).
inline constexpr uint64_t kDefaultNaN64 = 0xfff8000000000000ull;

/// Round the exact value `v + tiny` to a binary format with `mantBits` stored mantissa bits and
/// `expBits` exponent bits (f16: 10/5, bf16: 7/8, f32: 23/8). `sticky` is the sign of an exact
/// residual smaller than half an ulp of `v` in the target format (0 when `v` is exact). NaN gives
/// the canonical NaN of the format (all mantissa bits set); overflow follows IEEE (inf or max
/// finite by mode).
uint64_t roundToFormat(double v, int sticky, int mantBits, int expBits, Round mode);
/// An integer of magnitude `mag` (sign `negative`) rounded once to the format, with `mode`.
uint64_t intToFormat(uint64_t mag, bool negative, int mantBits, int expBits, Round mode);

uint16_t f32ToF16(float x, Round mode = Round::Rn);
uint16_t f32ToBf16(float x, Round mode = Round::Rn);
uint16_t f64ToF16(double x, Round mode = Round::Rn);
/// Exact widening; a NaN becomes the canonical f32 NaN (as cvt.f32.f16 does).
float f16ToF32(uint16_t h);
float bf16ToF32(uint16_t h);

uint32_t floatBits(float f);
float bitsFloat(uint32_t b);
uint64_t doubleBits(double d);
double bitsDouble(uint64_t b);

/// f32 and f64 arithmetic with an explicit rounding mode (no contraction, no flushing; NaN results
/// keep the host's payload: callers canonicalise).
float addF32(float a, float b, Round mode);
float subF32(float a, float b, Round mode);
float mulF32(float a, float b, Round mode);
float fmaF32(float a, float b, float c, Round mode);
float divF32(float a, float b, Round mode);
float sqrtF32(float a, Round mode);
double addF64(double a, double b, Round mode);
double subF64(double a, double b, Round mode);
double mulF64(double a, double b, Round mode);
double fmaF64(double a, double b, double c, Round mode);
double divF64(double a, double b, Round mode);
double sqrtF64(double a, Round mode);
/// Subnormal → sign-preserving zero (the .ftz rule, applied to inputs and results).
float flushF32(float x);
/// .sat: clamp to [0, 1]; NaN and -0 → +0.
float saturateF32(float x);
/// PTX min/max on f32 (min_num/max_num): one NaN → the other operand, both NaN (or any NaN with
/// `nanMode`) → canonical NaN; -0 orders below +0.
float minF32(float a, float b, bool nanMode);
float maxF32(float a, float b, bool nanMode);

/// Float-to-integer conversion as cvt.{rni,rzi,rmi,rpi}.{s,u}N.fM: `v` (exact) is rounded to an
/// integer with `mode` and clamped to the destination range; NaN gives 0, or 1 << (N - 1) when
/// the source is .f64 or the destination is 64 bits wide (PTX ISA, cvt "Integer Notes"). The
/// result is the destination's bit pattern (N bits).
uint64_t floatToIntBits(double v, bool sourceIsF64, int dstBits, bool dstSigned, Round mode);

/// Execute one non-memory PTX instruction instance (every family but ld/st) on raw operand bits:
/// `srcs` are the source operands in call order (each element's bits, zero-extended), the result
/// is the destination bits. Returns false and sets `why` for a spelling the simulator does not
/// model (the executor turns that into a fault, never a crash).
bool execPtx(const PtxInstruction& instr, std::span<const uint64_t> srcs, uint64_t& dst,
             std::string* why);

/// True for the spellings whose result is an approximation (.approx, div.full): their bits are
/// not fixed by the PTX ISA, only an error bound, which checkApproximate() tests.
bool isApproximate(const PtxInstruction& instr);
/// One line naming the documented bound of an approximate spelling ("2 ulp", "relative 2^-9.9").
std::string approximationBound(const PtxInstruction& instr);
/// Whether `result` is an acceptable output of the approximate instruction for `srcs`: the
/// special inputs of the ISA's tables give fixed results (any NaN for NaN), other inputs must be
/// within the documented bound of the exact value. `why` says what was expected on failure.
bool checkApproximate(const PtxInstruction& instr, std::span<const uint64_t> srcs, uint64_t result,
                      std::string* why);

/// The scalar intrinsics whose simulator result is not the GPU's bits (docs/simulator.md, "Scalar
/// math"): exp, exp2, log, log2, sin, cos, tanh, pow and sigmoid use the host libm, the GPU
/// libdevice. Returns the largest distance in ulp of `t` between the two (the libdevice bound
/// plus the host's), or 0 for an intrinsic that is bit-exact.
int scalarApproxUlps(const std::string& name, ir::DType t);

}  // namespace tirx::sim
