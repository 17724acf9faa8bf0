// Shared-memory traffic of a simulated run as engine values: for every statement that touches
// shared memory (ld/st.shared tile ops, ldmatrix, stmatrix, element loads and stores of a shared
// tile), the warp instructions it issued and the wavefronts they cost under the bank model of
// core/layout/bank_model.h (what ncu reports as l1tex__data_pipe_lsu_wavefronts_mem_shared), summed
// over every CTA, and the same per script line. The studio and `tirx run --json` show them. The
// first CTA's warp instructions are also kept lane by lane (a bounded sample per warp), so that the
// studio's bank view can draw which elements one instruction touches and which of them conflict
// (core/sim/bank_map.h) from the very addresses these counts were made of.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/diag/diagnostic.h"

namespace tirx::ir {

/// One warp instruction of a statement as the simulator counted it: its lanes' addresses.
struct SharedWarpAccess {
  int64_t warp = 0;       ///< warp of the CTA
  int64_t execution = 0;  ///< the lanes' execution count of the statement (the loop iteration)
  int64_t repeat = 0;     ///< the tile op's repeat (row-major), 0 for other statements
  int width = 4;          ///< bytes per lane (16 per row address for ldmatrix/stmatrix)
  bool matrix = false;    ///< ldmatrix/stmatrix: `addresses` are the 8·count row addresses
  /// Per lane: byte address in the CTA's shared window, −1 inactive.
  std::vector<int64_t> addresses;
};

/// Warp instructions kept per warp and statement in SharedAccessCount::samples.
inline constexpr int kSharedSamplesPerWarp = 16;

struct SharedAccessCount {
  SourceSpan span;              ///< the statement (tile op, element store, or the load's statement)
  std::string op;               ///< "ldmatrix.sync.aligned.m8n8.x4.shared.b16", "ld.shared.v4.b32",
                                ///< "load S", "store S"
  std::string tensor;           ///< the shared tensor as the script spelled it
  int64_t instructions = 0;     ///< warp instructions (one per warp, repeat and execution)
  int64_t wavefronts = 0;       ///< Σ wavefronts
  int64_t idealWavefronts = 0;  ///< Σ wavefronts of the same accesses without bank conflicts
  int maxWays = 0;              ///< the worst bank conflict of one phase (1 = none)
  int buffer = -1;              ///< the kernel's shared buffer the statement accesses
  int64_t base = 0;             ///< that buffer's byte offset in the CTA's shared window
  int64_t sampledCta = -1;      ///< the CTA `samples` come from (the first one simulated)
  /// The first kSharedSamplesPerWarp warp instructions of every warp of `sampledCta`, ascending by
  /// (warp, execution, repeat); counted above like every other instruction.
  std::vector<SharedWarpAccess> samples;
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
