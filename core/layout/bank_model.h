// The shared-memory bank model: from the byte addresses one warp instruction touches to the
// number of shared-memory wavefronts it costs (what ncu reports as
// l1tex__data_pipe_lsu_wavefronts_mem_shared) and the banks that conflict. 32 banks of 4 bytes;
// a wavefront serves at most one distinct 4-byte word per bank; lanes reading the same word share
// it (broadcast). The lanes of an access are served in phases of 128 bytes (spec/TIRX-TENSOR-
// CORES.md §6.5): all 32 lanes for ≤ 4-byte accesses, half-warps for 8 bytes, quarter-warps for
// 16 bytes, and one phase per 8×16-byte matrix for ldmatrix/stmatrix. Pure function; checked
// against ncu on the H200 (tc-verify/h200_bank_wavefronts.log, tests/core/tst_bank_model.cpp).
//
// The one bank model of the engine: the simulator's counts (sim/bank_stats.cpp), the simulator's
// bank picture (sim/bank_map.h), `tirx layout --swizzle` and the layout view's statistics of a
// typed layout (views/models/layout_grid_model.h) all call these functions; none computes banks.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace tirx {

inline constexpr int kBanks = 32;
inline constexpr int kBankBytes = 4;

/// The bank of 4-byte word `word` (a shared-window byte address / 4): word mod 32, never negative.
inline int bankOfWord(int64_t word) {
  return static_cast<int>(((word % kBanks) + kBanks) % kBanks);
}
/// The bank of the word holding shared-window byte `byte` (floor division, so a negative offset
/// relative to a tile's start still names the bank its word falls in).
inline int bankOfByte(int64_t byte) {
  return bankOfWord(byte >= 0 ? byte / kBankBytes : -((-byte + kBankBytes - 1) / kBankBytes));
}

/// A bank that needed more than one wavefront in a phase: the distinct words it served.
struct BankConflict {
  int phase = 0;               ///< index of the phase (lane group or matrix)
  int bank = 0;                ///< 0..31
  std::vector<int64_t> words;  ///< distinct byte addresses / 4, ascending
  std::vector<int> lanes;      ///< lanes (or ldmatrix row-address lanes) that touched them
};

struct BankReport {
  int wavefronts = 0;       ///< Σ over phases of the most distinct words any bank serves
  int idealWavefronts = 0;  ///< the same access without conflicts: one per non-empty phase
  int maxWays = 0;          ///< the largest number of distinct words on one bank in one phase
  std::vector<BankConflict> conflicts;  ///< banks with more than one word, by phase then bank
  /// Extra wavefronts caused by conflicts (ncu's l1tex__data_bank_conflicts_pipe_lsu_mem_shared).
  int conflictWavefronts() const { return wavefronts - idealWavefronts; }
};

/// Lanes served in one phase of a per-lane access of `widthBytes`: 32 up to 4 bytes, 16 for 8,
/// 8 for 16 (128 bytes per wavefront). ldmatrix/stmatrix: one phase per 8 row addresses.
inline int lanesPerPhase(int widthBytes) {
  return widthBytes <= 4 ? 32 : (widthBytes <= 8 ? 16 : 8);
}

/// One ld.shared/st.shared (or any per-lane shared access) of `widthBytes` (1, 2, 4, 8 or 16)
/// per lane. `addresses[l]` is lane l's byte address in the CTA's shared window, nullopt for an
/// inactive lane; at most 32 lanes. Returns a report with zero wavefronts when no lane is active.
/// Width 8 and 16 use half- and quarter-warp phases (inferred, docs/decisions.md); a misaligned
/// address is the simulator's fault to report, here it simply covers the words it overlaps.
BankReport sharedAccessWavefronts(std::span<const std::optional<int64_t>> addresses,
                                  int widthBytes);

/// ldmatrix / stmatrix .m8n8 .x1/.x2/.x4: `rowAddresses[8·i + r]` is the 16-byte row r of matrix i
/// (from address lane 8·i + r), 8·count entries. One phase per matrix.
BankReport matrixAccessWavefronts(std::span<const int64_t> rowAddresses);

}  // namespace tirx
