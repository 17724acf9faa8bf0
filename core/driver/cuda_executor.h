// The GPU backend: an ir::Executor that compiles a kernel (cached) and runs it in a CHILD
// PROCESS, `tirx runner REQUEST.json RESPONSE.json`, so that an illegal address, a misaligned
// access or a hung kernel kills the child and never the caller. Arguments travel as raw files in
// a temporary directory, exactly as the caller gave them; only elements the caller marked
// undefined (HostTensor::defined) are poisoned, and when there are any the kernel runs twice with
// two poison bytes so that the outputs come back with their definedness. The parent enforces a
// timeout and the job's budget (cancellation) and reports faults with the kernel's name. The
// protocol is documented in docs/runner.md; runRunner() is the child's side.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/diag/result.h"
#include "core/driver/device.h"
#include "core/driver/remote.h"
#include "core/driver/sanitizer.h"
#include "core/ir/ir.h"
#include "core/ir/values.h"

namespace tirx::driver {

struct CudaExecutorOptions {
  int device = 0;                        ///< CUDA device index (`--device cuda:N`)
  int sm = 0;                            ///< compile target; 0 = the program's targetSm
  std::string runnerPath;                ///< the `tirx` binary; empty = findRunner()
  std::string scriptFile = "script.py";  ///< #line file name (for faults and .loc)
  int timeoutMs = 30000;  ///< kill the child after this long (unless the budget has a time limit)
  int warmup = 0;         ///< extra launches before the timed ones (benchmarks)
  int repeats = 1;        ///< timed launches; RunOutcome::runMs is their median
  bool keepTemp = false;  ///< keep the request directory (debugging)
  /// Run twice when some element is undefined, to learn which output elements the kernel defined.
  /// Off (benchmarks): one run, and the `defined` masks of the arguments are left as they were.
  bool trackDefined = true;
  /// Run the child under compute-sanitizer with this tool (None: directly). The runner timeout is
  /// raised (sanitizedTimeoutMs); findings become faults at script lines (E0955–E0959).
  SanitizerTool sanitize = SanitizerTool::None;
  int sanitizerPrintLimit = 100;  ///< --print-limit
  std::string sanitizerPath;      ///< the compute-sanitizer binary; empty = findComputeSanitizer()
  std::string scriptSource;       ///< the script text, for the spans of sanitizer findings
  /// Run on another host over ssh (`--device ssh://…`): the runner there, or its simulator
  /// (`…/sim`: nothing is compiled here; the request carries the script, `scriptSource`).
  std::optional<SshTarget> remote;
  /// Called with every sanitizer report (the CLI prints its summary line).
  std::function<void(const SanitizerReport&)> onSanitizerReport;
};

class CudaExecutor : public ir::Executor {
 public:
  explicit CudaExecutor(CudaExecutorOptions options = {});
  std::string name() const override;
  Result<ir::RunOutcome> run(const ir::Program& program, const std::string& kernel,
                             std::vector<ir::KernelArg>& args) override;
  const LaunchTimings& lastTimings() const { return m_timings; }
  /// The sanitizer's report of the last run (when it ran under the sanitizer).
  const std::optional<SanitizerReport>& lastSanitizerReport() const { return m_sanitizer; }
  CudaExecutorOptions& options() { return m_options; }

 private:
  Result<ir::RunOutcome> runOnce(const ir::Program& program, const std::string& kernel,
                                 std::vector<ir::KernelArg>& args);
  void addSanitizerFaults(const SanitizerReport& rep, const std::string& kernel, SourceSpan at,
                          ir::RunOutcome& out) const;
  CudaExecutorOptions m_options;
  LaunchTimings m_timings;
  std::optional<SanitizerReport> m_sanitizer;
};

/// The `tirx` binary to run as the child: $TIRX_RUNNER, then `tirx` beside the current
/// executable, then ../bin/tirx from it; empty when none exists.
std::string findRunner();

/// True when `$TIRX_RUNNER` names the runner: the parent then leaves the driver check to it.
bool runnerOverridden();

/// The child side: read REQUEST, run, write RESPONSE. Returns the exit code (0 ran or faulted and
/// wrote a response; 2 bad request; 3 no driver / device).
int runRunner(const std::string& requestPath, const std::string& responsePath);

/// `tirx runner --devices`: the device list as JSON text (or a Status).
Result<std::string> devicesJson();

}  // namespace tirx::driver
