// Named barriers (PTX "bar, barrier"): `bar.sync id{, count}` (T.ptx.bar.sync; T.cuda.
// warpgroup_sync(id) is bar.sync id, 128) and `bar.arrive id, count` (T.ptx.bar.arrive).
//
// Model. Each CTA has 16 barriers. A phase opens with its first arrival, which fixes the phase's
// thread count (bar.sync without a count: every thread of the block). Every arriving thread counts
// one; bar.sync threads stop, bar.arrive threads go on. The arrival that brings the count to the
// expected number completes the phase: the waiters run again (at the latest arrival's simulated
// time) and the barrier is free for the next phase. On the GPU whole warps arrive (the count is in
// threads, 32 per warp); sema refuses lane-dependent control flow around the statements, so every
// lane of a warp arrives here too.
//
// Memory order (race detection, decision ASYNC-3's vector clocks): the arrivals' clocks are joined
// into the phase; a released waiter takes the join, so what any arriving thread wrote before its
// bar.arrive or bar.sync is ordered before what the waiters do after. A bar.arrive thread learns
// nothing from the others.
//
// Faults: E0735 for a run-time id outside 0..15, a count that is not a positive multiple of 32 or
// exceeds the block, an arrival whose count differs from the phase's (undefined in PTX), and
// barrier 0 in a kernel that also calls T.cuda.cta_sync (which is bar.sync 0 for the whole block);
// E0734 when nothing can run and a thread waits at a named barrier that can never complete.
#include <algorithm>
#include <set>

#include "core/sim/sim_internal.h"

namespace tirx::sim {

void Runner::namedBarrierReset() {
  namedBars.fill(NamedBarrierPhase{});
  namedReleased = false;
}

namespace {

std::string syncSpelling(const ir::Stmt& s) {
  return s.barrier == "bar_arrive" ? "bar.arrive" : "bar.sync";
}

/// "warps 4–7" / "warp 2" / "warps 0, 2, 5–6".
std::string warpList(const std::set<int64_t>& warps) {
  std::string out;
  for (auto it = warps.begin(); it != warps.end();) {
    const int64_t first = *it;
    int64_t last = first;
    while (++it != warps.end() && *it == last + 1) last = *it;
    if (!out.empty()) out += ", ";
    out += std::to_string(first) + (last > first ? "–" + std::to_string(last) : "");
  }
  return (warps.size() == 1 ? "warp " : "warps ") + out;
}

}  // namespace

bool Runner::arriveNamedBarrier(Thread& t, int pc, bool wait) {
  const ir::Stmt& s = *code[size_t(pc)].stmt;
  const int64_t id = eval(*s.value, t, t.vars, pc).i;
  const int64_t count = s.barrier == "warpgroup_sync" ? 128
                        : s.barrierCount              ? eval(*s.barrierCount, t, t.vars, pc).i
                                                      : kernel.launch.threads();
  if (fatal) return false;
  const std::string what = syncSpelling(s) + " " + std::to_string(id);
  if (id < 0 || id > 15) {
    fault("named-barrier", "E0735", pc,
          "named barrier id " + std::to_string(id) + " is outside 0..15 (" +
              threadName(cta, t.tid) + ")",
          true);
    return false;
  }
  if (count <= 0 || count % 32 != 0 || count > kernel.launch.threads()) {
    fault("named-barrier", "E0735", pc,
          what + " with a thread count of " + std::to_string(count) +
              ": a count is a positive multiple of 32 and at most the block's " +
              std::to_string(kernel.launch.threads()) + " threads (" + threadName(cta, t.tid) + ")",
          true);
    return false;
  }
  if (id == 0 && ctaSyncUsed) {
    fault("named-barrier", "E0735", pc,
          what +
              ": named barrier 0 is the one T.cuda.cta_sync() (__syncthreads) uses for the whole "
              "block, and this kernel calls it; use ids 1..15",
          true);
    return false;
  }
  NamedBarrierPhase& b = namedBars[size_t(id)];
  if (b.expected == 0) {
    b.expected = count;
    b.openInstr = pc;
    b.openTid = t.tid;
  } else if (b.expected != count) {
    fault("named-barrier", "E0735", pc,
          "thread count mismatch at named barrier " + std::to_string(id) + ": " +
              threadName(cta, t.tid) + " arrives with " + std::to_string(count) +
              " threads, but the phase began with " + std::to_string(b.expected) + " (" +
              std::to_string(b.arrived) +
              " arrived so far); every arrival of a phase must name the same count",
          true,
          {{span(b.openInstr), "the phase began here (thread " + std::to_string(b.openTid) +
                                   ", count " + std::to_string(b.expected) + ")"}});
    return false;
  }
  ++b.arrived;
  b.lastInstr = pc;
  b.latest = std::max(b.latest, t.clock);
  if (async.clocks) {
    auto& v = async.vc[size_t(t.tid)];
    if (b.joined.size() < v.size()) b.joined.resize(v.size(), 0);
    for (size_t i = 0; i < v.size(); ++i) b.joined[i] = std::max(b.joined[i], v[i]);
    if (!wait) ++v[size_t(t.tid)];  // what it does next is not ordered before the waiters
  }
  if (b.arrived < b.expected) {
    if (wait) {
      t.state = ThreadState::Waiting;
      b.waiters.push_back(&t);
    }
    return !wait;
  }
  // The phase completes: the waiters (and this thread, at bar.sync) leave together.
  NamedBarrierPhase done = std::move(b);
  b = NamedBarrierPhase{};
  if (wait) done.waiters.push_back(&t);
  for (Thread* w : done.waiters) {
    w->clock = done.latest;
    if (async.clocks) {
      auto& v = async.vc[size_t(w->tid)];
      if (v.size() < done.joined.size()) v.resize(done.joined.size(), 0);
      for (size_t i = 0; i < done.joined.size(); ++i) v[i] = std::max(v[i], done.joined[i]);
      ++v[size_t(w->tid)];
    }
    if (w == &t) continue;  // runThread moves it on
    w->state = ThreadState::Running;
    ++w->pc;
    namedReleased = true;
  }
  return true;
}

bool Runner::reportNamedBarrierDeadlock(std::vector<Thread>& threads) {
  for (size_t id = 0; id < namedBars.size(); ++id) {
    const NamedBarrierPhase& b = namedBars[id];
    if (b.waiters.empty()) continue;
    const Thread& first = *b.waiters.front();
    std::set<int64_t> waiting;
    for (const Thread* w : b.waiters) waiting.insert(w->tid / 32);
    // What every other warp is doing: finished, or stopped at some other statement.
    std::set<int64_t> finished;
    std::vector<DiagNote> notes;
    std::set<int> elsewhere;
    for (size_t other = 0; other < namedBars.size(); ++other) {  // the other barriers' waiters
      const NamedBarrierPhase& ob = namedBars[other];
      if (other == id || ob.waiters.empty()) continue;
      std::set<int64_t> ws;
      for (const Thread* w : ob.waiters) ws.insert(w->tid / 32);
      notes.push_back({span(ob.waiters.front()->pc),
                       warpList(ws) + " wait here at named barrier " + std::to_string(other) +
                           " (" + std::to_string(ob.arrived) + " of " +
                           std::to_string(ob.expected) + " threads arrived)"});
      for (const Thread* w : ob.waiters) waiting.insert(w->tid / 32);
    }
    std::set<int64_t> mine;
    for (const Thread* w : b.waiters) mine.insert(w->tid / 32);
    for (const Thread& o : threads) {
      if (o.state == ThreadState::Done)
        finished.insert(o.tid / 32);
      else if (o.state == ThreadState::Waiting && !waiting.count(o.tid / 32) &&
               elsewhere.insert(o.pc).second)
        notes.push_back({span(o.pc), threadName(cta, o.tid) + " waits here instead"});
    }
    waiting = mine;
    for (int64_t w : waiting) finished.erase(w);
    notes.insert(notes.begin(),
                 {span(b.openInstr), "the phase began here (thread " + std::to_string(b.openTid) +
                                         ", count " + std::to_string(b.expected) + ")"});
    if (b.lastInstr != b.openInstr)
      notes.insert(notes.begin() + 1, {span(b.lastInstr), "the last arrival was here"});
    std::string msg = "deadlock at named barrier " + std::to_string(id) + ": " +
                      std::to_string(b.arrived) + " of " + std::to_string(b.expected) +
                      " threads arrived and no thread can run; " + warpList(waiting) + " wait here";
    if (!finished.empty()) msg += ", " + warpList(finished) + " finished";
    fault("deadlock", "E0734", first.pc, msg, true, notes);
    return true;
  }
  return false;
}

}  // namespace tirx::sim
