// GPU runs under NVIDIA's compute-sanitizer (`--sanitize TOOL`): which tool, where the binary is,
// how the runner child is wrapped, and the parser that turns the sanitizer's report (its
// `--log-file`) into diagnostics at script lines. The generated CUDA carries `#line` directives, so
// the report names script lines (`race.py:27`); a race becomes one diagnostic at the first access
// with a note at the second, a memcheck/initcheck/synccheck error one diagnostic naming the access
// kind, size, thread and block. Locations outside the script (a header, the generated .cu) are
// reported at a fallback span with the location in the message. The report's error count and its
// CUDA API errors (the launch failure memcheck causes when it stops a kernel) are kept apart from
// the findings, so a caller can tell a clean run, a run with findings and a truncated report apart.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/diag/diagnostic.h"

namespace tirx::driver {

enum class SanitizerTool { None, Memcheck, Racecheck, Initcheck, Synccheck };

/// "memcheck" … ; "" for None.
std::string_view sanitizerToolName(SanitizerTool t);
/// Parses a tool name; false for anything but the four tools.
bool parseSanitizerTool(std::string_view text, SanitizerTool& tool);

/// The compute-sanitizer binary: the first executable `compute-sanitizer` in the directories of
/// `pathEnv` (colon-separated), then `cudaHome`/bin, then each of `fallbackDirs`. Empty when none.
std::string findComputeSanitizer(std::string_view pathEnv, std::string_view cudaHome,
                                 const std::vector<std::string>& fallbackDirs);
/// The same with $PATH, $CUDA_HOME and /usr/local/cuda/bin.
std::string findComputeSanitizer();

/// The runner timeout under the sanitizer: racecheck slows kernels down most (×20), the other
/// tools ×10, plus 60 s for the tool's start-up.
int sanitizedTimeoutMs(SanitizerTool tool, int timeoutMs);

/// argv of the wrapped child: `compute-sanitizer --tool T --log-file LOG --print-limit N
/// --show-backtrace device PROGRAM ARGS...` (argv[0] is the sanitizer).
std::vector<std::string> sanitizerArgv(const std::string& sanitizer, SanitizerTool tool,
                                       const std::string& logFile, int printLimit,
                                       const std::vector<std::string>& program);

/// What a report says.
struct SanitizerReport {
  SanitizerTool tool = SanitizerTool::None;
  bool header = false;        ///< the "COMPUTE-SANITIZER" banner was seen
  bool summary = false;       ///< the closing ERROR/RACECHECK SUMMARY line was seen
  int errors = 0;             ///< the summary's error count (racecheck: its errors)
  int warnings = 0;           ///< racecheck's warnings
  int findings = 0;           ///< reported problems in kernel code (before de-duplication)
  int apiErrors = 0;          ///< "Program hit CUDA_ERROR_…" lines
  std::string firstApiError;  ///< e.g. "CUDA_ERROR_LAUNCH_FAILED on cuEventSynchronize"
  Diagnostics diagnostics;    ///< findings at script lines, duplicates merged
  bool clean() const { return summary && errors == 0 && warnings == 0 && findings == 0; }
  /// "compute-sanitizer racecheck: 2 errors, 0 warnings" / "… no errors" / "… report truncated".
  std::string summaryText() const;
};

/// Parses the text of a compute-sanitizer log. `scriptFile` is the script's file name as the
/// `#line` directives spell it (only its last path component is compared); `source`, when given,
/// lets spans cover the reported line's text; `fallback` is where findings outside the script
/// are reported (the kernel's def). Never throws; garbage gives a report without header/summary.
SanitizerReport parseSanitizerReport(std::string_view text, SanitizerTool tool,
                                     std::string_view scriptFile, std::string_view source,
                                     SourceSpan fallback);

}  // namespace tirx::driver
