// Private to core/conform: the plan of a generated kernel (which rows of which tensors hold each
// case's inputs and output) shared by the generator (conform_kernels.cpp), the runner
// (conform_run.cpp) and the record reader/writer (conform_record.cpp).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/conform/ptx_conform.h"

namespace tirx::conform {

/// A row of a tensor of element width `bits` (I<bits>/O<bits>, or MI/MO for memory kernels).
struct Slot {
  int bits = 32;
  int row = 0;
};

struct CasePlan {
  size_t caseIndex = 0;
  std::vector<Slot> inputs;  ///< one per source operand (memory: the element)
  Slot output;
};

struct KernelPlan {
  std::string name, script;
  bool memory = false;
  int memBits = 0;      ///< memory kernels: element width
  int k = 3, atom = 1;  ///< registers per thread and atom of each row (4 × 32 × k × atom)
  std::map<int, int> rows, outRows;  ///< rows per element width, inputs and outputs
  std::vector<CasePlan> cases;
  int rowElements() const { return 4 * 32 * k * atom; }
};

std::vector<KernelPlan> planKernels(const std::vector<PtxConformCase>& cases,
                                    const ConformOptions& options,
                                    std::vector<std::string>& skipReasons);
/// Why a case cannot run at target `sm` ("" when it can).
std::string skipReason(const PtxConformCase& c, int sm);
/// The dtype a register tile of this operand uses (the carrier's canonical dtype).
std::string canonicalDtype(const PtxOperandSpec& o);
/// Vectors a case is run with: 384 for arithmetic, one element value per memory element.
int vectorCount(const PtxConformCase& c);
/// Width in bits of a case's result per vector.
int resultBits(const PtxConformCase& c);

std::string base64(const std::vector<uint8_t>& bytes);
bool unbase64(std::string_view text, std::vector<uint8_t>& bytes);

}  // namespace tirx::conform
