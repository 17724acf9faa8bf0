// The hang report of a simulated run (ir::HangReport): when the scheduler finds that no thread of
// a CTA can move (a deadlock) or the work budget is spent, the CTA's threads are grouped by the
// statement and barrier they stop at, with the barrier's phase, arrivals and transaction bytes,
// so that the CLI and the studio can say which warps wait at which mbarrier phase at which line.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "core/sim/sim_internal.h"

namespace tirx::sim {

namespace {

const char* waitKind(Op op) {
  switch (op) {
    case Op::MbarWait:
      return "mbarrier";
    case Op::NamedBarrier:
      return "named barrier";
    case Op::Barrier:
      return "barrier";
    case Op::WarpSync:
      return "warp sync";
    case Op::Wgmma:
      return "wgmma";
    case Op::Collective:
      return "collective";
    default:
      return "waiting";
  }
}

}  // namespace

void Runner::captureHang(std::vector<Thread>& threads, const std::string& reason) {
  hang = {};
  hang.reason = reason;
  hang.cta = cta;
  using Key = std::tuple<int, std::string, int64_t, int64_t>;  // pc, kind/barrier, addr, parity
  std::map<Key, ir::HangWait> groups;
  std::map<int64_t, bool> warpDone;  // warp -> every thread finished
  for (Thread& t : threads) {
    const int64_t warp = t.tid / 32;
    auto [it, fresh] = warpDone.emplace(warp, true);
    if (t.state != ThreadState::Done) it->second = false;
    if (t.state == ThreadState::Done || t.pc < 0 || t.pc >= int(code.size())) continue;
    ir::HangWait w;
    w.cta = cta;
    const SourceSpan sp = span(t.pc);
    w.line = sp.line;
    w.col = sp.col;
    int64_t addr = -1;
    if (t.state == ThreadState::Running) {
      w.kind = "running";
    } else {
      const Op op = code[size_t(t.pc)].op;
      w.kind = waitKind(op);
      if (op == Op::MbarWait && code[size_t(t.pc)].stmt->async) {
        const ir::AsyncOp& a = *code[size_t(t.pc)].stmt->async;
        if (MbarState* m = barrierOf(a, t, t.pc, false)) {
          addr = m->addr;
          w.barrier = m->name;
          w.phase = m->phase;
          w.parity = a.value ? eval(*a.value, t, t.vars, t.pc).i : 0;
          w.expectedArrivals = m->expected;
          w.arrived = m->expected - m->pending;
          w.expectedTxBytes = m->txExpected;
          w.deliveredTxBytes = m->txDelivered;
          w.outstandingTxBytes = m->tx;
        }
      } else if (op == Op::NamedBarrier) {
        for (size_t id = 0; id < namedBars.size(); ++id)
          for (const Thread* p : namedBars[id].waiters)
            if (p == &t) {
              addr = int64_t(id);
              w.barrier = "named barrier " + std::to_string(id);
              w.expectedArrivals = namedBars[id].expected;
              w.arrived = namedBars[id].arrived;
            }
      } else if (op == Op::Barrier) {
        w.barrier = "bar.sync 0";
        w.expectedArrivals = int64_t(threads.size());
        for (const Thread& o : threads)
          if (o.state == ThreadState::Waiting && code[size_t(o.pc)].op == Op::Barrier) ++w.arrived;
      }
    }
    const Key key{t.pc, w.kind + "/" + w.barrier, addr, w.parity};
    auto [g, added] = groups.emplace(key, w);
    g->second.threads += 1;
    if (g->second.warps.empty() || g->second.warps.back() != warp) g->second.warps.push_back(warp);
  }
  for (auto& [key, w] : groups) hang.waits.push_back(std::move(w));
  // Waiters first (the barriers are the story), then threads still running; by line within.
  std::stable_sort(hang.waits.begin(), hang.waits.end(),
                   [](const ir::HangWait& a, const ir::HangWait& b) {
                     return std::make_tuple(a.kind == "running", a.line, a.barrier) <
                            std::make_tuple(b.kind == "running", b.line, b.barrier);
                   });
  for (const auto& [warp, done] : warpDone)
    if (done) hang.finishedWarps.push_back(warp);
}

namespace {

/// "warp 3", "warps 0-3", "warps 0, 2, 5-7".
std::string warpRanges(const std::vector<int64_t>& warps) {
  std::string out;
  for (size_t i = 0; i < warps.size();) {
    size_t j = i;
    while (j + 1 < warps.size() && warps[j + 1] == warps[j] + 1) ++j;
    out += (out.empty() ? "" : ", ") + std::to_string(warps[i]) +
           (j > i ? "-" + std::to_string(warps[j]) : "");
    i = j + 1;
  }
  return (warps.size() == 1 ? "warp " : "warps ") + out;
}

}  // namespace

std::string hangWaitText(const ir::HangWait& w) {
  std::string s = warpRanges(w.warps) + " (" + std::to_string(w.threads) +
                  (w.threads == 1 ? " thread) " : " threads) ");
  if (w.kind == "running") return s + "still running";
  const std::string what = w.kind == "mbarrier" ? "mbarrier '" + w.barrier + "'"
                           : !w.barrier.empty() ? w.barrier
                                                : w.kind;
  s += std::string(w.threads == 1 ? "waits" : "wait") + " on " + what;
  if (w.phase >= 0)
    s += " phase " + std::to_string(w.phase) + " (parity " + std::to_string(w.parity) + ")";
  if (w.expectedArrivals > 0)
    s += ": " + std::to_string(w.arrived) + " of " + std::to_string(w.expectedArrivals) +
         " arrivals";
  if (w.expectedTxBytes != 0 || w.deliveredTxBytes != 0 || w.outstandingTxBytes != 0)
    s += ", transaction bytes expected " + std::to_string(w.expectedTxBytes) + ", delivered " +
         std::to_string(w.deliveredTxBytes) + ", outstanding " +
         std::to_string(w.outstandingTxBytes);
  return s;
}

std::string hangReportText(const ir::HangReport& hang, const std::string& file) {
  if (hang.empty()) return {};
  std::string s = "hang (" + hang.reason + ") in cta " + std::to_string(hang.cta) + ":\n";
  for (const ir::HangWait& w : hang.waits)
    s += file + ":" + std::to_string(w.line) + ":" + std::to_string(w.col) + ": " +
         hangWaitText(w) + "\n";
  if (!hang.finishedWarps.empty()) s += "  finished: " + warpRanges(hang.finishedWarps) + "\n";
  return s;
}

std::vector<DiagNote> hangNotes(const ir::HangReport& hang) {
  std::vector<DiagNote> notes;
  for (const ir::HangWait& w : hang.waits) {
    SourceSpan sp;
    sp.line = w.line;
    sp.col = w.col;
    notes.push_back({sp, "hang: " + hangWaitText(w)});
  }
  return notes;
}

}  // namespace tirx::sim
