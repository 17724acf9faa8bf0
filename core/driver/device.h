// The one front door to the devices: `parseDevice` reads every device text the CLI and the studio
// accept — `sim`, `cuda`, `cuda:N`, `both` (verify: the simulator and cuda:0, compared), and
// `ssh://[user@]host[:port]/cuda[:N]` or `ssh://…/sim` — together with the sanitizer option, into
// a DeviceSpec value; `makeExecutor` turns a DeviceSpec into the ir::Executor that runs kernels
// there (the simulator, or the runner-based CudaExecutor, local or over ssh). Front ends (CLI
// commands, the studio's engine adapters) call these two and nothing else: no other file parses
// device text or constructs an executor (tst_include_layering checks it). Options and reports
// carry the DeviceSpec; a report names its device with `DeviceSpec::text()`.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diag/budget.h"
#include "core/diag/result.h"
#include "core/driver/remote.h"
#include "core/driver/sanitizer.h"
#include "core/ir/ir.h"
#include "core/ir/values.h"

namespace tirx::driver {

/// Per-launch timings of a GPU executor's last run (milliseconds, CUDA events), for benchmarks.
struct LaunchTimings {
  std::vector<double> launchesMs;
  double medianMs = 0, minMs = 0;
};

enum class DeviceKind {
  Sim,     ///< the CPU simulator of this process
  Cuda,    ///< a GPU of this host (`index`), through the runner child
  Remote,  ///< another host over ssh (`remote`): its GPU or its simulator
};

/// A device as parsed once from the user's text.
struct DeviceSpec {
  DeviceKind kind = DeviceKind::Sim;
  int index = 0;                    ///< CUDA device index (cuda:N; for Remote the host's)
  std::optional<SshTarget> remote;  ///< set iff kind == Remote
  /// `both` (verify only): the simulator and cuda:`index`, with a device comparison.
  bool both = false;
  /// Local GPU runs under compute-sanitizer with this tool (None: directly).
  SanitizerTool sanitize = SanitizerTool::None;

  bool isSim() const { return kind == DeviceKind::Sim && !both; }
  /// Kernels run somewhere other than this process's simulator (a GPU, or an ssh host).
  bool usesRunner() const { return kind != DeviceKind::Sim || both; }
  /// "sim", "cuda:0", "both", "ssh://user@host:2222/cuda:1" (parseDevice reads it back).
  std::string text() const;
  static DeviceSpec simulator() { return {}; }
  static DeviceSpec cuda(int index = 0);
  bool operator==(const DeviceSpec& o) const;
};

/// Parses a device text and, when given, a `--sanitize` tool name (memcheck, racecheck, initcheck,
/// synccheck). Status{"device", why} for anything else: an unknown form, an index past 1023, a bad
/// ssh user, host or port, an unknown tool, or a tool with a device it cannot watch (the simulator
/// or an ssh host). The messages say what was expected and what was found.
Result<DeviceSpec> parseDevice(std::string_view text,
                               std::optional<std::string_view> sanitizer = std::nullopt);

/// What an executor needs besides the device: the script it runs (the #line file name and the text,
/// for the spans of faults and sanitizer findings), the compile target and the run's limits.
struct ExecutorContext {
  int sm = 0;                            ///< compile target; 0 = the program's targetSm
  std::string scriptFile = "script.py";  ///< #line file name
  std::string scriptSource;              ///< the script text (remote sim requests carry it)
  WorkBudget* budget = nullptr;          ///< charged by the simulator, polled around the runner
  int timeoutMs = 30000;                 ///< runner child time limit (no budget time limit)
  int warmup = 0, repeats = 1;           ///< benchmarks: extra and timed launches
  bool trackDefined = true;              ///< see CudaExecutorOptions::trackDefined
  bool simProvenance = true;             ///< simulator: record who wrote each element
  std::string runnerPath;                ///< the `tirx` runner binary; empty = findRunner()
  /// Called with every sanitizer report (the CLI prints its summary line).
  std::function<void(const SanitizerReport&)> onSanitizerReport;
};

/// The executor of `device`: a sim::Simulator, or a CudaExecutor (local GPU, or the ssh host's GPU
/// or simulator; for `both`, the GPU side: verify runs its own simulator beside it). Status{"cuda",
/// "no CUDA driver found (libcuda.so.1)"} for a local GPU without a driver library (and without
/// $TIRX_RUNNER); a remote host is only reached when it runs.
Result<std::unique_ptr<ir::Executor>> makeExecutor(const DeviceSpec& device,
                                                   const ExecutorContext& context = {});

/// Whether GPU runs can be attempted: a CUDA driver library is present, or TIRX_RUNNER is set.
/// `why` says what is missing.
bool gpuPathAvailable(std::string* why = nullptr);

/// The sanitizer report of `exec`'s last run, when it is a GPU executor that ran under one.
const SanitizerReport* lastSanitizerReport(const ir::Executor& exec);
/// The per-launch timings of `exec`'s last run, when it is a GPU executor (null for the simulator).
const LaunchTimings* lastLaunchTimings(const ir::Executor& exec);

}  // namespace tirx::driver
