// Verification of a script: parse + analyze, then run the module-level harness code (the numpy /
// torch check code at the bottom of a doc example) with Python semantics, where every call of a
// compiled kernel runs through an ir::Executor (the simulator, or the CUDA executor), and every
// assert_allclose / assert_close / assert becomes one Check of the Report. A script without check
// code is verified by running its kernels on seeded inputs on the simulator and the GPU (when
// present) and comparing them. The Report is a value with a JSON form (docs/verify.md).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/diag/budget.h"
#include "core/diag/diagnostic.h"
#include "core/diag/result.h"
#include "core/driver/device.h"
#include "core/ir/ir.h"
#include "core/ir/values.h"

namespace tirx {
struct FrontEndResult;  // core/sema/sema.h
}
namespace tirx::sim {
class StepObserver;
}

namespace tirx::verify {

/// Who produced an element of a kernel output (from the simulator's provenance). The register
/// tile is named by its buffer id in its kernel — what views select it by — and by its name for
/// text only (two kernels may each have a tile "R").
struct OwnerInfo {
  bool known = false;
  int cta = -1, thread = -1, warp = -1, lane = -1;
  std::string kernel;  ///< the kernel that stored the element
  int buffer =
      -1;  ///< the register tile's buffer in `kernel` (ir::Symbol::buffer), -1 for scalar stores
  std::string reg;   ///< "R[2]" — the register the value was stored from; empty for scalar stores
  std::string tile;  ///< that register tile's name ("R"), empty for scalar stores
  int slot = -1;     ///< its register slot in the thread (2), -1 for scalar stores
  int regLine = 0;   ///< line of the last tile op that wrote that register
  int storeLine = 0;         ///< line of the store into global memory
  std::string text() const;  ///< "cta 0, warp 1, lane 3, R[2] (line 21), stored at line 22"
  /// The script line that produced the element: the tile op that last wrote its register, else
  /// the store; 0 when unknown.
  int producerLine() const;
};

/// The owner of one element as a run of `kernel` recorded it (ir::RunOutcome::provenance, whose
/// `bufferNames` name the buffers); unknown (known = false) when the kernel never wrote it.
OwnerInfo ownerInfo(const ir::ElementOwner& owner, const std::string& kernel,
                    const std::vector<std::string>& bufferNames);

struct WorstElement {
  std::vector<int64_t> coord;
  double actual = 0, expected = 0, absErr = 0, relErr = 0;
  OwnerInfo owner;
};

/// One comparison: an assert_allclose / assert_close / assert call, or a device comparison.
struct Check {
  std::string name;  ///< "activation (line 59)"
  std::string
      kind;  ///< "assert_allclose", "assert_close", "assert", "allclose", "device-compare", "run"
  SourceSpan span;
  bool pass = false;
  std::string message;
  std::string kernel;  ///< the kernel whose output is checked (last kernel run), may be empty
  std::string device;
  double rtol = 0, atol = 0, maxAbs = 0, maxRel = 0;
  /// A NaN output against a NaN reference passes (assert_allclose's default; assert_close's is
  /// false). With rtol and atol, the element rule of compare.h's withinTolerance.
  bool equalNan = true;
  int64_t mismatches = 0, total = 0;
  std::vector<WorstElement> worst;
  std::vector<int64_t> shape;             ///< of the compared arrays
  std::vector<double> output, reference;  ///< the compared values (actual, expected), row-major
  /// The row-major index of `w` in `output` and `reference`; -1 when its coordinate does not fit
  /// `shape`.
  int64_t flatIndex(const WorstElement& w) const;
};

/// One kernel launch made by the harness.
struct KernelRun {
  std::string kernel, device;
  SourceSpan span;
  bool ran = false;
  double compileMs = 0, runMs = 0;
  /// Simulator runs: shared-memory traffic per statement (ir::RunOutcome::sharedAccesses); each
  /// names the kernel's buffer it addresses by id (SharedAccessCount::buffer), never by name.
  std::vector<ir::SharedAccessCount> sharedAccesses;
  /// Simulator runs with VerifyOptions::recordTimeline: the asynchronous timeline.
  ir::AsyncTimeline timeline;
  /// Simulator runs that deadlocked or spent their budget: who waits where (also as notes of the
  /// fault that stopped the run).
  ir::HangReport hang;
};

struct Report {
  std::string file;
  /// The device asked for (VerifyOptions::device) and its text ("sim", "cuda:0", "both",
  /// "ssh://host/cuda:0"); a bundle opened in the studio names its recorded device instead.
  driver::DeviceSpec deviceSpec;
  std::string device;
  std::vector<Check> checks;
  Diagnostics errors;             ///< front-end and harness errors (E08xx and those of sema)
  std::vector<ir::Fault> faults;  ///< runtime faults of every kernel run
  std::vector<KernelRun> runs;
  std::string log;  ///< print() output of the harness, executor logs
  double totalMs = 0;
  bool environmentError = false;  ///< a requested device is unavailable (exit code 3)
  /// Every check passed, no errors, no faults, at least one check.
  bool passed() const;
};

/// Replaces driver::makeExecutor for the device's runner side of a verify: bundles wrap the
/// device's executor to record its launches; tests substitute a fake GPU. A Status is an
/// environment error (E0830).
using ExecutorMaker = std::function<Result<std::unique_ptr<ir::Executor>>(
    const driver::DeviceSpec& device, const driver::ExecutorContext& context)>;

struct VerifyOptions {
  /// Where kernels run: the simulator, a GPU (cuda:N, under a sanitizer or not), both (the
  /// simulator and the GPU, compared) or an ssh host (its GPU or its simulator).
  driver::DeviceSpec device;
  std::string arch = "sm_90";
  std::string fileName = "<script>";
  /// The GPU side's executor context: runner path, time limit, the sanitizer report callback.
  /// Its script file, text, target and budget are this verify's own (set by verifyScript).
  driver::ExecutorContext executor;
  ExecutorMaker makeExecutor;  ///< empty: driver::makeExecutor
  uint64_t seed = 0x5eed;      ///< inputs of scripts without check code
  int64_t maxHarnessSteps = 10'000'000;
  /// One budget for the whole verify: every kernel launch and every harness step is charged to it
  /// (docs/verify.md). `cancel` is set by the job's owner (studio Stop, CLI) from another thread.
  BudgetLimits budget;
  CancelTokenPtr cancel;
  /// Record the simulator's asynchronous timeline of every launch (KernelRun::timeline; the
  /// studio's Pipeline dock). Off by default: a plain verify pays nothing for it.
  bool recordTimeline = false;
  /// Simulate only this CTA (linear index) of each kernel, with seeded inputs, the script's check
  /// code not run (sim::SimOptions::onlyCta): the timeline of one CTA of a launch too large to
  /// simulate whole (`tirx verify --timeline --cta N`, the Pipeline dock). -1: a normal verify.
  /// Simulator only.
  int64_t onlyCta = -1;
  /// The tile-level debugger's observer (core/sim/step_observer.h), given to every simulator
  /// launch; null for none.
  sim::StepObserver* observer = nullptr;
  /// The front end's result for this very source, file name and arch when the caller already has
  /// it (the studio's analysis, `tirx diff`'s compile): verifyScript then skips the front end, so
  /// one analysis serves the diagnostics, the compile and the verify. Must outlive the call.
  const FrontEndResult* analysed = nullptr;
};

/// Verify a script. Never throws; everything wrong is in the Report.
Report verifyScript(std::string_view source, const VerifyOptions& options);

/// The Report as JSON (schema in docs/verify.md).
std::string reportToJson(const Report& r, int indent = 2);

}  // namespace tirx::verify
