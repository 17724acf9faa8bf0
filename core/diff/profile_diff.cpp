// Per-line and per-kernel comparison of two `tirx profile` summaries (profile_diff.h).
#include "core/diff/profile_diff.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

namespace tirx::diff {

namespace {

std::string topStall(const toolchain::LineProfile& l) {
  std::string best;
  int64_t most = 0;
  for (const auto& [reason, n] : l.stalls)  // ties go to the first name, so the text is stable
    if (n > most) most = n, best = reason;
  return best;
}

double share(int64_t samples, int64_t total) {
  return total > 0 ? 100.0 * double(samples) / double(total) : 0.0;
}

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

/// "12.0 -> 9.5 us (-20.8%)": a kernel fact before and after with its relative change.
std::string change(double a, double b, const char* f, const char* unit) {
  std::string s = fmt(f, a) + " -> " + fmt(f, b) + unit;
  if (a != 0 && a != b) s += " (" + fmt("%+.1f", 100.0 * (b - a) / a) + "%)";
  return s;
}

}  // namespace

bool isProfileReport(const nlohmann::json& j) {
  return j.is_object() && j.contains("kernel") && j["kernel"].is_object() && j.contains("lines") &&
         j["lines"].is_array();
}

bool ProfileDiff::identical() const {
  if (a.durationNs != b.durationNs || a.registers != b.registers ||
      a.totalSamples != b.totalSamples || a.achievedOccupancy != b.achievedOccupancy)
    return false;
  return std::none_of(lines.begin(), lines.end(), [](const auto& l) { return l.changed(); });
}

ProfileDiff diffProfiles(const toolchain::Profile& a, const toolchain::Profile& b) {
  ProfileDiff d;
  d.a = a.kernel;
  d.b = b.kernel;
  std::map<int, ProfileLineDelta> rows;
  auto side = [&rows](const toolchain::Profile& p, bool isB) {
    for (const auto& l : p.lines) {
      ProfileLineDelta& r = rows[l.line];
      r.line = l.line;
      (isB ? r.samplesB : r.samplesA) = l.samples;
      (isB ? r.shareB : r.shareA) = share(l.samples, p.kernel.totalSamples);
      (isB ? r.instructionsB : r.instructionsA) = l.instructions;
      (isB ? r.bankConflictsB : r.bankConflictsA) = l.bankConflictWavefronts();
      (isB ? r.topStallB : r.topStallA) = topStall(l);
    }
  };
  side(a, false);
  side(b, true);
  for (auto& [line, r] : rows) d.lines.push_back(r);
  return d;
}

std::string profileDiffText(const ProfileDiff& d, const std::string& nameA,
                            const std::string& nameB) {
  std::ostringstream s;
  const auto& a = d.a;
  const auto& b = d.b;
  const auto changed = std::count_if(d.lines.begin(), d.lines.end(),
                                     [](const ProfileLineDelta& l) { return l.changed(); });
  s << "A: " << nameA << " (" << a.kernel << " on " << (a.device.empty() ? "?" : a.device)
    << ")\nB: " << nameB << " (" << b.kernel << " on " << (b.device.empty() ? "?" : b.device)
    << ")\n";
  s << "== profile: " << changed << " of " << d.lines.size() << " lines changed\n";
  s << "  duration " << change(a.durationNs / 1000, b.durationNs / 1000, "%.2f", " us") << "\n";
  s << "  achieved "
    << change(a.achievedFlops() / 1e12, b.achievedFlops() / 1e12, "%.4g", " TFLOP/s") << ", "
    << change(a.achievedBytesPerSec() / 1e9, b.achievedBytesPerSec() / 1e9, "%.4g", " GB/s")
    << "\n";
  s << "  occupancy " << change(a.achievedOccupancy, b.achievedOccupancy, "%.1f", "% achieved")
    << ", limited by " << (a.occupancyLimiter.empty() ? "?" : a.occupancyLimiter) << " -> "
    << (b.occupancyLimiter.empty() ? "?" : b.occupancyLimiter) << "\n";
  s << "  registers " << a.registers << " -> " << b.registers << ", spills " << a.spillBytes
    << " -> " << b.spillBytes << " B, stall samples " << a.totalSamples << " -> " << b.totalSamples
    << "\n";
  const char* rowFormat = "  %4s  %-26s  %-15s  %-21s  %-15s  %s\n";
  char row[256];
  std::snprintf(row, sizeof row, rowFormat, "line", "share of samples (points)", "samples",
                "instructions", "bank conflicts", "top stall");
  s << row;
  auto pair = [](int64_t x, int64_t y) { return std::to_string(x) + " -> " + std::to_string(y); };
  for (const ProfileLineDelta& l : d.lines) {
    if (!l.changed()) continue;
    const std::string shares = fmt("%.1f%%", l.shareA) + " -> " + fmt("%.1f%%", l.shareB) + " (" +
                               fmt("%+.1f", l.shareB - l.shareA) + ")";
    const std::string stalls = (l.topStallA.empty() ? "-" : l.topStallA) + " -> " +
                               (l.topStallB.empty() ? "-" : l.topStallB);
    std::snprintf(row, sizeof row, rowFormat, std::to_string(l.line).c_str(), shares.c_str(),
                  pair(l.samplesA, l.samplesB).c_str(),
                  pair(l.instructionsA, l.instructionsB).c_str(),
                  pair(l.bankConflictsA, l.bankConflictsB).c_str(), stalls.c_str());
    s << row;
  }
  if (changed < static_cast<long>(d.lines.size()))
    s << "  (" << d.lines.size() - size_t(changed) << " lines unchanged)\n";
  return s.str();
}

nlohmann::json profileDiffJson(const ProfileDiff& d) {
  auto kernel = [](const toolchain::KernelProfile& k) {
    return nlohmann::json{{"kernel", k.kernel},
                          {"device", k.device},
                          {"duration_ns", k.durationNs},
                          {"achieved_flops", k.achievedFlops()},
                          {"achieved_bytes_per_sec", k.achievedBytesPerSec()},
                          {"achieved_occupancy", k.achievedOccupancy},
                          {"occupancy_limiter", k.occupancyLimiter},
                          {"registers", k.registers},
                          {"spill_bytes", k.spillBytes},
                          {"total_samples", k.totalSamples}};
  };
  nlohmann::json lines = nlohmann::json::array();
  for (const ProfileLineDelta& l : d.lines)
    lines.push_back({{"line", l.line},
                     {"changed", l.changed()},
                     {"samples", {l.samplesA, l.samplesB}},
                     {"share", {l.shareA, l.shareB}},
                     {"instructions", {l.instructionsA, l.instructionsB}},
                     {"bank_conflict_wavefronts", {l.bankConflictsA, l.bankConflictsB}},
                     {"top_stall", {l.topStallA, l.topStallB}}});
  return {{"a", kernel(d.a)}, {"b", kernel(d.b)}, {"identical", d.identical()}, {"lines", lines}};
}

}  // namespace tirx::diff
