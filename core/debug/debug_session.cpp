// The debug session: starts the recording (one verify of the script on the simulator with the
// recorder attached), keeps the current state image, moves between steps by applying the recorded
// deltas forward or backward, and finds breakpoint hits by walking the steps and evaluating their
// conditions on the image. The tile facts are in tile_facts.cpp.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/debug/debug_impl.h"
#include "core/verify/verify.h"

namespace tirx::debug {

DebugSession::DebugSession(std::unique_ptr<Impl> impl) : m(std::move(impl)) {}
DebugSession::~DebugSession() = default;

namespace {

/// The reference of each tensor argument: the values a check compared against, when the check's
/// output is exactly this launch's final values of the argument (NaN-aware).
void matchReferences(const verify::Report& rep, DebugSession::Impl& s) {
  const auto& args = s.rec.finalArgs;
  s.reference.assign(args.size(), {});
  for (const auto& c : rep.checks) {
    if (c.reference.empty() || c.output.size() != c.reference.size()) continue;
    for (size_t a = 0; a < args.size(); ++a) {
      if (!args[a].isTensor || !s.reference[a].empty()) continue;
      const auto& t = args[a].tensor;
      if (t.numel() != static_cast<int64_t>(c.output.size())) continue;
      const int eb = ir::dtypeBytes(t.dtype);
      bool same = true;
      for (int64_t e = 0; e < t.numel() && same; ++e) {
        const double v = decodeValue(t.data.data() + e * eb, t.dtype);
        const double o = c.output[size_t(e)];
        same = (std::isnan(v) && std::isnan(o)) || v == o;
      }
      if (same) s.reference[a] = c.reference;
    }
  }
}

/// "256", "0.01": a byte count in MiB (whole MiB exactly, else 3 significant digits).
std::string mibText(int64_t bytes) {
  if (bytes % (1 << 20) == 0) return std::to_string(bytes >> 20);
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", double(bytes) / double(1 << 20));
  return b;
}

}  // namespace

std::unique_ptr<DebugSession> DebugSession::start(std::string_view source, const DebugOptions& o,
                                                  Diagnostics& diags) {
  auto impl = std::make_unique<Impl>(o);
  verify::VerifyOptions vo;
  vo.device = driver::DeviceSpec::simulator();
  vo.arch = o.arch;
  vo.fileName = o.fileName;
  vo.budget = o.budget;
  vo.cancel = o.cancel;
  vo.observer = &impl->rec;
  const verify::Report rep = verify::verifyScript(source, vo);
  for (const auto& d : rep.errors) diags.push_back(d);
  if (!rep.errors.empty() && !impl->rec.observed) return nullptr;
  Recorder& r = impl->rec;
  const std::string which =
      o.kernel.empty() ? std::string("any kernel") : "kernel '" + o.kernel + "'";
  if (!r.observed) {
    diags.push_back(makeError(
        "E0843", {},
        "the script never ran " + which +
            (o.launch > 0 ? " " + std::to_string(o.launch + 1) + " times" : std::string()) +
            " on the simulator: nothing to debug (the debugger follows the launches of the "
            "script's check code, or the seeded run of a script without one)"));
    return nullptr;
  }
  if (o.cta < 0 || o.cta >= r.ctas || o.thread < 0 || o.thread >= r.threads) {
    diags.push_back(makeError("E0845", {},
                              "the focus cta " + std::to_string(o.cta) + ", thread " +
                                  std::to_string(o.thread) + " is outside the launch of '" +
                                  r.kernelName + "' (" + std::to_string(r.ctas) + " CTAs of " +
                                  std::to_string(r.threads) + " threads)"));
    return nullptr;
  }
  if (r.trace.steps.empty()) {
    diags.push_back(makeError("E0843", {},
                              "kernel '" + r.kernelName + "' ran " + std::to_string(r.trace.total) +
                                  " tile-op steps in cta " + std::to_string(o.cta) +
                                  ", none at or after step " + std::to_string(o.firstStep)));
    return nullptr;
  }
  for (const auto& f : rep.faults) diags.push_back(f.diag);
  if (r.trace.truncated) {
    const int64_t last = r.trace.first + static_cast<int64_t>(r.trace.steps.size()) - 1;
    diags.push_back(makeWarning("W0844", r.trace.steps.back().span,
                                "the debug trace reached its limit of " + mibText(o.maxTraceBytes) +
                                    " MiB at step " + std::to_string(last) + " of " +
                                    std::to_string(r.trace.total) +
                                    ": later steps are not recorded (start at a later step with "
                                    "--first-step, or raise --trace-mib)"));
  }
  matchReferences(rep, *impl);
  if (r.focusAlone)
    diags.push_back(makeWarning(
        "W0846", {},
        "kernel '" + r.kernelName + "' launches " + std::to_string(r.ctas) +
            " CTAs: the debugger runs cta " + std::to_string(o.cta) + " alone (more than " +
            std::to_string(o.wholeLaunchCtas) +
            " would spend the simulator's budget first), so the other CTAs' outputs stay as "
            "they were and the script's checks of them fail; --cta picks the CTA"));
  impl->image = r.trace.base;
  impl->sparse = r.trace.sparseBase;
  impl->cur = r.trace.first;
  return std::unique_ptr<DebugSession>(new DebugSession(std::move(impl)));
}

const DebugOptions& DebugSession::options() const {
  return m->opt;
}
std::string DebugSession::kernelName() const {
  return m->rec.kernelName;
}
int64_t DebugSession::stepCount() const {
  return m->rec.trace.total;
}
int64_t DebugSession::firstRecorded() const {
  return m->rec.trace.first;
}
int64_t DebugSession::lastRecorded() const {
  return m->rec.trace.first + static_cast<int64_t>(m->rec.trace.steps.size()) - 1;
}
bool DebugSession::truncated() const {
  return m->rec.trace.truncated;
}
int64_t DebugSession::current() const {
  return m->cur;
}
int64_t DebugSession::traceBytes() const {
  return m->rec.trace.bytes();
}
std::vector<int> DebugSession::tileOpLines() const {
  return m->rec.tileOpLines;
}

std::vector<std::string> DebugSession::bufferNames() const {
  std::vector<std::string> names;
  for (const auto& b : m->rec.buffers) names.push_back(b.name);
  return names;
}

Stop DebugSession::stop() const {
  return stopAt(m->cur);
}

Stop DebugSession::stopAt(int64_t index) const {
  Stop s;
  const Trace& tr = m->rec.trace;
  if (index < firstRecorded() || index > lastRecorded()) return s;
  const StepRec& r = tr.steps[size_t(index - tr.first)];
  s.index = index;
  s.kind = r.kind == sim::StepKind::TileOp       ? "tile-op"
           : r.kind == sim::StepKind::Collective ? "collective"
                                                 : "wgmma";
  s.span = r.span;
  s.op = r.op;
  s.threads = r.threads;
  s.mixed = r.mixed;
  for (size_t v = 0; v < r.scalars.size() && v < m->rec.varNames.size(); ++v)
    s.scalars.emplace_back(m->rec.varNames[v], r.scalars[v]);
  return s;
}

void DebugSession::Impl::applyStep(int64_t index, bool forward) {
  // Step `index`'s delta turns the image of index - 1 into that of index.
  const Trace& tr = rec.trace;
  const size_t k = size_t(index - tr.first);
  for (int64_t c = tr.stepChunks[k]; c < tr.stepChunks[k + 1]; ++c) {
    const Trace::Chunk& ch = tr.chunks[size_t(c)];
    const uint8_t* src = tr.pool.data() + ch.pool + (forward ? ch.len : 0);
    if (ch.offset >= tr.layout.size)  // a chunk of a sparse argument
      std::memcpy(sparse[ch.offset].data(), src, size_t(ch.len));
    else
      std::memcpy(image.data() + ch.offset, src, size_t(ch.len));
  }
}

const uint8_t* DebugSession::Impl::argBytes(int a, int64_t off) const {
  const StateLayout& L = rec.trace.layout;
  if (!L.sparse[size_t(a)]) return image.data() + L.arg[size_t(a)] + off;
  const int64_t chunk = off / sim::GlobalWrite::kChunk * sim::GlobalWrite::kChunk;
  if (auto it = sparse.find(L.arg[size_t(a)] + chunk); it != sparse.end())
    return it->second.data() + (off - chunk);
  return rec.finalArgs[size_t(a)].tensor.data.data() + off;  // never written since the base
}

bool DebugSession::Impl::argWritten(int a, int64_t element) const {
  const StateLayout& L = rec.trace.layout;
  if (!L.sparse[size_t(a)]) return image[size_t(L.argFlags[size_t(a)] + element)] != 0;
  return rec.finalArgs[size_t(a)].tensor.isDefined(element);
}

int64_t DebugSession::goTo(int64_t index) {
  index = std::clamp(index, firstRecorded(), lastRecorded());
  while (m->cur < index) m->applyStep(++m->cur, true);
  while (m->cur > index) m->applyStep(m->cur--, false);
  return m->cur;
}

Diagnostics DebugSession::setBreakpoints(const std::vector<Breakpoint>& bps) {
  Diagnostics out;
  m->breakpoints.clear();
  const auto& lines = m->rec.tileOpLines;
  for (const auto& b : bps) {
    Impl::Armed a;
    a.line = b.line;
    if (b.line != 0 && !std::binary_search(lines.begin(), lines.end(), b.line)) {
      Diagnostic d = makeError("E0841", SourceSpan{b.line, 1, 0, 0},
                               "line " + std::to_string(b.line) + " holds no tile op of kernel '" +
                                   m->rec.kernelName + "': a breakpoint stops only at tile ops");
      const auto next = std::lower_bound(lines.begin(), lines.end(), b.line);
      if (next != lines.end())
        d.notes.push_back(
            {SourceSpan{*next, 1, 0, 0}, "the next tile op is on line " + std::to_string(*next)});
      out.push_back(std::move(d));
      continue;
    }
    if (!b.condition.empty()) {
      Diagnostic d;
      auto c = parseCondition(b.condition, d);
      if (c) {
        const std::string why = m->checkCondition(*c);
        if (!why.empty())
          d = makeError("E0842", SourceSpan{1, 1, int(b.condition.size()), 0}, why);
        else
          a.condition = std::move(c);
      }
      if (!a.condition) {
        out.push_back(std::move(d));
        continue;
      }
    }
    m->breakpoints.push_back(std::move(a));
  }
  return out;
}

bool DebugSession::Impl::hits(int64_t index) const {
  const int line = rec.trace.steps[size_t(index - rec.trace.first)].span.line;
  for (const auto& b : breakpoints) {
    if (b.line != 0 && b.line != line) continue;
    if (!b.condition || evalCondition(*b.condition)) return true;
  }
  return false;
}

bool DebugSession::continueForward(const CancelToken* cancel) {
  if (m->breakpoints.empty()) {
    goTo(lastRecorded());
    return false;
  }
  while (m->cur < lastRecorded() && !(cancel && cancel->cancelled())) {
    goTo(m->cur + 1);
    if (m->hits(m->cur)) return true;
  }
  return false;
}

bool DebugSession::continueBackward(const CancelToken* cancel) {
  if (m->breakpoints.empty()) {
    goTo(firstRecorded());
    return false;
  }
  while (m->cur > firstRecorded() && !(cancel && cancel->cancelled())) {
    goTo(m->cur - 1);
    if (m->hits(m->cur)) return true;
  }
  return false;
}

bool DebugSession::hitsHere() const {
  return m->hits(m->cur);
}

bool DebugSession::runToLine(int line) {
  const Trace& tr = m->rec.trace;
  for (int64_t i = m->cur + 1; i <= lastRecorded(); ++i)
    if (tr.steps[size_t(i - tr.first)].span.line == line) {
      goTo(i);
      return true;
    }
  return false;
}

}  // namespace tirx::debug
