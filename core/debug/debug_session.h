// The tile-level debugger over the simulator. start() verifies the script once on the simulator
// with a step observer (core/sim/step_observer.h) on one launch: the focus CTA runs in lock step by
// tile op and every step is recorded as a delta of the CTA's state (registers of every thread with
// their written flags, shared memory with its written flags, the global tensors with their defined
// flags), so that stepping forward and back is applying deltas (decision DBG-2, docs/decisions.md).
// The recording is bounded (DebugOptions::maxTraceBytes; past it W0844 says where it stopped and
// how to reach later steps). The harness's own check gives the reference of the checked output,
// which the facts carry as the error per element, for the output tensor and, through the
// simulator's provenance, for the registers it was stored from.
//
// A session is used from one thread at a time; everything it returns is a value.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diag/budget.h"
#include "core/diag/diagnostic.h"
#include "core/layout/tile_layout.h"

namespace tirx::debug {

struct DebugOptions {
  std::string fileName = "<script>";
  std::string arch = "sm_90";
  std::string kernel;     ///< the kernel to debug; empty: the first one the script launches
  int launch = 0;         ///< which launch of it (0: the first)
  int64_t cta = 0;        ///< the focus CTA (linear id, x fastest)
  int64_t thread = 0;     ///< the focus thread (warp thread / 32): names diverged rounds, picks
                          ///< the warp of warp-relative register tiles, and its scalars are shown
  int64_t firstStep = 0;  ///< record from this step on (earlier ones are only counted)
  int64_t maxTraceBytes = int64_t{256} << 20;  ///< delta-log limit (W0844 past it)
  /// Launches of more CTAs run the focus CTA alone (W0846): a benchmark-sized grid would spend the
  /// simulator's budget long before the focus CTA's turn.
  int64_t wholeLaunchCtas = 64;
  /// Tensor arguments larger than this are not imaged at every step: the trace keeps the chunks
  /// the focus CTA writes (old and new bytes) and reads the rest from the final tensor.
  int64_t imagedArgBytes = int64_t{16} << 20;
  BudgetLimits budget;
  CancelTokenPtr cancel;
};

/// One step of the focus CTA: a tile op executed by its threads (a lock-step round), a warp
/// collective release or a wgmma issue.
struct Stop {
  int64_t index = -1;
  std::string kind;  ///< "tile-op", "collective", "wgmma"
  SourceSpan span;   ///< the statement
  std::string
      op;  ///< "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "ewise silu", "tma load"
  int64_t threads = 0;
  bool mixed = false;  ///< threads of the round executed different statements
  /// The focus thread's scalar variables (loop counters, block indices) at the stop.
  std::vector<std::pair<std::string, double>> scalars;
};

/// One element of a tile at a stop.
struct ElementFact {
  std::vector<int64_t> coord;
  double value = 0;
  uint64_t bits = 0;
  bool uninit = false, nan = false, inf = false;
  int64_t thread = -1, slot = -1;  ///< first owner (registers); -1 for memory
  int owners = 0;                  ///< owners of a replicated register element
  int64_t byte = -1;  ///< byte offset in its memory (shared: in the arena; global: in the tensor)
  bool hasReference = false;
  double reference = 0, absErr = 0;  ///< absErr is 0 for an uninitialised element
};

struct TileFacts {
  std::string buffer, scope, dtype;  ///< scope "local", "shared" or "global"
  std::vector<int64_t> shape;
  TileLayout layout;                  ///< the buffer's layout (owners; memory offsets)
  std::vector<ElementFact> elements;  ///< row-major
  int64_t uninit = 0, nans = 0, infs = 0;
  double min = 0, max = 0;  ///< over finite initialised elements
  bool hasReference = false;
  double maxAbsErr = 0;
  std::string note;  ///< e.g. "warp 1's copy (the layout is warp-relative)"
};

/// A line breakpoint, with an optional condition (debug_condition grammar in docs/simulator.md):
/// `C[3, 4] > 1.5`, `acc[0, 0, 0, 0, 0] != 0`, `nan(acc)`, `inf(C)`, `uninit(As[0, 0])`.
struct Breakpoint {
  int line = 0;           ///< 0: every stop (a watch condition)
  std::string condition;  ///< empty: unconditional
};

class DebugSession {
 public:
  ~DebugSession();
  DebugSession(const DebugSession&) = delete;
  DebugSession& operator=(const DebugSession&) = delete;

  /// Verifies `source` on the simulator and records the steps of the chosen launch and CTA. Null
  /// with `diags` holding the reason (front-end errors, E0843 when the kernel never ran on the
  /// simulator, E0845 for a focus outside the launch); warnings (W0844) go to `diags` too.
  static std::unique_ptr<DebugSession> start(std::string_view source, const DebugOptions& options,
                                             Diagnostics& diags);

  const DebugOptions& options() const;
  std::string kernelName() const;
  /// Steps in the launch (all of them, also those past the recording limit).
  int64_t stepCount() const;
  /// Steps that can be visited: [firstRecorded(), lastRecorded()].
  int64_t firstRecorded() const;
  int64_t lastRecorded() const;
  bool truncated() const;
  int64_t current() const;
  Stop stop() const;  ///< the current stop
  Stop stopAt(int64_t index) const;
  /// Lines holding a tile op of the kernel (where a breakpoint can stop).
  std::vector<int> tileOpLines() const;
  /// Buffers of the kernel (register, shared and global tiles), in declaration order.
  std::vector<std::string> bufferNames() const;

  /// Moves to step `index` (clamped to the recorded range); returns the new index.
  int64_t goTo(int64_t index);
  int64_t step(int64_t delta) { return goTo(current() + delta); }
  /// Replaces the breakpoints; each bad one gets a diagnostic (E0840–E0842) and is dropped.
  Diagnostics setBreakpoints(const std::vector<Breakpoint>& breakpoints);
  /// Runs forward (or backward) to the next stop after (before) the current one where a
  /// breakpoint hits; false (staying at the last / first recorded step) when none does, or where
  /// `cancel` was set.
  bool continueForward(const CancelToken* cancel = nullptr);
  bool continueBackward(const CancelToken* cancel = nullptr);
  /// True when a breakpoint hits at the current stop.
  bool hitsHere() const;
  /// The next stop after the current one on `line` (false when none).
  bool runToLine(int line);

  /// The values of buffer `name` at the current stop; nullopt with `diag` (E0845) for an unknown
  /// buffer.
  std::optional<TileFacts> tile(const std::string& name, Diagnostic* diag = nullptr) const;
  /// Bytes held by the recording (base state and deltas).
  int64_t traceBytes() const;

  struct Impl;  ///< private to core/debug (debug_impl.h)

 private:
  explicit DebugSession(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m;
};

/// The stop and the named tiles as JSON (schema in docs/cli.md, `tirx debug --json`).
std::string stopToJson(const DebugSession& session, const std::vector<TileFacts>& tiles,
                       int indent = 2);

}  // namespace tirx::debug
