// The CPU simulator of the Kernel IR (spec §7): runs a kernel for every CTA and every thread, phase
// by phase between barriers (the threads of a CTA run one after another up to the next barrier),
// with per-thread scalars and register arrays, per-CTA shared memory and the caller's global
// tensors, all as raw bytes. Tile ops follow the lowering contract of spec §2.2 with the PTX
// semantics of sim_numerics.h; ewise bodies run with float32 semantics.
//
// It finds and reports, as ir::Fault values with a Diagnostic at the script line (E0700–E0799,
// docs/simulator.md): shared-memory races between barriers, out-of-bounds and misaligned
// accesses, reads of never-written registers or shared bytes, barriers not reached by every
// thread, a spent work budget (E0740) or memory limit (E0771). It also records, for every element
// of every global tensor it writes, who produced it (CTA, thread, register buffer id, tile op) into
// the run's outcome (ir::RunOutcome::provenance), which the verifier uses to explain mismatches.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/diag/budget.h"
#include "core/ir/ir.h"
#include "core/ir/values.h"
#include "core/sim/step_observer.h"

namespace tirx::sim {

struct SimOptions {
  bool detectRaces = true;      ///< shadow shared memory to find races between barriers
  bool trackProvenance = true;  ///< record the producer of every global element written
  int maxFaults = 16;           ///< stop collecting after this many faults
  /// The job's shared budget (every launch of a verify charges the same one): every simulated
  /// statement and element operation charges it, and the run stops with E0740 when it is spent,
  /// out of time or cancelled. Null: the run gets a private budget with default limits.
  WorkBudget* budget = nullptr;
  /// Bytes the simulator may hold for one launch: the global tensors (the caller's, resized when
  /// they do not match), one CTA's registers of every thread and its shared memory with the
  /// race/uninitialised shadow. A launch that needs more stops with E0771 before allocating;
  /// provenance tables that would not fit are left out (their owners read as unknown).
  int64_t maxMemoryBytes = int64_t{4} << 30;
  /// Record the asynchronous timeline (ir::RunOutcome::timeline, decision PIPE-1): off by
  /// default, so that a plain verify pays nothing for it.
  bool recordTimeline = false;
  int64_t timelineMaxEvents = 200'000;  ///< events kept per run; later ones set `truncated`
  int timelineMaxImages = 16;           ///< TMA box images kept per run
  int64_t timelineCopyTicks = 64;  ///< simulated time from an async copy's issue to its landing
  /// Run only this CTA (linear index) of every launch, the others skipped (their outputs keep the
  /// bytes they had): the Pipeline view of one CTA of a launch too large to simulate whole.
  /// An index outside the launch is a launch fault (E0770). -1: every CTA.
  int64_t onlyCta = -1;
  /// The tile-level debugger's observer (step_observer.h): a launch it accepts runs its focus CTA
  /// in lock step by tile op and reports every step. Null: no observer, no lock step.
  StepObserver* observer = nullptr;
};

/// The provenance types live with the run outcome that carries them (core/ir/values.h).
using ElementOwner = ir::ElementOwner;
using Provenance = ir::Provenance;

/// The simulator as an ir::Executor. A Status comes back only for a kernel that is not in the
/// program; everything the kernel does wrong is a Fault in the outcome (`ran` is false when a
/// fatal fault — out of bounds, deadlock, a spent budget — stopped the run).
class Simulator : public ir::Executor {
 public:
  explicit Simulator(SimOptions options = {});
  std::string name() const override { return "simulator"; }
  Result<ir::RunOutcome> run(const ir::Program& program, const std::string& kernel,
                             std::vector<ir::KernelArg>& args) override;
  /// Element-operations executed by the last run (tile-op and ewise element instances plus
  /// scalar statements), for the benchmark.
  int64_t elementOps() const { return m_elementOps; }

 private:
  SimOptions m_options;
  int64_t m_elementOps = 0;
};

/// The hang report as text, one line per group of threads, each at FILE:LINE:COL:
///   "FILE:20:5: warps 0-3 (128 threads) wait on mbarrier 'bar[0]' phase 0 (parity 0): 1 of 1
///    arrivals, transaction bytes expected 2048, delivered 1024, outstanding 1024"
/// after a header "hang (deadlock) in cta 0:"; empty for an empty report.
std::string hangReportText(const ir::HangReport& hang, const std::string& file);
/// One group's text: "warps 0-3 (128 threads) wait on mbarrier 'bar[0]' phase 0 (parity 0): ...".
std::string hangWaitText(const ir::HangWait& wait);
/// The report as notes at each group's statement ("hang: warps 0-3 ..."), for the fault that
/// stopped the run (the studio's Results and Problems show notes under their fault).
std::vector<DiagNote> hangNotes(const ir::HangReport& hang);

/// Human name of a thread for messages: "cta 0 thread 37 (warp 1, lane 5)".
std::string threadName(int64_t cta, int64_t thread);

}  // namespace tirx::sim
