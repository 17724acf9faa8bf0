// Host-side values exchanged between the harness (core/verify), the simulator (core/sim) and the
// GPU runner (core/device): tensors as raw bytes with dtype and shape, kernel arguments, the
// outcome of a run (with the simulator's provenance of every output element), and the Executor
// interface every backend implements.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/diag/budget.h"
#include "core/diag/diagnostic.h"
#include "core/diag/result.h"
#include "core/ir/async_timeline.h"
#include "core/ir/dtype.h"
#include "core/ir/shared_access.h"

namespace tirx::ir {

struct Program;

/// The byte every undefined element is filled with before a run (a NaN for every float type, -1
/// for signed and the maximum for unsigned integers), and the second pattern of the GPU's two-run
/// definedness test (docs/runner.md, "Defined elements").
inline constexpr uint8_t kPoisonByte = 0xFF;
inline constexpr uint8_t kSecondPoisonByte = 0x7F;

/// A dense row-major host tensor. `data.size() == Π shape · dtypeBytes(dtype)`.
///
/// `defined` says which elements hold a value: empty means every element (what the script gave:
/// `np.zeros`, `torch.linspace`, a generator), otherwise one byte per element, 0 where the value
/// is undefined (`np.empty`, `torch.empty_like`, an output element no run wrote). Executors fill
/// undefined elements with kPoisonByte before a run and, after it, mark what the kernel defined.
struct HostTensor {
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;
  std::vector<uint8_t> defined;
  int64_t numel() const;
  bool fullyDefined() const { return defined.empty(); }
  bool isDefined(int64_t i) const { return defined.empty() || defined[size_t(i)] != 0; }
  /// Elements whose value is undefined (0 when `defined` is empty).
  int64_t undefinedCount() const;
  /// Marks every element undefined (the script left the tensor uninitialised).
  void markAllUndefined();
  /// Drops the mask when every element is defined (keeps `defined` empty in the common case).
  void normalizeDefined();
  /// Fills every undefined element's bytes with `byte`; defined elements are left as they are.
  void poisonUndefined(uint8_t byte);
};

/// One kernel argument in signature order: a tensor (in/out) or a scalar given by its bits.
struct KernelArg {
  bool isTensor = true;
  HostTensor tensor;
  DType scalarType = DType::Int32;
  uint64_t scalarBits = 0;
};

/// A runtime fault found while running a kernel (race, out-of-bounds, uninitialised read, illegal
/// address, timeout). `diag` points at the script line; `kind` is a short tag ("race", "oob",
/// "uninit", "misaligned", "deadlock", "illegal-address", "timeout", "launch", "budget" (the
/// work budget is spent, its time is up or the job was cancelled), "memory" (simulator limit)).
struct Fault {
  std::string kind;
  Diagnostic diag;
};

/// The producer of one element of a global tensor: the last store that wrote it (the simulator's
/// provenance).
struct ElementOwner {
  int32_t cta = -1;       ///< linear CTA id; -1 when the kernel never wrote the element
  int32_t thread = -1;    ///< linear thread id in the CTA (warp = thread/32, lane = thread%32)
  int32_t storeLine = 0;  ///< script line of the store (tile op or element store)
  int32_t regBuffer =
      -1;  ///< register buffer stored from (Kernel::buffers index), -1 for an element store
  int32_t regSlot = -1;  ///< slot in that thread's register array
  int32_t regLine = 0;   ///< script line of the last op that wrote that register slot
};

/// Producers of one run: per kernel argument (tensor arguments only; empty otherwise), one owner
/// per element of the argument's dtype. Registers are named by buffer id (`regBuffer`, the
/// kernel's Kernel::buffers index, as ir::Symbol::buffer names it); `bufferNames[regBuffer]` is
/// that buffer's name, for messages only.
struct Provenance {
  std::vector<std::vector<ElementOwner>> args;
  std::vector<std::string> bufferNames;
};

/// One group of threads a hung run left at the same statement and barrier (the simulator's hang
/// report): which warps, which barrier, its phase and counts, and the script position.
struct HangWait {
  /// "mbarrier", "named barrier", "barrier" (the CTA-wide bar.sync), "warp sync", "wgmma",
  /// "collective", or "running" (a thread still running when the budget was spent).
  std::string kind;
  std::string barrier;  ///< "full[1]", "named barrier 1", "" for the others
  int64_t cta = 0;
  std::vector<int64_t> warps;  ///< ascending
  int64_t threads = 0;
  int line = 0, col = 0;  ///< the waiting statement
  // mbarrier: the phase being waited for (completed phases so far), the parity asked for, the
  // arrivals of the phase and its transaction bytes. Named/CTA barriers: arrivals only.
  int64_t phase = -1, parity = -1;
  int64_t expectedArrivals = 0, arrived = 0;
  int64_t expectedTxBytes = 0, deliveredTxBytes = 0, outstandingTxBytes = 0;
};

/// Why and where a run hung: set when the simulator found a deadlock or spent its budget
/// (`reason` "deadlock" or "budget"); empty `reason` when the run did not hang.
struct HangReport {
  std::string reason;
  int64_t cta = 0;
  std::vector<HangWait> waits;
  std::vector<int64_t> finishedWarps;  ///< warps of that CTA whose threads all finished
  bool empty() const { return reason.empty(); }
};

/// What an executor promises about tensor arguments after run(): `data` holds the kernel's results
/// and `defined` marks the elements that hold a value — those defined before the run plus those
/// the kernel wrote (the simulator knows this from its stores; the GPU path from two runs with two
/// poison patterns). Undefined elements hold kPoisonByte bytes.
struct RunOutcome {
  bool ran = false;  ///< the kernel ran to completion (outputs are valid)
  std::vector<Fault> faults;
  double compileMs = 0, runMs = 0;
  std::string device;  ///< "simulator", "NVIDIA H200 (cuda:0)"
  std::string log;     ///< extra text (toolchain log, runner stderr)
  /// Simulator: shared-memory wavefronts per statement (bank model), in program order.
  std::vector<SharedAccessCount> sharedAccesses;
  /// Simulator runs with SimOptions::recordTimeline: the asynchronous timeline (async_timeline.h).
  AsyncTimeline timeline;
  /// Simulator runs that deadlocked or spent their budget: who waits where (HangReport).
  HangReport hang;
  /// Simulator runs with SimOptions::trackProvenance: who wrote each element of the outputs
  /// (empty on the GPU, or when provenance was off; a table that did not fit is empty).
  Provenance provenance;
};

/// A backend that runs a kernel of a Program on host tensors. `args` are updated in place
/// (outputs). Environment failures (no driver, NVRTC failed) come back as Status.
class Executor {
 public:
  virtual ~Executor() = default;
  virtual std::string name() const = 0;
  virtual Result<RunOutcome> run(const Program& program, const std::string& kernel,
                                 std::vector<KernelArg>& args) = 0;
  /// The job's budget (work, wall time, cancellation; not owned, may be null). The GPU executor
  /// polls it while its runner child runs and kills the child once it is exhausted (a fault,
  /// docs/runner.md); the simulator takes its budget through SimOptions.
  void setBudget(WorkBudget* budget) { m_budget = budget; }
  WorkBudget* budget() const { return m_budget; }

 protected:
  WorkBudget* m_budget = nullptr;
};

}  // namespace tirx::ir
