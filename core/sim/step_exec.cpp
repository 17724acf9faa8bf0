// The debugger's lock step (step_observer.h): a thread of the observed CTA that finishes a tile op
// ends its part of the round (noteTileOp); when the round is over, or the scheduler released a
// collective or a wgmma, emitStep hands the observer a read-only view of the CTA's state.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/sim/sim_internal.h"

namespace tirx::sim {

namespace {

class RunnerView final : public StateView {
 public:
  RunnerView(const Runner& r, const std::vector<Thread>& threads,
             const std::vector<int64_t>& sharedOffset)
      : m_r(r), m_threads(threads), m_sharedOffset(sharedOffset) {}
  int64_t threadCount() const override { return static_cast<int64_t>(m_threads.size()); }
  std::span<const uint8_t> registers(int buffer, int64_t tid) const override {
    if (!validReg(buffer, tid)) return {};
    return m_threads[size_t(tid)].regs[size_t(buffer)];
  }
  std::span<const int32_t> registerWriters(int buffer, int64_t tid) const override {
    if (!validReg(buffer, tid) || size_t(buffer) >= m_threads[size_t(tid)].regWriter.size())
      return {};
    return m_threads[size_t(tid)].regWriter[size_t(buffer)];
  }
  std::span<const uint8_t> sharedBytes() const override { return m_r.shared; }
  int64_t sharedOffset(int buffer) const override {
    if (buffer < 0 || size_t(buffer) >= m_r.kernel.buffers.size() ||
        m_r.kernel.buffers[size_t(buffer)].scope != ir::MemScope::Shared)
      return -1;
    return m_sharedOffset[size_t(buffer)];
  }
  bool sharedWritten(int64_t byte) const override {
    return byte >= 0 && size_t(byte) < m_r.shadow.size() && m_r.shadow[size_t(byte)].written;
  }
  const std::vector<ir::KernelArg>& args() const override { return m_r.args; }
  std::span<const GlobalWrite> globalWrites() const override { return m_r.globalLog; }
  double scalar(int var, int64_t tid) const override {
    if (tid < 0 || size_t(tid) >= m_threads.size() || var < 0) return 0;
    const Thread& t = m_threads[size_t(tid)];
    if (size_t(var) >= t.vars.size() || size_t(var) >= m_r.kernel.vars.size()) return 0;
    const Value v = t.vars[size_t(var)];
    return ir::isFloat(m_r.kernel.vars[size_t(var)].dtype) ? v.f : static_cast<double>(v.i);
  }

 private:
  bool validReg(int buffer, int64_t tid) const {
    return tid >= 0 && size_t(tid) < m_threads.size() && buffer >= 0 &&
           size_t(buffer) < m_threads[size_t(tid)].regs.size();
  }
  const Runner& m_r;
  const std::vector<Thread>& m_threads;
  const std::vector<int64_t>& m_sharedOffset;
};

}  // namespace

void Runner::noteTileOp(const Thread& t, int pc) {
  if (roundThreads > 0 && pc != roundPc) roundMixed = true;
  // The round is named by the focus thread's statement, or by the first thread's.
  if (roundThreads == 0 || t.tid == opt.observer->focusThread()) roundPc = pc;
  ++roundThreads;
}

void Runner::emitStep(StepKind kind, int pc, int64_t threads, bool mixed,
                      const std::vector<Thread>& all) {
  StepEvent e;
  e.kind = kind;
  e.cta = cta;
  e.stmt = pc >= 0 && pc < static_cast<int>(code.size()) ? code[size_t(pc)].stmt : nullptr;
  e.threads = threads;
  e.mixed = mixed;
  const RunnerView view(*this, all, sharedOffset);
  opt.observer->onStep(e, view);
  globalLog.clear();
  globalLogged.clear();
}

void Runner::logGlobalWrite(int arg, int64_t off, int64_t n) {
  if (!lockstep || arg < 0 || size_t(arg) >= args.size() || n <= 0) return;
  const auto& data = args[size_t(arg)].tensor.data;
  const int64_t size = static_cast<int64_t>(data.size());
  for (int64_t c = off / GlobalWrite::kChunk; c * GlobalWrite::kChunk < std::min(off + n, size);
       ++c) {
    if (!globalLogged.insert(uint64_t(arg) << 48 | uint64_t(c)).second) continue;
    GlobalWrite w;
    w.arg = arg;
    w.offset = c * GlobalWrite::kChunk;
    w.len = std::min(GlobalWrite::kChunk, size - w.offset);
    std::memcpy(w.before.data(), data.data() + w.offset, size_t(w.len));
    globalLog.push_back(w);
  }
}

}  // namespace tirx::sim
