// float32 <-> binary16 / bfloat16 bit conversions (round to nearest even, NaN kept quiet).
#pragma once

#include <cstdint>

namespace tirx::ir {

/// float32 -> IEEE binary16 bits, round to nearest even; overflow -> ±inf, NaN -> quiet NaN.
uint16_t floatToHalfBits(float f);
/// float32 -> bfloat16 bits, round to nearest even; NaN -> quiet NaN.
uint16_t floatToBf16Bits(float f);
/// IEEE binary16 bits -> float32 (exact).
float halfBitsToFloat(uint16_t h);

}  // namespace tirx::ir
