// The simulator's wgmma (spec/TIRX-TENSOR-CORES.md §8.3, §8.7; decision TC-2 in
// docs/decisions.md). A wgmma statement waits until all 128 threads of the warpgroup reach it,
// then issues one operation per (k-step, m-repeat): A and B are gathered through the descriptor
// (the start address from the region's origin evaluated now, LBO/SBO/swizzle as written, each
// element's byte by descriptorAddress on the CTA's shared window) or, for A in registers, through
// the §8.4 A map; the D registers are locked; the op joins every thread's open wgmma set. commit /
// wait_group work per thread like cp.async groups; the first thread whose wait covers an op
// computes D = A·B (+D) (products and the 16-term sum exact in double, one f32 rounding per
// instruction) and writes all 128 threads' accumulators. The §8.3 checks:
//   E0786 a D/A register read or written between its wgmma and the thread's covering wait;
//   E0787 no wgmma.fence before a thread's first wgmma, or a D/A register accessed since the
//         thread's last fence (names the access's line);
//   E0788 a shared operand byte written (store, TMA or cp.async landing) before every thread of
//         the issuing warpgroup has waited for the wgmma;
//   E0785 an operand byte written by a generic store without fence.proxy.async by its writer (and
//         a barrier or mbarrier order when the writer is outside the warpgroup);
//   E0789 threads of one warpgroup at different wgmma statements, or finished, while others wait
//         at one; descriptors (region origins) that differ between the warps.
// Named barriers (`T.cuda.warpgroup_sync(id)` = bar.sync id, 128) are named_barrier_exec.cpp's.
#include <algorithm>
#include <cstring>
#include <map>

#include "core/ir/half.h"
#include "core/layout/wgmma_descriptor.h"
#include "core/ptx/fragments.h"
#include "core/sim/sim_internal.h"

namespace tirx::sim {

namespace {

double elemValue(uint16_t bits, bool bf16) {
  if (bf16) {
    const uint32_t w = uint32_t(bits) << 16;
    float f = 0;
    std::memcpy(&f, &w, 4);
    return f;
  }
  return ir::halfBitsToFloat(bits);
}

}  // namespace

void Runner::wgmmaReset(int64_t nThreads) {
  if (!wgmmaUsed) return;
  wgOps.clear();
  wgThreads.assign(size_t(nThreads), WgmmaThread{});
  wgShared.assign(shared.size(), 0);
  wgSharedOp.assign(shared.size(), 0);
}

void Runner::wgmmaRegisterAccess(Thread& t, int b, int64_t off, int64_t nbytes, int instr,
                                 bool store) {
  if (size_t(b) >= t.regLock.size() || t.regLock[size_t(b)].empty()) return;
  auto& lock = t.regLock[size_t(b)];
  auto& touch = t.regTouch[size_t(b)];
  for (int64_t k = off; k < off + nbytes && k < int64_t(lock.size()); ++k) {
    touch[size_t(k)] = instr + 1;
    if (lock[size_t(k)] == 0) continue;
    const WgmmaOp& op = wgOps[size_t(lock[size_t(k)] - 1)];
    const ir::Buffer& buf = kernel.buffers[size_t(b)];
    fault("wgmma", "E0786", instr,
          std::string(store ? "write of" : "read of") + " register " + buf.name + "[" +
              std::to_string(k / std::max(1, ir::dtypeBytes(buf.dtype))) + "] by " +
              threadName(cta, t.tid) +
              " while the wgmma that uses it is in flight: no wgmma.wait_group of this thread "
              "covers it yet",
          false, {{span(op.pc), "the wgmma is issued here"}});
    return;
  }
}

void Runner::wgmmaSharedWrite(int64_t byte, int64_t n, int instr, const std::string& who) {
  for (int64_t k = byte; k < byte + n; ++k) {
    if (k < 0 || k >= int64_t(wgShared.size()) || wgShared[size_t(k)] == 0) continue;
    const WgmmaOp& op = wgOps[size_t(wgSharedOp[size_t(k)] - 1)];
    fault("wgmma", "E0788", instr,
          who + " writes shared byte " + std::to_string(k) + " while a wgmma of warpgroup " +
              std::to_string(op.group) +
              " reads it: not every thread of the warpgroup has passed a wgmma.wait_group covering "
              "it",
          false, {{span(op.pc), "the wgmma that reads the byte is issued here"}});
    return;
  }
}

void Runner::execWgmmaSync(const ir::AsyncOp& a, Thread& t, int pc) {
  using K = ir::AsyncKind;
  if (!wgmmaUsed || size_t(t.tid) >= wgThreads.size()) return;
  WgmmaThread& wt = wgThreads[size_t(t.tid)];
  switch (a.kind) {
    case K::WgmmaFence:
      wt.fenced = true;
      for (auto& v : t.regTouch) std::fill(v.begin(), v.end(), 0);
      return;
    case K::WgmmaCommit:
      wt.groups.push_back(std::move(wt.open));
      wt.open.clear();
      return;
    case K::WgmmaWait:
      while (int64_t(wt.groups.size()) > a.n && !fatal) {
        for (int32_t id : wt.groups.front()) {
          WgmmaOp& op = wgOps[size_t(id)];
          if (!op.done) completeWgmma(id);
          for (auto& [b, off] : op.locked) {
            auto& lock = t.regLock[size_t(b)];
            for (int64_t k = off; k < off + 4; ++k)
              if (lock[size_t(k)] == id + 1) lock[size_t(k)] = 0;
          }
          if (--op.waitersLeft == 0)
            for (int64_t byte : op.sharedBytes)
              if (--wgShared[size_t(byte)] == 0) wgSharedOp[size_t(byte)] = 0;
        }
        wt.groups.pop_front();
      }
      return;
    default:
      return;
  }
}

void Runner::wgmmaExitChecks() {
  for (size_t i = 0; i < wgThreads.size(); ++i) {
    const WgmmaThread& wt = wgThreads[i];
    int32_t id = wt.open.empty() ? -1 : wt.open.front();
    if (id < 0 && !wt.groups.empty() && !wt.groups.front().empty()) id = wt.groups.front().front();
    if (id < 0) continue;
    warnAt("async", "W0700", wgOps[size_t(id)].pc,
           "wgmma issued here was never waited for by thread " + std::to_string(i) +
               (wt.open.empty() ? "" : " (nor committed)") +
               ": its accumulators are undefined when the thread exits (add wgmma.commit_group and "
               "wgmma.wait_group)");
    return;
  }
}

void Runner::completeWgmma(int32_t id) {
  WgmmaOp& op = wgOps[size_t(id)];
  op.done = true;
  const ir::Wgmma& w = *op.w;
  const int regs = w.n / 2;
  const int b = w.d.buffer;
  const int eb = 4;
  for (int th = 0; th < 128; ++th) {
    Thread& t = *op.threads[size_t(th)];
    auto& bytes = t.regs[size_t(b)];
    for (int j = 0; j < regs; ++j) {
      const frag::Coord c = frag::wgmmaAccumulator(w.n, th, j);
      const int64_t off = w.dSlots[size_t(op.r * regs + j)] * eb;
      if (off < 0 || off + 4 > int64_t(bytes.size())) continue;  // sema proved the slots
      double acc = 0;
      if (op.accumulate) {
        float d = 0;
        std::memcpy(&d, bytes.data() + off, 4);
        acc = d;
      }
      double sum = 0;
      for (int k = 0; k < 16; ++k)
        sum += op.a[size_t(c.row * 16 + k)] * op.b[size_t(k * w.n + c.col)];
      const float result = static_cast<float>(acc + sum);
      std::memcpy(bytes.data() + off, &result, 4);
      auto& wr = t.regWriter[size_t(b)];
      for (int k = 0; k < 4; ++k) wr[size_t(off + k)] = op.pc + 1;
    }
  }
}

bool Runner::wgmmaGather(const ir::Wgmma& w, const ir::WgmmaShared& o, bool isA, int64_t r,
                         int64_t k, Thread* const* wg, int pc, std::vector<double>& out,
                         std::vector<int64_t>& bytesRead) {
  const int64_t rows = isA ? 64 : w.n;
  const ir::Buffer& buf = kernel.buffers[size_t(o.ref.buffer)];
  const int eb = ir::dtypeBytes(o.ref.dtype);
  const bool bf16 = w.instr.abType == ".bf16";
  // The region's origin, per warp: the descriptors must be the same in all four (§8.2).
  int64_t origin = 0;
  for (int warp = 0; warp < 4; ++warp) {
    Thread& t = *wg[size_t(warp * 32)];
    const std::vector<int64_t> zero(o.ref.shape.size(), 0);
    Resolved rv;
    if (!resolve(fast(o.ref), zero.data(), int(zero.size()), t, pc, rv)) return false;
    const int64_t pre = rv.m * eb;
    if (warp == 0) {
      origin = pre;
    } else if (pre != origin) {
      fault("wgmma", "E0789", pc,
            std::string("the ") + (isA ? "A" : "B") +
                " descriptor differs between the warps of warpgroup " +
                std::to_string(t.tid / 128) + ": '" + o.ref.text + "' starts at byte " +
                std::to_string(origin) + " of '" + buf.name + "' in warp " +
                std::to_string(wg[0]->tid / 32) + " but at byte " + std::to_string(pre) +
                " in warp " + std::to_string(t.tid / 32),
            true);
      return false;
    }
  }
  SmemDescriptor d;
  d.startAddress =
      sharedOffset[size_t(o.ref.buffer)] + origin + o.start[size_t(isA ? r * w.kSteps + k : k)];
  d.leadingByteOffset = o.lbo;
  d.strideByteOffset = o.sbo;
  d.swizzle = o.mode;
  if (d.startAddress % 16 != 0) {
    fault("wgmma", "E0789", pc,
          std::string("the ") + (isA ? "A" : "B") + " descriptor start " +
              std::to_string(d.startAddress) + " is not 16-byte aligned",
          true);
    return false;
  }
  out.assign(size_t(isA ? 64 * 16 : 16 * w.n), 0.0);
  const int sign = isA ? w.scaleA : w.scaleB;
  const Thread& issuer = *wg[0];
  for (int64_t row = 0; row < rows; ++row)
    for (int64_t kk = 0; kk < 16; ++kk) {
      const std::optional<int64_t> addr =
          descriptorAddress(d, o.mnMajor ? MatrixMajor::MN : MatrixMajor::K, eb, row, kk);
      if (!addr || *addr < 0 || *addr + eb > int64_t(shared.size())) {
        fault("oob", "E0711", pc,
              std::string("the ") + (isA ? "A" : "B") +
                  " descriptor of this wgmma reads outside shared memory (element (" +
                  std::to_string(row) + ", " + std::to_string(kk) + "))",
              true);
        return false;
      }
      for (int64_t x = *addr; x < *addr + eb; ++x) {
        const ShadowByte& s = shadow[size_t(x)];
        if (!s.written) {
          fault("uninit", "E0721", pc,
                "wgmma reads never-written shared memory: byte " +
                    std::to_string(x - sharedOffset[size_t(o.ref.buffer)]) + " of '" + buf.name +
                    "' (operand " + (isA ? "A" : "B") + ", element (" + std::to_string(row) + ", " +
                    std::to_string(kk) + "))",
                false);
          break;
        }
        if (s.writer >= 0 && s.writer < async.nThreads && async.used) {
          const ThreadAsync& wa = async.threads[size_t(s.writer)];
          const bool fenced = wa.fenceSeq > 0 && wa.fenceEpoch >= s.writeEpoch;
          const bool sameGroup = s.writer / 128 == issuer.tid / 128;
          const bool ordered = sameGroup || s.writeEpoch != ctaEpoch ||
                               hbOrdered(issuer.tid, s.writer, s.writeClock);
          if (!fenced || !ordered) {
            fault("async", "E0785", pc,
                  "wgmma reads '" + buf.name + "' byte " +
                      std::to_string(x - sharedOffset[size_t(o.ref.buffer)]) +
                      " through the async proxy, but thread " + std::to_string(s.writer) +
                      " wrote it with an ordinary store " +
                      (!fenced ? "and executed no fence.proxy.async after it"
                               : "with no barrier between the write and this wgmma"),
                  false,
                  {{span(s.writeInstr),
                    "the generic write is here; follow it with "
                    "T.ptx.fence.proxy.async_.shared__cta() and a barrier"}});
            break;
          }
        }
      }
      uint16_t bits = 0;
      std::memcpy(&bits, shared.data() + *addr, 2);
      const double v = sign * elemValue(bits, bf16);
      if (isA)
        out[size_t(row * 16 + kk)] = v;
      else
        out[size_t(kk * w.n + row)] = v;
      for (int64_t x = *addr; x < *addr + eb; ++x) bytesRead.push_back(x);
    }
  return !fatal;
}

void Runner::execWgmma(const ir::Wgmma& w, int pc, Thread* const* wg) {
  const int64_t group = wg[0]->tid / 128;
  const int regs = w.n / 2;
  // Rule 1: a fence before the first wgmma and after any access to its registers.
  for (int th = 0; th < 128; ++th) {
    Thread& t = *wg[th];
    const WgmmaThread& wt = wgThreads[size_t(t.tid)];
    if (!wt.fenced) {
      fault("wgmma", "E0787", pc,
            "wgmma without a wgmma.fence.sync.aligned before it in " + threadName(cta, t.tid) +
                ": the first wgmma of a thread needs one",
            false);
      break;
    }
    auto check = [&](int b, int64_t slot, int bytes) {
      const auto& touch = t.regTouch[size_t(b)];
      for (int64_t k = slot * bytes; k < slot * bytes + bytes && k < int64_t(touch.size()); ++k)
        if (touch[size_t(k)] != 0) {
          fault("wgmma", "E0787", pc,
                "wgmma uses register " + kernel.buffers[size_t(b)].name + "[" +
                    std::to_string(slot) + "] of " + threadName(cta, t.tid) +
                    ", which was accessed after the last wgmma.fence.sync.aligned of the thread",
                false,
                {{span(touch[size_t(k)] - 1),
                  "the register is accessed here; put a wgmma.fence between it and the wgmma"}});
          return false;
        }
      return true;
    };
    bool ok = true;
    for (int64_t s : w.dSlots) ok = ok && check(w.d.buffer, s, 4);
    if (w.aRegisters)
      for (int64_t s : w.aSlots) ok = ok && check(w.aRegs.buffer, s, ir::dtypeBytes(w.aRegs.dtype));
    if (!ok) break;
  }
  const int64_t accumulateFirst = eval(*w.scaleD, *wg[0], wg[0]->vars, pc).i;
  const bool bf16 = w.instr.abType == ".bf16";
  for (int64_t k = 0; k < w.kSteps && !fatal; ++k)
    for (int64_t r = 0; r < w.mRepeat && !fatal; ++r) {
      WgmmaOp op;
      op.pc = pc;
      op.group = group;
      op.w = &w;
      op.r = r;
      op.accumulate = k > 0 || accumulateFirst != 0;
      op.threads.assign(wg, wg + 128);
      if (w.aRegisters) {
        op.a.assign(64 * 16, 0.0);
        const int eb = ir::dtypeBytes(w.aRegs.dtype);
        for (int th = 0; th < 128; ++th) {
          Thread& t = *wg[th];
          const auto& bytes = t.regs[size_t(w.aRegs.buffer)];
          const auto& wr = t.regWriter[size_t(w.aRegs.buffer)];
          for (int i = 0; i < 4; ++i) {
            const int64_t off = w.aSlots[size_t((r * w.kSteps + k) * 4 + i)] * eb;
            if (off < 0 || off + 4 > int64_t(bytes.size())) continue;
            if (wr[size_t(off)] == 0)
              fault("uninit", "E0783", pc,
                    w.instr.opcode + " reads A register " + std::to_string(i) + " of " +
                        threadName(cta, t.tid) + " before anything wrote it",
                    false);
            uint32_t word = 0;
            std::memcpy(&word, bytes.data() + off, 4);
            for (int h = 0; h < 2; ++h) {
              const frag::Coord c = frag::wgmmaAElement(th, 2 * i + h);
              op.a[size_t(c.row * 16 + c.col)] =
                  w.scaleA * elemValue(uint16_t(word >> (16 * h)), bf16);
            }
            op.locked.push_back({w.aRegs.buffer, off});
          }
        }
      } else if (!wgmmaGather(w, w.a, true, r, k, wg, pc, op.a, op.sharedBytes)) {
        return;
      }
      if (!wgmmaGather(w, w.b, false, r, k, wg, pc, op.b, op.sharedBytes)) return;
      for (int j = 0; j < regs; ++j)
        op.locked.push_back({w.d.buffer, w.dSlots[size_t(r * regs + j)] * 4});
      std::sort(op.sharedBytes.begin(), op.sharedBytes.end());
      op.sharedBytes.erase(std::unique(op.sharedBytes.begin(), op.sharedBytes.end()),
                           op.sharedBytes.end());
      const int32_t id = static_cast<int32_t>(wgOps.size());
      for (int64_t byte : op.sharedBytes) {
        ++wgShared[size_t(byte)];
        wgSharedOp[size_t(byte)] = id + 1;
      }
      for (int th = 0; th < 128; ++th) {
        Thread& t = *wg[th];
        for (const auto& [b, off] : op.locked) {
          auto& lock = t.regLock[size_t(b)];
          for (int64_t x = off; x < off + 4 && x < int64_t(lock.size()); ++x)
            lock[size_t(x)] = id + 1;
        }
        wgThreads[size_t(t.tid)].open.push_back(id);
      }
      wgOps.push_back(std::move(op));
    }
}

bool Runner::releaseWgmma(std::vector<Thread>& threads) {
  const int64_t n = static_cast<int64_t>(threads.size());
  bool any = false;
  for (int64_t g = 0; g * 128 < n; ++g) {
    const int64_t lo = g * 128, hi = std::min(n, lo + 128);
    if (hi - lo < 128) continue;
    const int pc = threads[size_t(lo)].pc;
    bool all = true;
    for (int64_t i = lo; i < hi && all; ++i) {
      const Thread& t = threads[size_t(i)];
      all = t.state == ThreadState::Waiting && t.pc == pc && code[size_t(pc)].op == Op::Wgmma;
    }
    if (!all) continue;
    std::vector<Thread*> wg;
    for (int64_t i = lo; i < hi; ++i) wg.push_back(&threads[size_t(i)]);
    const ir::Stmt& s = *code[size_t(pc)].stmt;
    if (!charge(128 * 16 * (s.wgmma->n + 64) / 64 * s.wgmma->kSteps * s.wgmma->mRepeat,
                threads[size_t(lo)], pc))
      return false;
    execWgmma(*s.wgmma, pc, wg.data());
    if (releasedPc < 0) releasedPc = pc;
    if (fatal) return false;
    int64_t latest = 0;  // the timeline's logical clock: the warpgroup leaves together
    for (Thread* t : wg) latest = std::max<int64_t>(latest, t->clock);
    for (Thread* t : wg) {
      t->clock = latest;
      t->state = ThreadState::Running;
      ++t->pc;
    }
    any = true;
  }
  return any;
}

bool Runner::reportWgmmaParticipation(std::vector<Thread>& threads) {
  const int64_t n = static_cast<int64_t>(threads.size());
  for (int64_t g = 0; g * 128 < n; ++g) {
    const int64_t lo = g * 128, hi = std::min(n, lo + 128);
    int64_t at = -1;
    for (int64_t i = lo; i < hi && at < 0; ++i)
      if (threads[size_t(i)].state == ThreadState::Waiting &&
          code[size_t(threads[size_t(i)].pc)].op == Op::Wgmma)
        at = i;
    if (at < 0) continue;
    const int pc = threads[size_t(at)].pc;
    int64_t there = 0, other = -1;
    for (int64_t i = lo; i < hi; ++i) {
      const Thread& t = threads[size_t(i)];
      if (t.state == ThreadState::Waiting && t.pc == pc)
        ++there;
      else if (other < 0)
        other = i;
    }
    std::vector<DiagNote> notes;
    std::string why =
        "is not in the warpgroup (the block ends at thread " + std::to_string(n - 1) + ")";
    if (other >= 0) {
      const Thread& o = threads[size_t(other)];
      if (o.state == ThreadState::Done) {
        why = "has finished";
      } else {
        why = "waits elsewhere";
        notes.push_back({span(o.pc), "thread " + std::to_string(other) + " is here"});
      }
    }
    fault("wgmma", "E0789", pc,
          "wgmma executed by " + std::to_string(there) + " of the 128 threads of warpgroup " +
              std::to_string(g) +
              ": every thread of the warpgroup must execute it together (.sync.aligned); thread " +
              std::to_string(other < 0 ? hi : other) + " " + why,
          true, notes);
    return true;
  }
  return false;
}

}  // namespace tirx::sim
