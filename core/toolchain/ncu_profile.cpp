// Reading Nsight Compute's CSV pages and folding them onto script lines (ncu_profile.h).
#include "core/toolchain/ncu_profile.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <sstream>

namespace tirx::toolchain {

namespace {

int column(const std::vector<std::string>& header, std::initializer_list<const char*> names) {
  for (const char* n : names)
    for (size_t i = 0; i < header.size(); ++i)
      if (header[i] == n) return int(i);
  return -1;
}

std::string field(const std::vector<std::string>& row, int c) {
  return c >= 0 && size_t(c) < row.size() ? row[size_t(c)] : std::string();
}

/// A number as ncu prints it: "1,234" or "1 234" groupings dropped, "0x.." hex, "n/a" 0.
double number(std::string s) {
  s.erase(std::remove_if(s.begin(), s.end(), [](char c) { return c == ',' || c == ' '; }), s.end());
  if (s.empty()) return 0;
  if (s.rfind("0x", 0) == 0) return double(std::strtoull(s.c_str() + 2, nullptr, 16));
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  return end == s.c_str() ? 0 : v;
}

int64_t address(const std::string& s) {
  if (s.rfind("0x", 0) == 0) return int64_t(std::strtoull(s.c_str() + 2, nullptr, 16));
  // nvdisasm-style offsets ("0890") and bare hex addresses are hex; plain decimals are not
  // printed by ncu for addresses.
  return int64_t(std::strtoull(s.c_str(), nullptr, 16));
}

/// Scale of a unit to the base (bytes, nanoseconds, operations).
double unitScale(const std::string& u) {
  static const std::pair<const char*, double> k[] = {
      {"byte", 1},
      {"Kbyte", 1e3},
      {"Mbyte", 1e6},
      {"Gbyte", 1e9},
      {"nsecond", 1},
      {"usecond", 1e3},
      {"msecond", 1e6},
      {"second", 1e9},
      {"inst", 1},
      {"Kinst", 1e3},
      {"Minst", 1e6},
      {"Ginst", 1e9},
      {"Kbyte/second", 1e3},
      {"cycle", 1},
      // Nsight Compute 2025.3's short spellings (recorded on the H100: "Duration","us","19.33")
      {"ns", 1},
      {"us", 1e3},
      {"ms", 1e6},
      {"s", 1e9},
      {"Tbyte", 1e12}};
  for (const auto& [name, scale] : k)
    if (u == name) return scale;
  return 1;
}

}  // namespace

std::vector<std::vector<std::string>> parseCsv(std::string_view text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string cur;
  bool quoted = false, any = false;
  size_t i = 0;
  // Skip leading lines that are not CSV (ncu's ==PROF== / ==WARNING== lines).
  while (i < text.size() && text[i] != '"' &&
         text.substr(i, text.find('\n', i) - i).find(',') == std::string_view::npos) {
    const size_t nl = text.find('\n', i);
    i = nl == std::string_view::npos ? text.size() : nl + 1;
  }
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        cur += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cur += c;
      }
      continue;
    }
    if (c == '"') {
      quoted = true;
      any = true;
    } else if (c == ',') {
      row.push_back(std::move(cur));
      cur.clear();
      any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (any || !cur.empty()) {
        row.push_back(std::move(cur));
        rows.push_back(std::move(row));
      }
      row.clear();
      cur.clear();
      any = false;
    } else {
      cur += c;
    }
  }
  if (any || !cur.empty()) {
    row.push_back(std::move(cur));
    rows.push_back(std::move(row));
  }
  return rows;
}

NcuSourcePage parseNcuSourcePage(const std::string& csv) {
  NcuSourcePage page;
  const auto rows = parseCsv(csv);
  size_t h = 0;
  int addr = -1;
  for (; h < rows.size() && addr < 0; ++h) addr = column(rows[h], {"# Address", "Address"});
  if (addr < 0) {
    page.error = "the source page has no Address column";
    return page;
  }
  const auto& header = rows[h - 1];
  const int src = column(header, {"Source"});
  const int samples = column(header, {"Warp Stall Sampling (All Samples)", "Sampling Data (All)"});
  const int inst = column(header, {"Instructions Executed"});
  const int wave = column(header, {"L1 Wavefronts Shared"});
  const int ideal = column(header, {"L1 Wavefronts Shared Ideal"});
  std::vector<std::pair<int, std::string>> stallCols;
  for (size_t c = 0; c < header.size(); ++c) {
    const std::string& n = header[c];
    const size_t p = n.find("pcsamp_warps_issue_stalled_");
    // ncu 2025.3 repeats every reason as "stall_X (Not Issued)", the not-issued subset of the
    // same samples: the reasons split the all-samples column, so those columns are left out.
    const bool notIssued =
        n.find("(Not Issued)") != std::string::npos || n.find("not_issued") != std::string::npos;
    if (notIssued) continue;
    if (n.rfind("stall_", 0) == 0)
      stallCols.emplace_back(int(c), n.substr(6));
    else if (p != std::string::npos)
      stallCols.emplace_back(int(c), n.substr(p + 27));
  }
  for (size_t r = h; r < rows.size(); ++r) {
    const auto& row = rows[r];
    const std::string a = field(row, addr);
    if (a.empty() || !std::isxdigit(static_cast<unsigned char>(a.back()))) continue;
    NcuSassRow s;
    s.address = address(a);
    s.source = field(row, src);
    s.samples = int64_t(number(field(row, samples)));
    s.instructions = int64_t(number(field(row, inst)));
    s.sharedWavefronts = int64_t(number(field(row, wave)));
    s.sharedIdealWavefronts = int64_t(number(field(row, ideal)));
    int64_t named = 0;
    for (const auto& [c, reason] : stallCols)
      if (const int64_t v = int64_t(number(field(row, c))); v != 0) {
        s.stalls[reason] += v;
        named += v;
      }
    // Samples whose reason has no column on the page (the H100's HGMMA rows: sampled, no stall_X
    // column set) keep a reason of their own, so that a line's reasons add up to its samples.
    if (!stallCols.empty() && s.samples > named) s.stalls[kUnlistedStall] += s.samples - named;
    page.rows.push_back(std::move(s));
  }
  if (!page.rows.empty()) {
    int64_t first = page.rows.front().address;
    for (const auto& r : page.rows) first = std::min(first, r.address);
    for (auto& r : page.rows) r.offset = r.address - first;
  }
  return page;
}

std::vector<NcuMetric> parseNcuDetailsPage(const std::string& csv) {
  std::vector<NcuMetric> out;
  const auto rows = parseCsv(csv);
  if (rows.empty()) return out;
  const auto& h = rows[0];
  const int kernel = column(h, {"Kernel Name"}), section = column(h, {"Section Name"}),
            name = column(h, {"Metric Name"}), unit = column(h, {"Metric Unit"}),
            value = column(h, {"Metric Value"});
  if (name < 0 || value < 0) return out;
  for (size_t r = 1; r < rows.size(); ++r)
    out.push_back({field(rows[r], kernel), field(rows[r], section), field(rows[r], name),
                   field(rows[r], unit), field(rows[r], value)});
  return out;
}

std::map<std::string, std::pair<std::string, std::string>> parseNcuRawPage(const std::string& csv) {
  std::map<std::string, std::pair<std::string, std::string>> out;
  const auto rows = parseCsv(csv);
  if (rows.size() < 3) return out;
  for (size_t c = 0; c < rows[0].size(); ++c)
    out[rows[0][c]] = {field(rows[1], int(c)), field(rows[2], int(c))};
  return out;
}

GpuPeaks gpuPeaks(const std::string& deviceName) {
  if (deviceName.find("H200") != std::string::npos) return {"H200", 989.4e12, 4.8e12};
  return {"H100", 989.4e12, 3.35e12};
}

Profile foldProfile(const NcuSourcePage& source, const std::vector<SassInstruction>& sass,
                    const std::string& kernel, const std::vector<NcuMetric>& details,
                    const std::map<std::string, std::pair<std::string, std::string>>& raw) {
  Profile p;
  p.kernel.kernel = kernel;
  std::map<int64_t, int> lineOf;  // offset -> script line
  for (const SassInstruction& s : sass)
    if (kernel.empty() || s.function == kernel) lineOf[s.address] = s.scriptLine;
  std::map<int, LineProfile> lines;
  int joined = 0;
  for (const NcuSassRow& r : source.rows) {
    p.kernel.totalSamples += r.samples;
    const auto it = lineOf.find(r.offset);
    if (it == lineOf.end() || it->second <= 0) {
      p.kernel.unattributedSamples += r.samples;
      continue;
    }
    ++joined;
    LineProfile& l = lines[it->second];
    l.line = it->second;
    l.samples += r.samples;
    for (const auto& [reason, n] : r.stalls) l.stalls[reason] += n;
    l.instructions += r.instructions;
    l.sharedWavefronts += r.sharedWavefronts;
    l.sharedIdealWavefronts += r.sharedIdealWavefronts;
    ++l.sassInstructions;
  }
  for (auto& [line, l] : lines) p.lines.push_back(std::move(l));
  p.status = std::to_string(joined) + " of " + std::to_string(source.rows.size()) +
             " SASS rows joined to tirx's SASS by offset";
  if (lineOf.empty()) p.status = "no SASS line records of kernel '" + kernel + "': nothing folded";
  KernelProfile& k = p.kernel;
  for (const NcuMetric& m : details) {
    const double v = number(m.value);
    if (m.name == "Duration") k.durationNs = v * unitScale(m.unit);
    if (m.name == "Registers Per Thread") k.registers = int(v);
    if (m.name == "Theoretical Occupancy") k.theoreticalOccupancy = v;
    if (m.name == "Achieved Occupancy") k.achievedOccupancy = v;
  }
  // The limiter: the "Block Limit ..." metric with the fewest blocks.
  double fewest = 1e30;
  for (const NcuMetric& m : details)
    if (m.name.rfind("Block Limit ", 0) == 0 && number(m.value) < fewest) {
      fewest = number(m.value);
      k.occupancyLimiter = m.name.substr(12);
    }
  auto rawValue = [&](const std::string& name) {
    const auto it = raw.find(name);
    return it == raw.end() ? 0.0 : number(it->second.second) * unitScale(it->second.first);
  };
  if (k.durationNs == 0) k.durationNs = rawValue("gpu__time_duration.sum");
  k.bytes = rawValue("dram__bytes_read.sum") + rawValue("dram__bytes_write.sum");
  if (k.bytes == 0) k.bytes = rawValue("dram__bytes.sum");
  for (const char* prec : {"f", "h", "d"}) {
    const std::string base = std::string("smsp__sass_thread_inst_executed_op_") + prec;
    k.flop += 2 * rawValue(base + "fma_pred_on.sum") + rawValue(base + "add_pred_on.sum") +
              rawValue(base + "mul_pred_on.sum");
  }
  // Tensor-core FLOPs by source type (`sm__ops_path_tensor_src_*`): ncu also breaks the same
  // operations down by instruction (`sm__ops_path_tensor_op_hgmma_…`), so summing every
  // `sm__ops_path_tensor_*` counted each wgmma twice (1474 "TFLOP/s" on an H100 peak of 989).
  for (const auto& [name, uv] : raw)
    if (name.rfind("sm__ops_path_tensor_src_", 0) == 0 && name.size() > 4 &&
        name.substr(name.size() - 4) == ".sum")
      k.flop += number(uv.second) * unitScale(uv.first);
  const auto dev = raw.find("device__attribute_display_name");
  k.device = dev == raw.end() ? "" : dev->second.second;
  k.peaks = gpuPeaks(k.device);
  return p;
}

nlohmann::json profileJson(const Profile& p) {
  const KernelProfile& k = p.kernel;
  nlohmann::json lines = nlohmann::json::array();
  for (const LineProfile& l : p.lines)
    lines.push_back({{"line", l.line},
                     {"samples", l.samples},
                     {"stalls", l.stalls},
                     {"instructions", l.instructions},
                     {"shared_wavefronts", l.sharedWavefronts},
                     {"shared_ideal_wavefronts", l.sharedIdealWavefronts},
                     {"bank_conflict_wavefronts", l.bankConflictWavefronts()},
                     {"sass_instructions", l.sassInstructions}});
  return {{"version", 1},
          {"status", p.status},
          {"kernel",
           {{"name", k.kernel},
            {"device", k.device},
            {"duration_ns", k.durationNs},
            {"flop", k.flop},
            {"bytes", k.bytes},
            {"achieved_flops", k.achievedFlops()},
            {"achieved_bytes_per_sec", k.achievedBytesPerSec()},
            {"peak_flops", k.peaks.flops},
            {"peak_bytes_per_sec", k.peaks.bytesPerSec},
            {"peaks_of", k.peaks.name},
            {"theoretical_occupancy", k.theoreticalOccupancy},
            {"achieved_occupancy", k.achievedOccupancy},
            {"occupancy_limiter", k.occupancyLimiter},
            {"registers", k.registers},
            {"spill_bytes", k.spillBytes},
            {"total_samples", k.totalSamples},
            {"unattributed_samples", k.unattributedSamples}}},
          {"lines", lines}};
}

bool profileFromJson(const nlohmann::json& j, Profile& p, std::string& why) {
  try {
    if (!j.is_object() || j.value("version", 0) != 1) {
      why = "not a version 1 tirx profile";
      return false;
    }
    p = {};
    p.status = j.value("status", "");
    const auto& k = j.at("kernel");
    KernelProfile& kp = p.kernel;
    kp.kernel = k.value("name", "");
    kp.device = k.value("device", "");
    kp.durationNs = k.value("duration_ns", 0.0);
    kp.flop = k.value("flop", 0.0);
    kp.bytes = k.value("bytes", 0.0);
    kp.peaks = {k.value("peaks_of", ""), k.value("peak_flops", 0.0),
                k.value("peak_bytes_per_sec", 0.0)};
    kp.theoreticalOccupancy = k.value("theoretical_occupancy", 0.0);
    kp.achievedOccupancy = k.value("achieved_occupancy", 0.0);
    kp.occupancyLimiter = k.value("occupancy_limiter", "");
    kp.registers = k.value("registers", 0);
    kp.spillBytes = k.value("spill_bytes", int64_t(0));
    kp.totalSamples = k.value("total_samples", int64_t(0));
    kp.unattributedSamples = k.value("unattributed_samples", int64_t(0));
    for (const auto& l : j.at("lines")) {
      LineProfile lp;
      lp.line = l.at("line").get<int>();
      lp.samples = l.value("samples", int64_t(0));
      lp.stalls = l.value("stalls", std::map<std::string, int64_t>{});
      lp.instructions = l.value("instructions", int64_t(0));
      lp.sharedWavefronts = l.value("shared_wavefronts", int64_t(0));
      lp.sharedIdealWavefronts = l.value("shared_ideal_wavefronts", int64_t(0));
      lp.sassInstructions = l.value("sass_instructions", 0);
      p.lines.push_back(std::move(lp));
    }
  } catch (const std::exception& e) {
    why = std::string("malformed profile: ") + e.what();
    return false;
  }
  return true;
}

std::string formatProfile(const Profile& p, const std::string& file) {
  const KernelProfile& k = p.kernel;
  std::ostringstream s;
  s << std::fixed << std::setprecision(1);
  s << "kernel " << k.kernel << " on " << (k.device.empty() ? "?" : k.device) << ": "
    << k.durationNs / 1000 << " us, " << k.achievedFlops() / 1e12 << " TFLOP/s of "
    << k.peaks.flops / 1e12 << ", " << k.achievedBytesPerSec() / 1e9 << " GB/s of "
    << k.peaks.bytesPerSec / 1e9 << " (" << k.peaks.name << ")\n";
  s << "occupancy " << k.achievedOccupancy << "% achieved, " << k.theoreticalOccupancy
    << "% theoretical, limited by " << (k.occupancyLimiter.empty() ? "?" : k.occupancyLimiter)
    << "; " << k.registers << " registers\n";
  s << "stall samples " << k.totalSamples << " (" << k.unattributedSamples
    << " outside the script's lines); " << p.status << "\n";
  s << "  line  samples  share  instructions  bank-conflict wavefronts  top stalls\n";
  for (const LineProfile& l : p.lines) {
    std::vector<std::pair<int64_t, std::string>> top;
    for (const auto& [r, n] : l.stalls) top.emplace_back(n, r);
    std::sort(top.rbegin(), top.rend());
    std::string reasons;
    for (size_t i = 0; i < top.size() && i < 3; ++i) {
      char b[64];
      std::snprintf(b, sizeof b, "%s %.0f%%", top[i].second.c_str(),
                    l.samples ? 100.0 * double(top[i].first) / double(l.samples) : 0.0);
      reasons += (i ? ", " : "") + std::string(b);
    }
    s << std::setw(6) << l.line << std::setw(9) << l.samples << std::setw(6)
      << (k.totalSamples ? 100.0 * double(l.samples) / double(k.totalSamples) : 0.0) << "%"
      << std::setw(14) << l.instructions << std::setw(26) << l.bankConflictWavefronts() << "  "
      << reasons << "\n";
  }
  (void)file;
  return s.str();
}

}  // namespace tirx::toolchain
