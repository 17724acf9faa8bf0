// Two saved profiles of a kernel compared (`tirx diff A.json B.json` where both are `tirx profile`
// REPORT.json files): the kernel facts before -> after (duration, achieved FLOP/s and bytes/s,
// occupancy and its limiter, registers, spills, stall samples) and, per script line, the share of
// the stall samples, the instructions and the bank-conflict wavefronts of each version with the
// change. Lines are paired by number: a REPORT.json records script lines, not the script, so an
// edit that moves lines shows as one line losing its samples and another gaining them (profile
// the two versions of a script with the same line numbers, or diff the scripts for the pairing).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/toolchain/ncu_profile.h"

namespace tirx::diff {

/// One script line present in either profile (samples 0 and share 0 where it has none).
struct ProfileLineDelta {
  int line = 0;
  int64_t samplesA = 0, samplesB = 0;
  double shareA = 0, shareB = 0;  ///< percent of each kernel's total stall samples
  int64_t instructionsA = 0, instructionsB = 0;
  int64_t bankConflictsA = 0, bankConflictsB = 0;  ///< excess shared wavefronts
  std::string topStallA, topStallB;                ///< the reason with most samples ("" none)
  bool changed() const {
    return samplesA != samplesB || instructionsA != instructionsB ||
           bankConflictsA != bankConflictsB || topStallA != topStallB;
  }
};

struct ProfileDiff {
  toolchain::KernelProfile a, b;
  std::vector<ProfileLineDelta> lines;  ///< ascending line
  /// Nothing to tell apart: the same kernel facts and every line unchanged.
  bool identical() const;
};

/// Whether `j` is a `tirx profile` summary (an object with "kernel" and "lines").
bool isProfileReport(const nlohmann::json& j);

ProfileDiff diffProfiles(const toolchain::Profile& a, const toolchain::Profile& b);

/// `== profile` with the kernel rows and one row per changed line (the share's change in
/// percentage points), then the count of unchanged lines.
std::string profileDiffText(const ProfileDiff& d, const std::string& nameA,
                            const std::string& nameB);
nlohmann::json profileDiffJson(const ProfileDiff& d);

}  // namespace tirx::diff
