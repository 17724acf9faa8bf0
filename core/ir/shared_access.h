// Shared-memory traffic of a simulated run as engine values: for every statement that touches
// shared memory (ld/st.shared tile ops, ldmatrix, stmatrix, element loads and stores of a shared
// tile), the warp instructions it issued and the wavefronts they cost under the bank model of
// core/sim/bank_model.h (what ncu reports as l1tex__data_pipe_lsu_wavefronts_mem_shared), summed
// over every CTA, and the same per script line. The studio and `tirx run --json` show them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/diag/diagnostic.h"

namespace tirx::ir {

struct SharedAccessCount {
  SourceSpan span;            ///< the statement (tile op, element store, or the load's statement)
  std::string op;             ///< "ldmatrix.sync.aligned.m8n8.x4.shared.b16", "ld.shared.v4.b32",
                              ///< "load S", "store S"
  std::string tensor;         ///< the shared tensor as the script spelled it
  int64_t instructions = 0;   ///< warp instructions (one per warp, repeat and execution)
  int64_t wavefronts = 0;     ///< Σ wavefronts
  int64_t idealWavefronts = 0;///< Σ wavefronts of the same accesses without bank conflicts
  int maxWays = 0;            ///< the worst bank conflict of one phase (1 = none)
  int64_t conflictWavefronts() const { return wavefronts - idealWavefronts; }
};

/// The counts of one script line (every statement on it).
struct SharedLineCount {
  int line = 0;
  int64_t instructions = 0, wavefronts = 0, idealWavefronts = 0;
  int maxWays = 0;
};

/// Per-line sums of `ops`, ascending by line.
std::vector<SharedLineCount> sharedAccessesByLine(const std::vector<SharedAccessCount>& ops);

}  // namespace tirx::ir
