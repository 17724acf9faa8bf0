// The simulator's hook for the tile-level debugger (core/debug): an observer that sees the state
// of one CTA after every tile-op step. While a launch is observed, the observed CTA runs its
// threads in lock step by tile op (decision DBG-1 in docs/decisions.md): each running thread runs
// up to and including its next tile op (`T.cuda.tile.apply`, `ewise`, a TMA copy), then the next
// thread does the same; when every running thread has done so, the round is one step. A warp
// collective (ldmatrix, mma.sync, shuffles) and a wgmma are one step each time the scheduler
// releases them. Scalar statements, barriers and async bookkeeping (commit/wait, mbarriers) are not
// steps: their effects show at the next one. Other CTAs run as usual, without steps. Lock step is
// one legal interleaving of the CTA's threads, so a race-free kernel computes the same values.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/ir/ir.h"
#include "core/ir/values.h"

namespace tirx::sim {

enum class StepKind {
  TileOp,      ///< a lock-step round: every running thread executed one tile op
  Collective,  ///< warp collectives released by the scheduler
  Wgmma,       ///< a warpgroup's wgmma issued
};

/// One step of the observed CTA.
struct StepEvent {
  StepKind kind = StepKind::TileOp;
  int64_t cta = 0;
  const ir::Stmt* stmt = nullptr;  ///< the tile op (the focus thread's when threads diverged)
  int64_t threads = 0;             ///< threads (or, for collectives, lanes) that executed it
  bool mixed = false;              ///< threads of the round executed different statements
};

/// A 64-byte chunk of a global tensor argument that the observed CTA wrote since the previous
/// step, with its bytes before the first of those writes (the bytes after are in args()).
struct GlobalWrite {
  static constexpr int64_t kChunk = 64;
  int arg = -1;        ///< kernel argument index
  int64_t offset = 0;  ///< byte offset of the chunk (a multiple of kChunk)
  int64_t len = 0;     ///< kChunk, or less for the tensor's last chunk
  std::array<uint8_t, kChunk> before{};
};

/// Read-only access to the observed CTA's state during onStep (valid only inside the call).
class StateView {
 public:
  virtual ~StateView() = default;
  virtual int64_t threadCount() const = 0;
  /// The register bytes of local buffer `buffer` in thread `tid`; empty for other buffers.
  virtual std::span<const uint8_t> registers(int buffer, int64_t tid) const = 0;
  /// Per register byte of the same array: 0 when never written, else the writer's instruction + 1.
  virtual std::span<const int32_t> registerWriters(int buffer, int64_t tid) const = 0;
  /// The CTA's whole shared-memory arena, and where buffer `buffer` starts in it (-1: not shared).
  virtual std::span<const uint8_t> sharedBytes() const = 0;
  virtual int64_t sharedOffset(int buffer) const = 0;
  /// True when shared byte `byte` of the arena was written in this CTA.
  virtual bool sharedWritten(int64_t byte) const = 0;
  /// The launch's arguments (global tensors as the kernel has written them so far).
  virtual const std::vector<ir::KernelArg>& args() const = 0;
  /// The global chunks the observed CTA wrote since the previous step (each once, in the order of
  /// their first write), for recorders that do not image whole tensors (the list starts empty at
  /// the observed CTA's first step: earlier CTAs' writes are not in it).
  virtual std::span<const GlobalWrite> globalWrites() const = 0;
  /// Thread `tid`'s value of kernel variable `var` (integers exact, floats as double).
  virtual double scalar(int var, int64_t tid) const = 0;
};

/// Receives the steps of one CTA of the launches it accepts. Methods run on the simulating thread.
class StepObserver {
 public:
  virtual ~StepObserver() = default;
  /// A launch of `kernel` starts; true to observe it (then the CTA focusCta() runs in lock step).
  virtual bool beginLaunch(const ir::Kernel& kernel) = 0;
  /// The linear id of the CTA whose steps are reported.
  virtual int64_t focusCta() const = 0;
  /// The thread whose statement names a round where threads diverged.
  virtual int64_t focusThread() const = 0;
  /// True to run the focus CTA alone: the launch's other CTAs are skipped (their outputs keep
  /// what they held), for launches too large to simulate whole.
  virtual bool focusOnly() const { return false; }
  virtual void onStep(const StepEvent& event, const StateView& state) = 0;
  /// The observed launch ended (`ran`: no fatal fault) with these arguments (the kernel's outputs)
  /// and the producers of their elements (empty tables when provenance was off or did not fit).
  virtual void endLaunch(bool ran, const std::vector<ir::KernelArg>& args,
                         const ir::Provenance& producers) = 0;
};

}  // namespace tirx::sim
