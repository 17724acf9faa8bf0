// The asynchronous protocol in the simulator (spec TC §2.5, §3.1, §3.4, §12): mbarrier objects,
// cp.async / bulk groups, the in-flight operation queue with its landing, happens-before through
// mbarriers (vector clocks), and the protocol faults E0790-E0797, E0732, E0733, E0702-E0704.
// The state lives in Runner::async (async_state.h); the scheduler (executor.cpp) calls
// tryMbarWait, retireOneAsync and reportAsyncDeadlock.
#include <algorithm>
#include <cstring>

#include "core/sim/sim_internal.h"

namespace tirx::sim {

namespace {
constexpr int64_t kTxLimit = (int64_t(1) << 20) - 1;

void join(std::vector<uint32_t>& into, const std::vector<uint32_t>& from) {
  if (into.size() < from.size()) into.resize(from.size(), 0);
  for (size_t i = 0; i < from.size(); ++i) into[i] = std::max(into[i], from[i]);
}
}  // namespace

void Runner::resetAsync(int64_t nThreads) {
  if (!async.used) return;
  async.ops.clear();
  async.mbarQueue.clear();
  async.bars.clear();
  async.threads.assign(size_t(nThreads), ThreadAsync{});
  async.nThreads = nThreads;
  async.slots = 0;
  async.vc.clear();
  if (async.clocks) {
    const size_t width = size_t(nThreads) + AsyncState::kMaxSlots;
    async.vc.assign(size_t(nThreads), std::vector<uint32_t>(width, 0));
    for (int64_t i = 0; i < nThreads; ++i) async.vc[size_t(i)][size_t(i)] = 1;
    async.agentClock.assign(AsyncState::kMaxSlots, 1);
  }
  async.pendingWriter.assign(shared.size(), 0);
  async.srcReaders.assign(shared.size(), 0);
}

uint32_t Runner::clockOf(int64_t who) const {
  if (!async.clocks || who < 0) return 0;
  if (who < async.nThreads) return async.vc[size_t(who)][size_t(who)];
  const int64_t slot = who - async.nThreads;
  return slot < static_cast<int64_t>(async.agentClock.size()) ? async.agentClock[size_t(slot)] : 0;
}

bool Runner::hbOrdered(int64_t me, int32_t other, uint32_t clock) const {
  if (!async.clocks || other < 0 || me < 0 || me >= async.nThreads) return false;
  const auto& v = async.vc[size_t(me)];
  return size_t(other) < v.size() && v[size_t(other)] >= clock;
}

std::string Runner::actorName(int32_t who) const {
  if (who >= 0 && who < async.nThreads + AsyncState::kMaxSlots && who >= async.nThreads &&
      async.used)
    return "the async proxy";
  return "thread " + std::to_string(who);
}

// ---- mbarriers ------------------------------------------------------------------------------

MbarState* Runner::barrierOf(const ir::AsyncOp& a, Thread& t, int pc, bool forInit) {
  const ir::TensorRef& r = *a.barrier;
  int64_t coord[ir::kMaxTensorRank] = {};
  const int rank = static_cast<int>(std::min<size_t>(a.barIndex.size(), ir::kMaxTensorRank));
  std::string name = r.text + "[";
  for (int d = 0; d < rank; ++d) {
    coord[d] = eval(*a.barIndex[size_t(d)], t, t.vars, pc).i;
    name += (d ? ", " : "") + std::to_string(coord[d]);
    const int64_t ext = d < static_cast<int>(r.shape.size()) ? r.shape[size_t(d)] : 1;
    if (coord[d] < 0 || coord[d] >= ext) {
      fault("oob", "E0711", pc,
            "index " + std::to_string(coord[d]) + " is out of bounds for dimension " +
                std::to_string(d) + " of '" + r.text + "' with extent " + std::to_string(ext) +
                " in " + threadName(cta, t.tid),
            true);
      return nullptr;
    }
  }
  name += "]";
  Resolved res;
  if (!resolve(fast(r), coord, rank, t, pc, res)) return nullptr;
  int64_t off = 0;
  if (!byteOffset(t, r, res.m, pc, off) ||
      !checkAccess(t, r.buffer, off, 8, 8, pc, "mbarrier access"))
    return nullptr;
  const int64_t addr = sharedOffset[size_t(r.buffer)] + off;
  auto it = async.bars.find(addr);
  if (forInit) {
    MbarState& m = async.bars[addr];
    m.addr = addr;
    m.name = name;
    return &m;
  }
  if (it == async.bars.end() || !it->second.live) {
    if (it != async.bars.end() && it->second.invalInstr >= 0) {
      fault("mbarrier", "E0790", pc,
            "mbarrier '" + name + "' is used by " + threadName(cta, t.tid) +
                " after its mbarrier.inval (no mbarrier.init since)",
            true, {{span(it->second.invalInstr), "invalidated here"}});
      return nullptr;
    }
    fault("mbarrier", "E0790", pc,
          "mbarrier '" + name + "' is used by " + threadName(cta, t.tid) +
              " before any mbarrier.init of it",
          true);
    return nullptr;
  }
  MbarState& m = it->second;
  if (!m.initReported && m.initBy != t.tid && m.initEpoch == ctaEpoch &&
      !hbOrdered(t.tid, static_cast<int32_t>(m.initBy), m.initClock)) {
    m.initReported = true;  // once per barrier object
    fault("mbarrier", "E0797", pc,
          "mbarrier '" + name + "' is used by " + threadName(cta, t.tid) +
              " before its initialisation by thread " + std::to_string(m.initBy) +
              " is visible: no barrier in between",
          false,
          {{span(m.initInstr),
            "initialised here; add T.ptx.fence.proxy.async_.shared__cta() and T.cuda.cta_sync() "
            "after it"}});
  }
  return &m;
}

void Runner::releaseInto(MbarState& m, Thread& t) {
  if (!async.clocks) return;
  join(m.vc, async.vc[size_t(t.tid)]);
  ++async.vc[size_t(t.tid)][size_t(t.tid)];
}

bool Runner::checkTxRange(MbarState& m, int pc) {
  if (m.tx >= -kTxLimit && m.tx <= kTxLimit) return true;
  fault("mbarrier", "E0794", pc,
        "the tx-count of mbarrier '" + m.name + "' leaves its range of ±(2^20 - 1): " +
            std::to_string(m.tx) + " pending bytes in phase " + std::to_string(m.phase),
        true);
  return false;
}

void Runner::tryCompletePhase(MbarState& m, int pc) {
  if (m.pending != 0) return;
  if (m.tx < 0) {
    std::vector<DiagNote> notes;
    if (m.lastTxInstr >= 0)
      notes.push_back({span(m.lastTxInstr), "the phase's bytes were announced here"});
    fault("mbarrier", "E0793", pc,
          "transaction bytes over-delivered on mbarrier '" + m.name +
              "': " + std::to_string(m.txDelivered) + " bytes landed but only " +
              std::to_string(m.txExpected) + " were expected in phase " + std::to_string(m.phase),
          true, notes);
    return;
  }
  if (m.tx != 0) return;
  ++m.phase;
  if (timeline.on) {
    m.doneTime = m.phaseTime;
    const int32_t id = timeline.single(
        ir::AsyncEventKind::MbarPhase, static_cast<int32_t>(cta),
        static_cast<int32_t>(std::max<int64_t>(m.phaseActor, 0) / 32), m.doneTime, span(pc));
    if (id >= 0) {
      timeline.at(id).barrier = timeline.intern(m.name);
      timeline.at(id).phase = m.phase - 1;
    }
    m.phaseTime = 0;
  }
  m.pending = m.expected;
  m.txExpected = m.txDelivered = 0;
  m.consumed = false;
  m.completeInstr = pc;
  if (async.clocks) {
    m.doneVc = m.vc;
    std::fill(m.vc.begin(), m.vc.end(), 0);
  }
}

void Runner::arriveOn(MbarState& m, int64_t count, Thread& t, int pc) {
  if (!m.consumed) {
    fault("mbarrier", "E0796", pc,
          "arrive on mbarrier '" + m.name + "' by " + threadName(cta, t.tid) + " in phase " +
              std::to_string(m.phase) + " before any wait observed the completion of phase " +
              std::to_string(m.phase - 1),
          false,
          {{span(m.completeInstr), "phase " + std::to_string(m.phase - 1) + " completed here"}});
    m.consumed = true;  // one report per phase
  }
  if (count < 1 || count > m.pending) {
    fault("mbarrier", "E0792", pc,
          "arrival overflow on mbarrier '" + m.name + "': " + threadName(cta, t.tid) +
              " arrives with count " + std::to_string(count) + " but only " +
              std::to_string(m.pending) + " of " + std::to_string(m.expected) +
              " arrivals are pending in phase " + std::to_string(m.phase),
          true, {{span(m.initInstr), "initialised here with count " + std::to_string(m.expected)}});
    return;
  }
  releaseInto(m, t);
  if (timeline.on) {
    tlMbar(ir::AsyncEventKind::MbarArrive, t, pc, m, count, 0);
    if (t.clock >= m.phaseTime) m.phaseActor = t.tid;
    m.phaseTime = std::max(m.phaseTime, t.clock);
  }
  m.pending -= count;
  m.lastArriveInstr = pc;
  tryCompletePhase(m, pc);
}

void Runner::completeTx(MbarState& m, int64_t bytes, int pc) {
  m.tx -= bytes;
  m.txDelivered += bytes;
  if (!checkTxRange(m, pc)) return;
  tryCompletePhase(m, pc);
}

void Runner::execAsync(const ir::AsyncOp& a, Thread& t, int pc) {
  using K = ir::AsyncKind;
  ThreadAsync& ta = async.threads[size_t(t.tid)];
  switch (a.kind) {
    case K::CpAsyncCommit:
      if (timeline.on)
        tlCommit(ir::AsyncEventKind::CpAsyncCommit, t, pc, ta.cpOpen, ta.cpCommitted);
      ++ta.cpCommitted;
      ta.cpGroups.push_back(std::move(ta.cpOpen));
      ta.cpOpen.clear();
      ta.lastCommitInstr = pc;
      return;
    case K::BulkCommit:
      if (timeline.on)
        tlCommit(ir::AsyncEventKind::BulkCommit, t, pc, ta.bulkOpen, ta.bulkCommitted);
      ++ta.bulkCommitted;
      ta.bulkGroups.push_back(std::move(ta.bulkOpen));
      ta.bulkOpen.clear();
      return;
    case K::CpAsyncWait:
    case K::BulkWait: {
      // Lazy completion (decision ASYNC-2): the groups older than the N newest land now.
      auto& groups = a.kind == K::CpAsyncWait ? ta.cpGroups : ta.bulkGroups;
      int64_t end = t.clock;  // simulated time: the wait ends when its last copy has landed
      while (static_cast<int64_t>(groups.size()) > a.n && !fatal) {
        for (int32_t id : groups.front()) {
          landOp(id, pc);
          end = std::max(end, async.ops[size_t(id)].landTime);
        }
        groups.pop_front();
      }
      if (timeline.on) {
        const bool cp = a.kind == K::CpAsyncWait;
        bool fresh = false;
        const int32_t id =
            tlEvent(cp ? ir::AsyncEventKind::CpAsyncWait : ir::AsyncEventKind::BulkWait, t, pc,
                    t.clock, end, fresh);
        if (id >= 0 && fresh) {
          timeline.at(id).count = a.n;
          timeline.at(id).group = (cp ? ta.cpCommitted : ta.bulkCommitted) - a.n - 1;
        }
        t.clock = end;
      }
      return;
    }
    case K::FenceProxyAsync:
      ++ta.fenceSeq;
      ta.fenceEpoch = ctaEpoch;
      return;
    case K::FenceMbarrierInit:
      return;  // initialisation visibility is checked through barriers
    case K::MbarWait:
      return;  // handled by tryMbarWait
    case K::WgmmaFence:
    case K::WgmmaCommit:
    case K::WgmmaWait:
      execWgmmaSync(a, t, pc);
      return;  // wgmma_exec.cpp
    case K::SetMaxNReg:
      return;  // a register budget: no effect on values (docs/simulator.md)
    default:
      break;
  }
  const bool init = a.kind == K::MbarInit;
  MbarState* m = barrierOf(a, t, pc, init);
  if (!m) return;
  if (a.kind == K::MbarInval) {
    invalidate(*m, t, pc);
    return;
  }
  const int64_t v = a.value ? eval(*a.value, t, t.vars, pc).i : 1;
  if (init) {
    if (m->live) {
      fault("mbarrier", "E0791", pc,
            "mbarrier '" + m->name + "' is initialised again by " + threadName(cta, t.tid) +
                " while it is live (phase " + std::to_string(m->phase) + ", " +
                std::to_string(m->pending) + " arrivals pending)",
            true, {{span(m->initInstr), "first initialised here"}});
      return;
    }
    if (v < 1 || v > kTxLimit) {
      fault("mbarrier", "E0792", pc,
            "mbarrier.init count " + std::to_string(v) + " of '" + m->name +
                "' is outside [1, 2^20 - 1]",
            true);
      return;
    }
    const std::string name = m->name;
    const int64_t addr = m->addr;
    *m = MbarState{};
    m->live = true;
    m->addr = addr;
    m->name = name;
    m->expected = m->pending = v;
    m->initInstr = pc;
    m->initBy = t.tid;
    m->initEpoch = ctaEpoch;
    m->initClock = clockOf(t.tid);
    m->slot = async.slots < AsyncState::kMaxSlots
                  ? async.slots++
                  : static_cast<int>(m->addr / 8 % AsyncState::kMaxSlots);
    if (timeline.on) {
      m->doneTime = t.clock;  // the phase before the first counts as complete (parity-1 waits pass)
      tlMbar(ir::AsyncEventKind::MbarInit, t, pc, *m, v, 0);
    }
    return;
  }
  switch (a.kind) {
    case K::MbarArrive:
      arriveOn(*m, v, t, pc);
      return;
    case K::MbarExpectTx:
    case K::MbarArriveExpectTx:
      if (v < 0 || v > kTxLimit) {
        fault("mbarrier", "E0794", pc,
              "expect_tx of " + std::to_string(v) + " bytes on '" + m->name +
                  "' is outside [0, 2^20 - 1]",
              true);
        return;
      }
      m->tx += v;
      m->txExpected += v;
      m->lastTxInstr = pc;
      if (timeline.on) {
        tlMbar(ir::AsyncEventKind::MbarExpectTx, t, pc, *m, 0, v);
        if (t.clock >= m->phaseTime) m->phaseActor = t.tid;
        m->phaseTime = std::max(m->phaseTime, t.clock);
      }
      if (!checkTxRange(*m, pc)) return;
      if (a.kind == K::MbarArriveExpectTx)
        arriveOn(*m, 1, t, pc);
      else
        tryCompletePhase(*m, pc);
      return;
    default:
      return;
  }
}

void Runner::invalidate(MbarState& m, Thread& t, int pc) {
  // Undefined in PTX while the object still has work: an async copy that will complete_tx on it.
  for (int32_t id : async.mbarQueue) {
    const AsyncOpRec& o = async.ops[size_t(id)];
    if (o.landed || o.mbarAddr != m.addr) continue;
    fault("mbarrier", "E0799", pc,
          "mbarrier.inval of '" + m.name + "' by " + threadName(cta, t.tid) +
              " while an async copy of thread " + std::to_string(o.issuer) +
              " that completes on it is in flight",
          true, {{span(o.instr), "the copy is issued here"}});
    return;
  }
  if (timeline.on) tlMbar(ir::AsyncEventKind::MbarInval, t, pc, m, 0, 0);
  m.live = false;
  m.invalInstr = pc;
}

bool Runner::tryMbarWait(Thread& t, int pc) {
  const ir::AsyncOp& a = *code[size_t(pc)].stmt->async;
  MbarState* m = barrierOf(a, t, pc, false);
  if (!m) return false;
  const int64_t parity = a.value ? eval(*a.value, t, t.vars, pc).i : 0;
  if (parity != 0 && parity != 1) {
    fault("mbarrier", "E0795", pc,
          "invalid parity " + std::to_string(parity) + " in a wait on mbarrier '" + m->name +
              "' (must be 0 or 1)",
          true);
    return false;
  }
  // The phase of parity p has completed iff the current (incomplete) phase has the other parity.
  if (static_cast<int64_t>(m->phase & 1) == parity) return false;
  if (async.clocks) join(async.vc[size_t(t.tid)], m->doneVc);
  if (timeline.on) {
    // Simulated time: the wait ends no earlier than the completion of the phase it observes.
    const int64_t end = std::max(t.clock, m->doneTime);
    bool fresh = false;
    const int32_t id = tlEvent(ir::AsyncEventKind::MbarWait, t, pc, t.clock, end, fresh);
    if (id >= 0 && fresh) {
      ir::AsyncEvent& e = timeline.at(id);
      e.barrier = timeline.intern(m->name);
      e.parity = parity;
      e.phase = static_cast<int64_t>(m->phase) - 1;
    }
    t.clock = end;
  }
  m->consumed = true;
  return true;
}

// ---- in-flight operations -------------------------------------------------------------------

int32_t Runner::issueAsync(Thread& t, int pc, AsyncOpRec op) {
  op.issuer = t.tid;
  op.instr = pc;
  if (timeline.on) tlIssue(t, pc, op);
  const int32_t id = static_cast<int32_t>(async.ops.size());
  ThreadAsync& ta = async.threads[size_t(t.tid)];
  for (const ByteRange& r : op.dst) {
    for (int64_t b = r.begin; b < r.end; ++b) {
      const int32_t other = async.pendingWriter[size_t(b)];
      if (other) {
        const AsyncOpRec& o = async.ops[size_t(other - 1)];
        const bool sameGroup = o.issuer == t.tid && std::find(ta.cpOpen.begin(), ta.cpOpen.end(),
                                                              other - 1) != ta.cpOpen.end();
        fault("async", sameGroup ? "E0704" : "E0703", pc,
              sameGroup ? "two copies of one async group write shared byte " + std::to_string(b) +
                              " (" + threadName(cta, t.tid) + "): undefined in PTX"
                        : "async copy by " + threadName(cta, t.tid) + " writes shared byte " +
                              std::to_string(b) + " while an earlier async copy by thread " +
                              std::to_string(o.issuer) + " that writes it is in flight",
              false, {{span(o.instr), "the other copy is issued here"}});
        break;
      }
    }
    for (int64_t b = r.begin; b < r.end; ++b) async.pendingWriter[size_t(b)] = id + 1;
  }
  for (const ByteRange& r : op.src)
    for (int64_t b = r.begin; b < r.end; ++b) ++async.srcReaders[size_t(b)];
  if (op.completion == AsyncOpRec::Completion::Mbarrier) {
    auto it = async.bars.find(op.mbarAddr);
    if (it != async.bars.end()) op.mbarPhase = it->second.phase;
    async.mbarQueue.push_back(id);
  } else if (op.completion == AsyncOpRec::Completion::BulkGroup) {
    ta.bulkOpen.push_back(id);
  } else {
    ta.cpOpen.push_back(id);
  }
  async.ops.push_back(std::move(op));
  return id;
}

bool Runner::issueCpAsync(const ir::TileApply& a, Thread& t, int instr, int64_t dstM,
                          int64_t srcM) {
  const ir::TensorRef& d = a.operands[0].tensor;
  const ir::TensorRef& s = a.operands[1].tensor;
  const int64_t chunk = a.chunkBytes;
  int64_t doff = 0, soff = 0;
  if (!byteOffset(t, d, dstM, instr, doff) || !byteOffset(t, s, srcM, instr, soff)) return false;
  if (!checkAccess(t, d.buffer, doff, chunk, chunk, instr, "cp.async write")) return false;
  int64_t n = chunk;
  if (a.ignoreSrc && eval(*a.ignoreSrc, t, t.vars, instr).i != 0) n = 0;
  if (a.srcSize) {
    const int64_t v = eval(*a.srcSize, t, t.vars, instr).i;
    if (v < 0 || v > chunk) {
      fault("async", "E0798", instr,
            "src_size=" + std::to_string(v) + " of " + a.instr.opcode + " is outside [0, " +
                std::to_string(chunk) + "] in " + threadName(cta, t.tid),
            true);
      return false;
    }
    n = std::min(n, v);
  }
  if (n > 0) {
    if (!checkAccess(t, s.buffer, soff, n, chunk, instr, "cp.async read")) return false;
  } else if (soff % chunk != 0) {
    return checkAccess(t, s.buffer, soff, 0, chunk, instr, "cp.async read");
  }
  AsyncOpRec op;
  op.completion = AsyncOpRec::Completion::CpAsync;
  op.data.assign(size_t(chunk), 0);  // the bytes after src_size are zero-filled
  if (n > 0)
    std::memcpy(op.data.data(),
                args[size_t(argOfBuffer[size_t(s.buffer)])].tensor.data.data() + soff, size_t(n));
  const int64_t base = sharedOffset[size_t(d.buffer)] + doff;
  op.dst.push_back({base, base + chunk});
  if (n > 0) {
    op.globalBuffer = s.buffer;
    op.globalSrc = {soff, soff + n};
    ++async.globalReaders;
  }
  issueAsync(t, instr, std::move(op));
  elementOps += 1;
  return !fatal;
}

void Runner::checkGlobalSourceWrite(const Thread& t, int b, int64_t off, int64_t nbytes,
                                    int instr) {
  for (const AsyncOpRec& o : async.ops) {
    if (o.landed || o.globalBuffer != b || o.globalSrc.end <= off ||
        off + nbytes <= o.globalSrc.begin)
      continue;
    fault("async", "E0703", instr,
          "write to global '" + kernel.buffers[size_t(b)].name + "' byte offset " +
              std::to_string(std::max(off, o.globalSrc.begin)) + " by " + threadName(cta, t.tid) +
              " while an in-flight cp.async of thread " + std::to_string(o.issuer) +
              " reads it (the source is read at an unspecified time before the copy completes)",
          false, {{span(o.instr), "the cp.async is issued here"}});
    return;
  }
}

void Runner::landShared(const AsyncOpRec& op, int64_t byte, const uint8_t* data, int64_t n) {
  if (byte < 0 || n < 0 || byte + n > static_cast<int64_t>(shared.size())) return;
  if (wgmmaUsed)
    wgmmaSharedWrite(byte, n, op.instr,
                     "an async copy issued by thread " + std::to_string(op.issuer));
  std::memcpy(shared.data() + byte, data, size_t(n));
  const bool agent = op.completion == AsyncOpRec::Completion::Mbarrier;
  int32_t writer = static_cast<int32_t>(op.issuer);
  if (agent) {
    auto it = async.bars.find(op.mbarAddr);
    writer = static_cast<int32_t>(async.nThreads + (it != async.bars.end() ? it->second.slot : 0));
  }
  const uint32_t clock = clockOf(writer);
  const int warp = static_cast<int>(op.issuer / 32);
  for (int64_t k = 0; k < n; ++k) {
    ShadowByte& s = shadow[size_t(byte + k)];
    s.written = true;
    s.writer = writer;
    s.writeInstr = op.instr;
    s.writeEpoch = ctaEpoch;
    s.writeWarpEpoch = warp < static_cast<int>(warpEpoch.size()) ? warpEpoch[size_t(warp)] : 0;
    s.writeClock = clock;
  }
}

void Runner::landOp(int32_t id, int pc) {
  AsyncOpRec& op = async.ops[size_t(id)];
  if (op.landed) return;
  op.landed = true;
  for (const ByteRange& r : op.dst)
    for (int64_t b = r.begin; b < r.end; ++b)
      if (async.pendingWriter[size_t(b)] == id + 1) async.pendingWriter[size_t(b)] = 0;
  for (const ByteRange& r : op.src)
    for (int64_t b = r.begin; b < r.end; ++b) --async.srcReaders[size_t(b)];
  if (op.globalBuffer >= 0) --async.globalReaders;
  if (op.land)
    op.land(*this, op);
  else if (!op.dst.empty())
    landShared(op, op.dst.front().begin, op.data.data(), static_cast<int64_t>(op.data.size()));
  op.data = {};
  if (op.completion != AsyncOpRec::Completion::Mbarrier) return;
  auto it = async.bars.find(op.mbarAddr);
  if (it == async.bars.end() || !it->second.live) {
    fault("mbarrier", "E0790", op.instr,
          "an async copy completes on an mbarrier that is not initialised", true);
    return;
  }
  MbarState& m = it->second;
  if (m.phase != op.mbarPhase) {
    fault("mbarrier", "E0733", op.instr,
          "stale completion: an async copy issued in phase " + std::to_string(op.mbarPhase) +
              " of mbarrier '" + m.name + "' lands after that phase completed (now phase " +
              std::to_string(m.phase) + ")",
          true, {{span(m.completeInstr), "the phase completed here"}});
    return;
  }
  if (async.clocks) {
    const size_t slot = async.nThreads + size_t(m.slot);
    if (m.vc.size() <= slot) m.vc.resize(slot + 1, 0);
    m.vc[slot] = std::max(m.vc[slot], async.agentClock[size_t(m.slot)]);
    ++async.agentClock[size_t(m.slot)];
  }
  m.lastTxInstr = m.lastTxInstr < 0 ? op.instr : m.lastTxInstr;
  if (timeline.on) {
    const int32_t ev =
        timeline.single(ir::AsyncEventKind::MbarCompleteTx, static_cast<int32_t>(cta),
                        static_cast<int32_t>(op.issuer / 32), op.landTime, span(op.instr));
    if (ev >= 0) {
      timeline.at(ev).barrier = timeline.intern(m.name);
      timeline.at(ev).phase = m.phase;
      timeline.at(ev).bytes = op.txBytes;
    }
    if (op.landTime >= m.phaseTime) m.phaseActor = op.issuer;
    m.phaseTime = std::max(m.phaseTime, op.landTime);
  }
  completeTx(m, op.txBytes, pc >= 0 ? pc : op.instr);
}

bool Runner::retireOneAsync() {
  while (!async.mbarQueue.empty()) {
    const int32_t id = async.mbarQueue.front();
    async.mbarQueue.pop_front();
    if (async.ops[size_t(id)].landed) continue;
    landOp(id, -1);
    return true;
  }
  return false;
}

bool Runner::waitsOnBarrier(const Thread& t) const {
  return t.state == ThreadState::Waiting && code[size_t(t.pc)].op == Op::MbarWait;
}

void Runner::reportAsyncDeadlock(std::vector<Thread>& threads) {
  // Name the first waiter, its barrier and parity, and why the phase cannot complete.
  for (Thread& t : threads) {
    if (!waitsOnBarrier(t)) continue;
    const ir::AsyncOp& a = *code[size_t(t.pc)].stmt->async;
    MbarState* m = barrierOf(a, t, t.pc, false);
    if (!m) return;
    const int64_t parity = a.value ? eval(*a.value, t, t.vars, t.pc).i : 0;
    int64_t others = 0;
    for (const Thread& o : threads)
      if (waitsOnBarrier(o)) ++others;
    std::string why =
        std::to_string(m->pending) + " of " + std::to_string(m->expected) + " arrivals pending";
    if (m->tx != 0 || m->txExpected != 0)
      why += ", " + std::to_string(m->tx) + " transaction bytes outstanding (expect_tx announced " +
             std::to_string(m->txExpected) + " bytes, async copies delivered " +
             std::to_string(m->txDelivered) + ")";
    std::vector<DiagNote> notes{
        {span(m->initInstr), "initialised here with count " + std::to_string(m->expected)}};
    if (m->lastTxInstr >= 0)
      notes.push_back({span(m->lastTxInstr), "bytes of this phase announced here"});
    if (m->lastArriveInstr >= 0) notes.push_back({span(m->lastArriveInstr), "last arrival here"});
    // The other barriers waited on: a wrong initial phase usually shows on the other side.
    std::vector<std::pair<int, int64_t>> named{{t.pc, m->addr}};
    for (Thread& o : threads) {
      if (!waitsOnBarrier(o)) continue;
      const ir::AsyncOp& oa = *code[size_t(o.pc)].stmt->async;
      MbarState* om = barrierOf(oa, o, o.pc, false);
      if (!om) return;
      const std::pair<int, int64_t> key{o.pc, om->addr};
      if (std::find(named.begin(), named.end(), key) != named.end()) continue;
      named.push_back(key);
      const int64_t op = oa.value ? eval(*oa.value, o, o.vars, o.pc).i : 0;
      notes.push_back({span(o.pc), "thread " + std::to_string(o.tid) + " waits here on '" +
                                       om->name + "' for parity " + std::to_string(op) +
                                       " (phase " + std::to_string(om->phase) + ", " +
                                       std::to_string(om->pending) + " of " +
                                       std::to_string(om->expected) + " arrivals pending)"});
    }
    if (timeline.on)
      for (Thread& o : threads) {
        if (!waitsOnBarrier(o)) continue;
        const ir::AsyncOp& oa = *code[size_t(o.pc)].stmt->async;
        MbarState* om = barrierOf(oa, o, o.pc, false);
        bool fresh = false;
        const int32_t id =
            om ? tlEvent(ir::AsyncEventKind::MbarWait, o, o.pc, o.clock, o.clock, fresh) : -1;
        if (id < 0 || !fresh) continue;
        ir::AsyncEvent& e = timeline.at(id);
        e.unfinished = true;
        e.barrier = timeline.intern(om->name);
        e.parity = oa.value ? eval(*oa.value, o, o.vars, o.pc).i : 0;
        e.phase = om->phase;
      }
    fault("deadlock", "E0732", t.pc,
          "deadlock: " + threadName(cta, t.tid) + " waits on mbarrier '" + m->name +
              "' for parity " + std::to_string(parity) + ", but phase " + std::to_string(m->phase) +
              " can never complete: " + why +
              "; no thread can run and no async copy is in flight (" + std::to_string(others) +
              " thread" + (others == 1 ? "" : "s") + " wait on mbarriers)",
          true, notes);
    return;
  }
}

void Runner::asyncExitChecks() {
  if (!async.used) return;
  for (size_t i = 0; i < async.threads.size(); ++i) {
    const ThreadAsync& ta = async.threads[i];
    auto lint = [&](int32_t id, const char* what) {
      const AsyncOpRec& o = async.ops[size_t(id)];
      warnAt("async", "W0700", o.instr,
             std::string("async copy issued here by ") + threadName(cta, int64_t(i)) + " is " +
                 what + " when the thread exits");
    };
    if (!ta.cpOpen.empty())
      lint(ta.cpOpen.front(), "never committed (cp.async.commit_group) nor waited on");
    for (const auto& g : ta.cpGroups)
      if (!g.empty()) {
        lint(g.front(), "committed but never waited on (cp.async.wait_group)");
        break;
      }
    if (!ta.bulkOpen.empty())
      lint(ta.bulkOpen.front(), "never committed (cp.async.bulk.commit_group)");
  }
  for (int32_t id : async.mbarQueue)
    if (!async.ops[size_t(id)].landed) {
      warnAt("async", "W0700", async.ops[size_t(id)].instr,
             "async copy issued here never completed: no thread waited on its mbarrier");
      break;
    }
}

}  // namespace tirx::sim
