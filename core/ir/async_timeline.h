// The asynchronous timeline of a simulated run as engine values (decision PIPE-1 in
// docs/decisions.md): per CTA and warp, the cp.async groups, mbarrier operations, blocking waits,
// TMA boxes and bulk groups of a kernel in simulated time, each with the statement that did it.
// The simulator records it only when asked (sim::SimOptions::recordTimeline); the studio's
// Pipeline dock draws it as it is and never re-derives it.
//
// Simulated time is a logical clock in ticks: every executed statement of a thread is one tick;
// a synchronisation carries time (cta_sync and warp collectives end at the latest participant's
// clock, an mbarrier wait ends no earlier than the completion of the phase it observes, a phase
// completes at the latest of its arrivals and landings); an async copy lands `copyTicks` after it
// was issued and a wait_group ends no earlier than the landing of the groups it waits for. It
// orders the events and shows overlap; it does not count cycles.
//
// The lanes of a warp are merged: one event per warp and statement execution (lanes = how many
// threads of the warp took part, start = the earliest lane's, end = the latest lane's time).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/diag/diagnostic.h"

namespace tirx::ir {

enum class AsyncEventKind : uint8_t {
  CpAsyncCopy,     ///< interval: cp.async chunks of one statement execution, issue → landing
  CpAsyncCommit,   ///< instant: cp.async.commit_group (group: the new group's number)
  CpAsyncWait,     ///< interval: cp.async.wait_group N until the groups it waits for landed
  TmaLoad,         ///< interval: a TMA box global → shared, issue → landing (bytes, barrier)
  TmaStore,        ///< interval: a TMA box shared → global (bulk group), issue → landing
  BulkCommit,      ///< instant: cp.async.bulk.commit_group
  BulkWait,        ///< interval: cp.async.bulk.wait_group N
  MbarInit,        ///< instant: mbarrier.init (count: the arrival count)
  MbarArrive,      ///< instant: mbarrier.arrive (count: arrivals of the merged lanes)
  MbarExpectTx,    ///< instant: expect_tx / arrive.expect_tx (bytes announced)
  MbarCompleteTx,  ///< instant: an async copy's complete_tx on its barrier at landing (bytes)
  MbarPhase,       ///< instant: a phase completes (phase: the completed phase's number)
  MbarWait,        ///< interval: a blocking parity wait (parity, phase waited for)
  MbarInval,       ///< instant: mbarrier.inval (phase: the barrier's phase when it died)
};

/// "cp.async", "cp.async.commit", "cp.async.wait", "tma.load", "tma.store", "bulk.commit",
/// "bulk.wait", "mbarrier.init", "mbarrier.arrive", "mbarrier.expect_tx", "mbarrier.complete_tx",
/// "mbarrier.phase", "mbarrier.wait", "mbarrier.inval".
const char* asyncEventKindName(AsyncEventKind k);
/// True for the kinds that span time (copies and waits).
bool isAsyncInterval(AsyncEventKind k);

struct AsyncEvent {
  AsyncEventKind kind = AsyncEventKind::MbarArrive;
  int32_t cta = 0, warp = 0;
  int32_t lanes = 1;           ///< threads of the warp merged into this event
  int64_t start = 0, end = 0;  ///< simulated time in ticks; end == start for instants
  bool unfinished =
      false;             ///< a wait that never ended (the run stopped in it: a deadlock, a fault)
  SourceSpan span;       ///< the statement (for MbarCompleteTx/MbarPhase: the one that caused it)
  int32_t barrier = -1;  ///< AsyncTimeline::names index of the mbarrier ("full[1]"), -1 none
  int32_t buffer = -1;   ///< names index of the shared allocation a copy writes or reads
  int64_t stage = -1;  ///< the leading index of that allocation at the copy's first byte (rank ≥ 2)
  int64_t phase = -1;   ///< mbarrier phase concerned (arrive/expect_tx: current; wait: awaited)
  int64_t parity = -1;  ///< MbarWait: the parity waited for
  int64_t bytes = 0;    ///< copies, commits (bytes in the group), expect_tx, complete_tx
  int64_t count = 0;    ///< init/arrive: arrivals; wait_group: N
  int64_t group = -1;   ///< commit: the group's number; wait_group: the newest group waited for
  int32_t image = -1;   ///< TmaLoad: AsyncTimeline::images index, -1 when not recorded
};

struct AsyncTimeline;
/// One line for people: "t=21..23 cta 0 warp 0 line 35 mbarrier.wait full[0] parity 0 (phase 0), 32
/// lanes".
std::string describeAsyncEvent(const AsyncTimeline& tl, const AsyncEvent& e);

/// Where the elements of one TMA load box sit in shared memory after the swizzle (spec TC §9.2):
/// for every element position of the box's shared image (row-major over `rows` × `cols`
/// elements, `cols` = the box's innermost extent, outer extents folded into rows), the global
/// coordinate (row, col) of the element the TMA wrote there, -1 for out-of-bounds fill.
struct TmaBoxImage {
  SourceSpan span;  ///< the TMA statement
  int32_t cta = 0;
  int32_t buffer = -1;         ///< names index of the shared allocation
  int32_t tensor = -1;         ///< names index of the global tensor
  int64_t rows = 0, cols = 0;  ///< shared image extent in elements
  int elemBytes = 0;
  int swizzleBytes = 0;         ///< 0 none, 32, 64 or 128 (the hardware mode)
  std::vector<int64_t> coords;  ///< the box's coordinates as the script wrote them (outer to inner)
  std::vector<int32_t> srcRow, srcCol;  ///< per shared element position (rows · cols)
};

struct AsyncTimeline {
  std::vector<AsyncEvent> events;  ///< ordered by CTA, then start time, then recording order
  std::vector<std::string> names;  ///< barrier and buffer names the events index
  std::vector<TmaBoxImage>
      images;              ///< the first TMA load images (distinct statement and coordinates)
  bool truncated = false;  ///< events beyond the cap were dropped
  int64_t maxEvents = 0;   ///< the cap this run used
  int64_t copyTicks = 0;   ///< the latency model's copy time
  bool empty() const { return events.empty(); }
  /// The name at `index`, "" when out of range.
  const std::string& name(int32_t index) const;
};

}  // namespace tirx::ir
