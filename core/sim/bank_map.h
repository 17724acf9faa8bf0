// The bank picture of one statement's shared accesses for one warp: every element of the shared
// buffer that the warp's instructions touch, with its bank, the wavefront that serves its word and
// the elements on the other words of the same bank in the same phase (the ones that cost the extra
// wavefronts). It is made from the lane addresses the simulator counted
// (ir::SharedAccessCount::samples) through the bank model's phases (bank_model.h), so the picture
// and the counts agree: the map's wavefront sums are sharedAccessWavefronts()'s for the same
// instructions. The studio's bank view outlines these cells (views/widgets/bank_image_view.h).
//
// Which word a conflicting bank serves first is not specified by the hardware; here a bank's
// distinct words are served in ascending address order, so `wavefront` is the word's rank among
// its bank's words in its phase plus the wavefronts of the phases before.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/ir.h"
#include "core/ir/shared_access.h"

namespace tirx::sim {

/// One element touched by one warp instruction.
struct BankCell {
  int64_t element = -1;  ///< row-major flat index into the buffer's logical shape
  int sample = 0;        ///< the instruction: index into SharedAccessCount::samples
  int lane = 0;          ///< the lane whose access covers it (ldmatrix: the row-address lane)
  int64_t byte = 0;      ///< its first byte in the buffer, after the swizzle
  int bank = 0;          ///< (shared-window address / 4) % 32 of its first byte
  int phase = 0;         ///< lane group (32, 16 or 8 lanes by width) or matrix of the instruction
  int wavefront = 0;     ///< 0-based within the instruction (see the top of this file)
  int ways = 1;          ///< distinct words its bank serves in its phase (1: no conflict)
  /// Elements on the other words of its bank in its phase, ascending (empty: no conflict).
  std::vector<int64_t> partners;
};

struct WarpBankMap {
  std::vector<BankCell> cells;  ///< by sample, then element
  std::vector<int> samples;     ///< the warp's instructions (indices into samples)
  /// Sums over those instructions, from the bank model (what the simulator added to its counts).
  int64_t wavefronts = 0, idealWavefronts = 0;
  int maxWays = 0;
  /// The warp has kSharedSamplesPerWarp kept instructions: it may have executed more, not drawn.
  bool truncated = false;
  std::string why;  ///< why there is no map (no samples for the warp, unknown buffer); else empty
};

/// The warps `count.samples` holds, ascending.
std::vector<int64_t> sampledWarps(const ir::SharedAccessCount& count);

/// The bank map of `warp`'s sampled instructions of `count` (a statement of `kernel` as the
/// simulator counted it). Buffers over 2^20 elements give an empty map with `why`.
WarpBankMap warpBankMap(const ir::Kernel& kernel, const ir::SharedAccessCount& count, int64_t warp);

}  // namespace tirx::sim
