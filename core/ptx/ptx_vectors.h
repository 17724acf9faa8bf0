// Conformance vectors for the PTX instruction table: every spelling the table accepts (at each
// operand count it accepts) with deterministic input vectors built from the edge values of its
// operand types — ±0, ±inf, NaNs with payloads, subnormals, the extremes and rounding ties of
// each format, integer extremes, the boundaries of every integer range a conversion can hit —
// crossed for binary and ternary forms, and filled up with seeded random bit patterns. The
// simulator's conformance test (tests/core/tst_ptx_conform.cpp) and `tirx ptx-conform` walk the
// same cases, so a recorded device file names the generator version it was made with.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/ptx/ptx_table.h"

namespace tirx {

/// Bumped whenever ptxConformVectors() would produce different vectors.
inline constexpr int kPtxConformGenerator = 1;

/// The source operand values of one instruction instance, in call order (unused entries 0).
/// Memory instructions have one: the element (ld: the memory contents; st: the register).
using PtxVector = std::array<uint64_t, 3>;

/// One spelling at one operand count (three-input min/max is a separate case).
struct PtxConformCase {
  std::string opcode;
  int arity = 0;  ///< operand count including the destination
  PtxInstruction instr;
  std::vector<std::string> srcTypes;  ///< PTX type of each source (one for ld/st: the element)
};

/// Every accepted spelling, in the table's enumeration order, at every accepted arity; those not
/// starting with `prefix` (when non-empty) are left out.
std::vector<PtxConformCase> ptxConformCases(std::string_view prefix = {});

/// `count` input vectors for a case (count ≥ 1). Deterministic: the same case and count always
/// give the same vectors.
std::vector<PtxVector> ptxConformVectors(const PtxConformCase& c, int count);

/// 64-bit FNV-1a over the vectors' bytes (the first `width` source words of each), so a recorded
/// file can say which inputs its outputs belong to.
uint64_t ptxVectorsDigest(const std::vector<PtxVector>& vectors, int sources);

}  // namespace tirx
