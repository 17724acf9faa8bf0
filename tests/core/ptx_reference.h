// An independent reference model of the PTX instructions of the table, for the conformance test:
// written from the PTX ISA text (§6.5, §9.7.1, §9.7.3, §9.7.4, §9.7.9.21), not from the
// simulator. Floating-point results are computed in double with round-to-odd (fesetround toward
// zero plus the inexact flag; exact for f32/f16/bf16 results since 53 ≥ 2p + 2) and then rounded
// to the target format by integer bit manipulation; f64 results use the host's double arithmetic
// under fesetround and std::fma. Each lane of the result carries how it must be compared: exact
// bits, any NaN (where the ISA leaves the NaN unspecified), anything (unspecified results such as
// integer division by zero), or within the documented bound of an approximate instruction.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ptx/ptx_table.h"

namespace ptxref {

enum class Mode { Exact, AnyNaN, Unspecified, Bound };

struct Lane {
  Mode mode = Mode::Exact;
  uint64_t bits = 0;      ///< Exact: the expected bits
  long double exact = 0;  ///< Bound: the exact mathematical result
  double ulps = 0;        ///< Bound: allowed distance in ulps of the correctly rounded result
  long double rel = 0, abs = 0;  ///< Bound: allowed relative / absolute error
  bool ftz = false;              ///< Bound: results are flushed
  uint64_t special = 0;          ///< Bound: a fixed result for special inputs (used when ulps < 0)
  bool isSpecial = false;
};

struct Expected {
  int laneBits = 32;
  char kind = 'i';          ///< lane format: 'h' f16, 'b' bf16, 'f' f32, 'd' f64, 'i' integer
  std::vector<Lane> lanes;  ///< lane 0 = low bits
};

/// The expected result of `instr` with `srcs` (source operand bits in call order).
Expected expect(const tirx::PtxInstruction& instr, const uint64_t* srcs, int nsrc);

/// Whether `actual` is acceptable; on failure `why` says what was expected.
bool accepts(const Expected& e, uint64_t actual, std::string* why);

}  // namespace ptxref
