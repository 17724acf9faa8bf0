// Nsight Compute's pages read back and folded onto the script (`tirx profile`): the CSV of
// `ncu -i REP --page source --csv --print-source sass` (one row per SASS instruction with its
// warp-stall samples per reason, instructions executed and shared-memory wavefronts), of
// `--page details --csv` (section / metric / unit / value rows per kernel) and of `--page raw
// --csv` (one column per metric, a units row, a row per kernel). Columns are found by header name,
// fields may be quoted (RFC 4180). The SASS rows are matched to tirx's own SASS (the nvdisasm -g
// listing, register_facts.h) by offset within the kernel (the address minus the kernel's first
// address) and so, through its line records, to script lines. The result is a value with a JSON
// form that the studio and `tirx diff` open without a GPU.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/toolchain/register_facts.h"

namespace tirx::toolchain {

/// RFC 4180 rows: fields separated by commas, double quotes around fields that hold commas,
/// quotes ("" inside) or newlines; CRLF or LF line ends. Lines before the first one that starts
/// with a quote or holds a comma (ncu's "==PROF==" chatter) are skipped.
std::vector<std::vector<std::string>> parseCsv(std::string_view text);

/// One SASS instruction of the source page.
struct NcuSassRow {
  int64_t address = 0;  ///< as printed (hex or decimal)
  int64_t offset = 0;   ///< address minus the page's first address: the offset in the kernel
  std::string source;   ///< the SASS text
  int64_t samples = 0;  ///< "Warp Stall Sampling (All Samples)"
  std::map<std::string, int64_t> stalls;  ///< per reason ("long_scoreboard": n)
  int64_t instructions = 0;               ///< "Instructions Executed" (warp level)
  int64_t sharedWavefronts = 0;           ///< "L1 Wavefronts Shared"
  int64_t sharedIdealWavefronts = 0;      ///< "L1 Wavefronts Shared Ideal"
};

struct NcuSourcePage {
  std::vector<NcuSassRow> rows;
  std::string error;  ///< no header with an address column, ...
};

/// The source page. Stall reasons are the columns whose header starts with `stall_` or holds
/// `pcsamp_warps_issue_stalled_` (the reason is what follows); bank-conflict wavefronts are
/// "L1 Wavefronts Shared" minus "L1 Wavefronts Shared Ideal".
NcuSourcePage parseNcuSourcePage(const std::string& csv);

struct NcuMetric {
  std::string kernel, section, name, unit, value;
};
/// The details page: one entry per row with "Section Name", "Metric Name", "Metric Unit",
/// "Metric Value" (and "Kernel Name" when present).
std::vector<NcuMetric> parseNcuDetailsPage(const std::string& csv);

/// The raw page: metric -> (unit, value) of the first kernel row (the row after the units row).
std::map<std::string, std::pair<std::string, std::string>> parseNcuRawPage(const std::string& csv);

/// Per script line.
struct LineProfile {
  int line = 0;
  int64_t samples = 0;
  std::map<std::string, int64_t> stalls;
  int64_t instructions = 0;
  int64_t sharedWavefronts = 0, sharedIdealWavefronts = 0;
  int sassInstructions = 0;
  int64_t bankConflictWavefronts() const { return sharedWavefronts - sharedIdealWavefronts; }
};

/// The GPU's peaks for the roofline.
struct GpuPeaks {
  std::string name;
  double flops = 0;        ///< dense FLOP/s of the tensor cores (bf16/f16, f32 accumulate)
  double bytesPerSec = 0;  ///< DRAM bytes/s
};
/// By the device name ncu reports ("NVIDIA H200" / "H100"); H100 SXM when nothing matches.
GpuPeaks gpuPeaks(const std::string& deviceName);

/// The stall reason of samples that no reason column of the source page accounts for.
inline constexpr const char* kUnlistedStall = "unlisted";

struct KernelProfile {
  std::string kernel, device;
  double durationNs = 0;
  double flop = 0;   ///< FLOPs executed (2·FFMA + FADD + FMUL, f16/f64 alike, + tensor ops)
  double bytes = 0;  ///< DRAM bytes read and written
  double achievedFlops() const { return durationNs > 0 ? flop / (durationNs * 1e-9) : 0; }
  double achievedBytesPerSec() const { return durationNs > 0 ? bytes / (durationNs * 1e-9) : 0; }
  GpuPeaks peaks;
  double theoreticalOccupancy = 0, achievedOccupancy = 0;  ///< percent, as ncu reports
  std::string occupancyLimiter;  ///< the ncu limiter with the lowest block limit
  int registers = 0;
  int64_t spillBytes = 0;
  int64_t totalSamples = 0;         ///< every sample of the source page
  int64_t unattributedSamples = 0;  ///< samples of instructions with no script line
};

struct Profile {
  KernelProfile kernel;
  std::vector<LineProfile> lines;  ///< ascending line
  std::string status;              ///< how the folding went (joined rows, why none)
};

/// Fold the source page onto script lines through `sass` (the instructions of the kernel's -g
/// listing with their scriptLine) by offset; the kernel facts from the details and raw pages.
Profile foldProfile(const NcuSourcePage& source, const std::vector<SassInstruction>& sass,
                    const std::string& kernel, const std::vector<NcuMetric>& details,
                    const std::map<std::string, std::pair<std::string, std::string>>& raw);

/// The JSON summary (snake_case) and back; `profileFromJson` returns false on a malformed one.
nlohmann::json profileJson(const Profile& p);
bool profileFromJson(const nlohmann::json& j, Profile& p, std::string& why);

/// The text `tirx profile` prints: kernel facts, then one row per line with samples.
std::string formatProfile(const Profile& p, const std::string& file);

}  // namespace tirx::toolchain
