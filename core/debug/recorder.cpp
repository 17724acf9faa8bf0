// The recorder: a sim::StepObserver that keeps the focus CTA's state image at the first recorded
// step and, for every later step, the 64-byte chunks that changed (old and new bytes), so that the
// session moves either way by copying chunks. Capturing a step costs one pass over the image (a
// copy and a compare); the delta pool is bounded by DebugOptions::maxTraceBytes.
#include <algorithm>
#include <cstring>

#include "core/debug/debug_internal.h"
#include "core/ir/buffer_access.h"

namespace tirx::debug {

namespace {

constexpr int64_t kChunk = 64;

void collectTileOpLines(const std::vector<ir::Stmt>& body, std::vector<int>& lines) {
  ir::forEachStmt(body, [&](const ir::Stmt& s) {
    const bool tile =
        (s.kind == ir::StmtKind::Apply && s.apply) || (s.kind == ir::StmtKind::Ewise && s.ewise) ||
        (s.kind == ir::StmtKind::Tma && s.tma) || (s.kind == ir::StmtKind::Wgmma && s.wgmma);
    if (tile && s.span.line > 0) lines.push_back(s.span.line);
  });
}

std::string opText(const ir::Stmt* s) {
  if (!s) return "?";
  switch (s->kind) {
    case ir::StmtKind::Apply:
      return s->apply ? s->apply->instr.opcode : "apply";
    case ir::StmtKind::Ewise:
      return "ewise";
    case ir::StmtKind::Tma:
      return s->tma ? s->tma->instr.opcode : "tma";
    case ir::StmtKind::Wgmma:
      return s->wgmma ? s->wgmma->instr.opcode : "wgmma";
    case ir::StmtKind::Assign:
      return "shuffle";
    default:
      return "statement";
  }
}

}  // namespace

int64_t Trace::bytes() const {
  return static_cast<int64_t>(base.size() + pool.size() + chunks.size() * sizeof(Chunk) +
                              stepChunks.size() * sizeof(int64_t) + steps.size() * sizeof(StepRec) +
                              sparseBase.size() * (sim::GlobalWrite::kChunk + 16));
}

bool Recorder::beginLaunch(const ir::Kernel& kernel) {
  if (observed) return false;
  if (!m_opt.kernel.empty() && kernel.name != m_opt.kernel) return false;
  if (m_opt.kernel.empty() && !kernelName.empty() && kernel.name != kernelName) return false;
  kernelName = kernel.name;
  if (m_launches++ != m_opt.launch) return false;
  observed = true;
  ctas = kernel.launch.ctas();
  threads = kernel.launch.threads();
  m_focusOnly = focusAlone = ctas > m_opt.wholeLaunchCtas;
  buffers = kernel.buffers;
  varNames.clear();
  for (const auto& v : kernel.vars) varNames.push_back(v.name);
  tileOpLines.clear();
  collectTileOpLines(kernel.body, tileOpLines);
  std::sort(tileOpLines.begin(), tileOpLines.end());
  tileOpLines.erase(std::unique(tileOpLines.begin(), tileOpLines.end()), tileOpLines.end());
  return true;
}

void Recorder::buildLayout(const sim::StateView& st) {
  StateLayout& L = trace.layout;
  const int64_t n = st.threadCount();
  L.regs.assign(buffers.size(), {});
  L.regFlags.assign(buffers.size(), {});
  L.regBytes.assign(buffers.size(), 0);
  int64_t off = 0;
  for (size_t b = 0; b < buffers.size(); ++b) {
    if (buffers[b].scope != ir::MemScope::Local) continue;
    const int64_t bytes = static_cast<int64_t>(st.registers(int(b), 0).size());
    L.regBytes[b] = bytes;
    L.regs[b].assign(size_t(n), -1);
    L.regFlags[b].assign(size_t(n), -1);
    for (int64_t t = 0; t < n; ++t) {
      L.regs[b][size_t(t)] = off;
      off += bytes;
      L.regFlags[b][size_t(t)] = off;
      off += bytes;
    }
  }
  L.sharedBuffer.assign(buffers.size(), -1);
  for (size_t b = 0; b < buffers.size(); ++b) L.sharedBuffer[b] = st.sharedOffset(int(b));
  L.sharedBytes = static_cast<int64_t>(st.sharedBytes().size());
  L.shared = off;
  off += L.sharedBytes;
  L.sharedFlags = off;
  off += L.sharedBytes;
  const auto& args = st.args();
  L.arg.assign(args.size(), -1);
  L.argFlags.assign(args.size(), -1);
  L.argBytes.assign(args.size(), 0);
  L.argElems.assign(args.size(), 0);
  L.sparse.assign(args.size(), false);
  for (size_t a = 0; a < args.size(); ++a) {
    if (!args[a].isTensor) continue;
    L.argBytes[a] = static_cast<int64_t>(args[a].tensor.data.size());
    L.argElems[a] = args[a].tensor.numel();
    if (L.argBytes[a] > m_opt.imagedArgBytes) {
      L.sparse[a] = true;
      continue;
    }
    L.arg[a] = off;
    off += L.argBytes[a];
    L.argFlags[a] = off;
    off += L.argElems[a];
  }
  L.size = off;
  for (size_t a = 0; a < args.size(); ++a)  // virtual offsets past the image, chunk-aligned
    if (L.sparse[a]) {
      L.arg[a] = off;
      off += (L.argBytes[a] + sim::GlobalWrite::kChunk - 1) / sim::GlobalWrite::kChunk *
             sim::GlobalWrite::kChunk;
    }
}

void Recorder::capture(const sim::StateView& st, std::vector<uint8_t>& img) const {
  const StateLayout& L = trace.layout;
  img.assign(size_t(L.size), 0);
  for (size_t b = 0; b < L.regs.size(); ++b) {
    for (size_t t = 0; t < L.regs[b].size(); ++t) {
      const auto r = st.registers(int(b), int64_t(t));
      const auto w = st.registerWriters(int(b), int64_t(t));
      const size_t n = std::min<size_t>(r.size(), size_t(L.regBytes[b]));
      if (n) std::memcpy(img.data() + L.regs[b][t], r.data(), n);
      uint8_t* f = img.data() + L.regFlags[b][t];
      for (size_t i = 0; i < std::min(n, w.size()); ++i) f[i] = w[i] != 0;
    }
  }
  const auto sh = st.sharedBytes();
  const size_t sn = std::min<size_t>(sh.size(), size_t(L.sharedBytes));
  if (sn) std::memcpy(img.data() + L.shared, sh.data(), sn);
  for (size_t i = 0; i < sn; ++i) img[size_t(L.sharedFlags) + i] = st.sharedWritten(int64_t(i));
  const auto& args = st.args();
  for (size_t a = 0; a < args.size() && a < L.arg.size(); ++a) {
    if (L.arg[a] < 0 || L.sparse[a] || !args[a].isTensor) continue;
    const auto& t = args[a].tensor;
    const size_t n = std::min<size_t>(t.data.size(), size_t(L.argBytes[a]));
    if (n) std::memcpy(img.data() + L.arg[a], t.data.data(), n);
    uint8_t* f = img.data() + L.argFlags[a];
    for (int64_t e = 0; e < L.argElems[a]; ++e) f[e] = t.isDefined(e);
  }
}

void Recorder::recordSparse(const sim::StateView& st, bool delta) {
  const StateLayout& L = trace.layout;
  for (const sim::GlobalWrite& w : st.globalWrites()) {
    if (w.arg < 0 || size_t(w.arg) >= L.sparse.size() || !L.sparse[size_t(w.arg)]) continue;
    const int64_t at = L.arg[size_t(w.arg)] + w.offset;
    trace.sparseBase.try_emplace(at, w.before);  // the first write since the base: its old bytes
    if (!delta) continue;
    Trace::Chunk c;
    c.offset = at;
    c.len = static_cast<int32_t>(w.len);
    c.pool = static_cast<int64_t>(trace.pool.size());
    const uint8_t* now = st.args()[size_t(w.arg)].tensor.data.data() + w.offset;
    trace.pool.insert(trace.pool.end(), w.before.begin(), w.before.begin() + w.len);
    trace.pool.insert(trace.pool.end(), now, now + w.len);
    trace.chunks.push_back(c);
  }
}

void Recorder::onStep(const sim::StepEvent& e, const sim::StateView& st) {
  const int64_t index = trace.total++;
  if (index < m_opt.firstStep) return;
  if (trace.truncated) {
    recordSparse(st, false);  // keep the recorded steps' view of later-written chunks right
    return;
  }
  trace.stepChunks.push_back(
      static_cast<int64_t>(trace.chunks.size()));  // this step's delta starts here
  if (index == m_opt.firstStep) {
    buildLayout(st);
    capture(st, m_cur);
    trace.base = m_cur;
    trace.first = index;
  } else {
    capture(st, m_next);
    // The delta of this step: every 64-byte chunk that changed, old bytes then new bytes.
    Trace::Chunk c;
    for (int64_t off = 0; off < trace.layout.size; off += kChunk) {
      const int64_t len = std::min(kChunk, trace.layout.size - off);
      if (std::memcmp(m_cur.data() + off, m_next.data() + off, size_t(len)) == 0) continue;
      c.offset = off;
      c.len = static_cast<int32_t>(len);
      c.pool = static_cast<int64_t>(trace.pool.size());
      trace.pool.insert(trace.pool.end(), m_cur.begin() + off, m_cur.begin() + off + len);
      trace.pool.insert(trace.pool.end(), m_next.begin() + off, m_next.begin() + off + len);
      trace.chunks.push_back(c);
    }
    m_cur.swap(m_next);
    recordSparse(st, true);
  }
  StepRec r;
  r.kind = e.kind;
  r.span = e.stmt ? e.stmt->span : SourceSpan{};
  r.op = opText(e.stmt);
  r.threads = e.threads;
  r.mixed = e.mixed;
  for (size_t v = 0; v < varNames.size(); ++v) r.scalars.push_back(st.scalar(int(v), m_opt.thread));
  trace.steps.push_back(std::move(r));
  if (trace.bytes() > m_opt.maxTraceBytes)
    trace.truncated = true;  // this step is the last one kept
}

void Recorder::endLaunch(bool r, const std::vector<ir::KernelArg>& args,
                         const sim::Provenance& prov) {
  ran = r;
  finalArgs = args;
  trace.stepChunks.push_back(static_cast<int64_t>(trace.chunks.size()));
  // Which register each output element was stored from, for the focus CTA (the reference of the
  // output then gives the register its final expected value).
  for (size_t a = 0; a < prov.args.size(); ++a)
    for (size_t e = 0; e < prov.args[a].size(); ++e) {
      const sim::ElementOwner& o = prov.args[a][e];
      if (o.cta != m_opt.cta || o.regBuffer < 0 || o.regSlot < 0) continue;
      storedTo[{o.regBuffer, o.thread, o.regSlot}] = {int(a), int64_t(e)};
    }
}

}  // namespace tirx::debug
