// The fragment picture of a tensor-core opcode as Qt-free tables, prepared on the worker for the
// editor's hover (script_facts.cpp): mma.sync's A (m×k), B (k×n) and C/D (m×n) fragments, and the
// holders of ldmatrix/stmatrix's 8×8 matrices — for every element, the lane and the PTX element
// (a_i, b_i, c_i; r_j for ldmatrix registers) that holds it. Read straight off the engine's
// fragment maps (core/ptx/fragments.h, element units).
#pragma once

#include <string>
#include <vector>

#include "core/ptx/ptx_table.h"

namespace tirx::views {

struct FragmentTable {
  std::string title;  ///< "A  16×16 (a0..a7: register i/2, bits 16·(i%2))"
  int rows = 0, cols = 0;
  std::vector<int> lanes;           ///< rows·cols, row-major
  std::vector<std::string> labels;  ///< rows·cols: "a2" (the element), the lane is in `lanes`
  int lane(int r, int c) const { return lanes[size_t(r * cols + c)]; }
  const std::string& label(int r, int c) const { return labels[size_t(r * cols + c)]; }
};

/// The tables of `instr`: mma.sync A, B, C/D; ldmatrix/stmatrix one per matrix; empty for any
/// other family.
std::vector<FragmentTable> opcodeFragmentTables(const PtxInstruction& instr);

}  // namespace tirx::views
