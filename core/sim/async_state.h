// Private to core/sim: the asynchronous state of one CTA (spec TC §12.1) and the API through which
// every asynchronous family reaches it.
//
//  * mbarrier objects keyed by their shared byte address, with the exact state of spec §3.1
//    (phase, pending and expected arrivals, the signed tx-count within ±(2^20 - 1)) plus what the
//    diagnostics need (the lines of init, of the last arrive and expect_tx, bytes expected vs
//    delivered in the current phase).
//  * per thread: the cp.async open set and group FIFO, and the bulk open set and group FIFO.
//  * a queue of in-flight async operations (AsyncOpRec). Each is issued by one thread and lands
//    later: a cp.async or bulk-group op when its issuing thread's covering wait_group runs, an
//    mbarrier-bound op (TMA load) when the scheduler retires it — lazily, only when no thread can
//    run (decision ASYNC-2). Landing calls the op's `land` function (which writes the bytes with
//    Runner::landShared or directly into global memory) and then, for an mbarrier-bound op,
//    complete_tx(txBytes) on its barrier.
//  * happens-before: vector clocks per thread (and one slot per mbarrier for the async proxy's
//    writes), allocated only for kernels that use mbarriers; cta_sync keeps ordering through the
//    barrier epoch as before (decision ASYNC-3).
//
// How a new async family uses it (e.g. TMA, `cp.async.bulk.tensor`): at issue, build an
// AsyncOpRec with the shared byte ranges it will write (`dst`: they read as "pending" until it
// lands, and another write to them is a fault) and those it will read (`src`), a `land` function,
// and either `completion = Completion::Mbarrier` with `mbarAddr`/`txBytes` or
// `Completion::BulkGroup`; then call Runner::issueAsync(thread, instr, std::move(op)).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tirx::sim {

class Runner;
struct Thread;

/// A half-open range of shared bytes [begin, end) (offsets into the CTA's shared arena).
struct ByteRange {
  int64_t begin = 0, end = 0;
};

/// One asynchronous operation in flight.
struct AsyncOpRec {
  enum class Completion {
    CpAsync,    ///< joins the issuing thread's cp.async open set (commit_group / wait_group)
    BulkGroup,  ///< joins the issuing thread's bulk open set (bulk commit_group / wait_group)
    Mbarrier,   ///< completes with complete_tx(txBytes) on the mbarrier at mbarAddr
  } completion = Completion::CpAsync;
  int64_t issuer = -1;         ///< issuing thread
  int instr = -1;              ///< issuing instruction (for diagnostics: "issued here")
  std::vector<ByteRange> dst;  ///< shared bytes it writes: pending until it lands
  std::vector<ByteRange> src;  ///< shared bytes it reads (async-proxy reads, e.g. a TMA store)
  /// Global bytes it reads (a cp.async source): writing them before it lands is E0703.
  int globalBuffer = -1;
  ByteRange globalSrc;
  /// Writes the results: shared bytes through Runner::landShared, global bytes directly. Called
  /// once, when the op lands. May be empty (an op with no data, e.g. an empty group marker).
  std::function<void(Runner&, AsyncOpRec&)> land;
  /// cp.async: the bytes captured at issue (decision ASYNC-2) and where they go.
  std::vector<uint8_t> data;
  int64_t mbarAddr = -1;   ///< Completion::Mbarrier: the barrier's shared byte address
  int64_t txBytes = 0;     ///< Completion::Mbarrier: bytes signalled with complete_tx
  uint32_t mbarPhase = 0;  ///< the barrier's phase at issue (a later completion of it is stale)
  bool landed = false;
  // Timeline (SimOptions::recordTimeline): simulated issue and landing times, the event.
  int64_t issueTime = 0, landTime = 0;
  int32_t event = -1;
};

/// An mbarrier object (spec §3.1) and its diagnostics.
struct MbarState {
  bool live = false;
  int64_t addr = 0;
  std::string name;  ///< "bar[1]"

  uint32_t phase = 0;    ///< completed phases so far (the current phase's parity is phase & 1)
  int64_t pending = 0;   ///< arrivals still missing in the current phase
  int64_t expected = 0;  ///< arrival count of every phase
  int64_t tx = 0;        ///< pending transaction bytes of the current phase (may go negative)
  int64_t txExpected = 0, txDelivered = 0;  ///< this phase: bytes announced / bytes landed
  bool consumed = true;                     ///< a wait has observed the last completed phase
  bool initReported = false;                ///< E0797 reported for this object
  int initInstr = -1, lastArriveInstr = -1, lastTxInstr = -1, completeInstr = -1;
  int invalInstr = -1;  ///< the mbarrier.inval that ended its life (-1: never invalidated)
  int64_t initBy = -1;
  int32_t initEpoch = 0;
  uint32_t initClock = 0;
  int slot = 0;                  ///< the barrier's async-proxy clock slot
  std::vector<uint32_t> vc;      ///< clocks released into the current phase
  std::vector<uint32_t> doneVc;  ///< clocks of the last completed phase (what a waiter acquires)
  // Timeline: the latest arrival or landing of the current phase (time, thread), and when the
  // last completed phase completed (a waiter that observes it resumes no earlier).
  int64_t phaseTime = 0, doneTime = 0, phaseActor = -1;
};

/// Per thread: the cp.async and bulk open sets and group FIFOs (indices into AsyncState::ops).
struct ThreadAsync {
  std::vector<int32_t> cpOpen, bulkOpen;
  std::deque<std::vector<int32_t>> cpGroups, bulkGroups;
  int lastCommitInstr = -1;
  int64_t cpCommitted = 0,
          bulkCommitted = 0;  ///< groups committed so far (the next group's number)
  uint32_t fenceSeq = 0;      ///< fence.proxy.async executed so far
  int32_t fenceEpoch =
      0;  ///< the CTA barrier epoch of the last fence.proxy.async (TMA stores, TC-T7)
};

/// The asynchronous state of the running CTA.
struct AsyncState {
  bool used = false;    ///< the kernel has async statements (state allocated per CTA)
  bool clocks = false;  ///< vector clocks in use (kernels with mbarriers)
  std::vector<AsyncOpRec> ops;
  std::deque<int32_t> mbarQueue;  ///< mbarrier-bound ops not yet landed, in issue order
  std::map<int64_t, MbarState> bars;
  std::vector<ThreadAsync> threads;
  std::vector<std::vector<uint32_t>> vc;  ///< per thread (then per barrier slot): vector clock
  std::vector<uint32_t> agentClock;       ///< per barrier slot: the async proxy's clock
  std::vector<int32_t> pendingWriter;  ///< per shared byte: the op (index + 1) that will write it
  std::vector<int32_t> srcReaders;     ///< per shared byte: in-flight ops reading it
  int64_t globalReaders = 0;           ///< in-flight ops reading global bytes
  int64_t nThreads = 0;
  int slots = 0;  ///< barrier slots in use (at most kMaxSlots; more share slots)
  static constexpr int kMaxSlots = 64;
};

}  // namespace tirx::sim
