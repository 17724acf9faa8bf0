// The simulator's numeric core: bit-exact models of the PTX arithmetic the tile subset can apply
// (spec §7.2). Every function takes and returns raw bits so that the executor never reinterprets
// registers through a host type by accident. Exact operations (add/sub/mul/fma/div/sqrt .rn and
// the directed modes, cvt with every rounding) are correctly rounded; approximate ones (rcp, ex2,
// lg2, sqrt .approx) use the host libm on float with .ftz and are documented in docs/simulator.md
// with their error bound. The implementation is compiled with -ffp-contract=off -frounding-math.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/ptx/ptx_table.h"

namespace tirx::sim {

enum class Round { Rn, Rz, Rm, Rp };

/// Round the exact value `v + tiny` to a binary format with `mantBits` stored mantissa bits and
/// `expBits` exponent bits (f16: 10/5, bf16: 7/8, f32: 23/8). `sticky` is the sign of an exact
/// residual smaller than half an ulp of `v` in the target format (0 when `v` is exact). NaN gives
/// the canonical quiet NaN of the format; overflow follows IEEE (inf or max finite by mode).
uint64_t roundToFormat(double v, int sticky, int mantBits, int expBits, Round mode);

uint16_t f32ToF16(float x, Round mode = Round::Rn);
uint16_t f32ToBf16(float x, Round mode = Round::Rn);
uint16_t f64ToF16(double x, Round mode = Round::Rn);
float f16ToF32(uint16_t h);
float bf16ToF32(uint16_t h);

uint32_t floatBits(float f);
float bitsFloat(uint32_t b);
uint64_t doubleBits(double d);
double bitsDouble(uint64_t b);

/// f32 arithmetic with an explicit rounding mode (no contraction, no flushing).
float addF32(float a, float b, Round mode);
float subF32(float a, float b, Round mode);
float mulF32(float a, float b, Round mode);
float fmaF32(float a, float b, float c, Round mode);
float divF32(float a, float b, Round mode);
float sqrtF32(float a, Round mode);
/// Subnormal → sign-preserving zero (the .ftz rule, applied to inputs and results).
float flushF32(float x);
/// .sat: clamp to [0, 1]; NaN → +0.
float saturateF32(float x);
/// PTX min/max on f32: one NaN → the other operand, both NaN (or any NaN with `nanMode`) →
/// canonical NaN; -0 orders below +0.
float minF32(float a, float b, bool nanMode);
float maxF32(float a, float b, bool nanMode);

/// Execute one non-memory PTX instruction instance (every family but ld/st) on raw operand bits:
/// `srcs` are the source operands in call order (each element's bits, zero-extended), the result
/// is the destination bits. Returns false and sets `why` for a spelling the simulator does not
/// model (the executor turns that into a fault, never a crash).
bool execPtx(const PtxInstruction& instr, std::span<const uint64_t> srcs, uint64_t& dst,
             std::string* why);

}  // namespace tirx::sim
