// Debugger jobs: the session's start and moves, and the stop's view (summary text and a grid model
// with the tile's values) built on the worker thread.
#include "views/engine/debug_jobs.h"

#include <algorithm>
#include <cmath>

#include "core/ir/dtype.h"

namespace tirx::views {

namespace {

QString shapeText(const std::vector<int64_t>& shape) {
  QStringList parts;
  for (int64_t e : shape) parts << QString::number(e);
  return parts.join(QStringLiteral(" × "));
}

QString num(double v) {
  return QString::fromStdString(valueText(CellValue{v}));
}

void fillTile(debug::DebugSession& s, DebugView& v) {
  Diagnostic d;
  auto t = s.tile(v.buffer.toStdString(), &d);
  if (!t) {
    v.message += QString::fromStdString(d.message) + "\n";
    return;
  }
  v.summary =
      QStringLiteral("%1 (%2 %3, %4): min %5, max %6 · %7 uninitialised · %8 NaN · %9 inf")
          .arg(QString::fromStdString(t->buffer), QString::fromStdString(t->scope),
               QString::fromStdString(t->dtype), shapeText(t->shape), num(t->min), num(t->max))
          .arg(t->uninit)
          .arg(t->nans)
          .arg(t->infs);
  if (t->hasReference)
    v.summary +=
        QStringLiteral(" · max error %1 against the checked reference").arg(num(t->maxAbsErr));
  if (!t->note.empty()) v.summary += " · " + QString::fromStdString(t->note);
  const int eb = ir::dtypeBytes(ir::parseDType(t->dtype).value_or(ir::DType::Float32));
  v.grid.setLayout(t->layout, t->shape, eb);
  v.grid.setMemory(t->scope != "local");
  std::vector<CellValue> cells;
  cells.reserve(t->elements.size());
  for (const auto& e : t->elements) {
    CellValue c;
    c.value = e.value;
    c.uninit = e.uninit;
    c.nan = e.nan;
    c.inf = e.inf;
    c.hasReference = e.hasReference;
    c.reference = e.reference;
    c.absErr = e.absErr;
    c.thread = e.thread;
    c.slot = e.slot;
    c.byte = e.byte;
    cells.push_back(c);
  }
  v.grid.setValues(std::move(cells));
}

DebugView viewOf(debug::DebugSession& s, const QString& buffer) {
  DebugView v;
  v.ok = true;
  v.kernel = QString::fromStdString(s.kernelName());
  v.launch = s.options().launch;
  v.stop = s.stop();
  v.steps = s.stepCount();
  v.first = s.firstRecorded();
  v.last = s.lastRecorded();
  v.truncated = s.truncated();
  for (const auto& n : s.bufferNames()) v.buffers << QString::fromStdString(n);
  v.buffer = buffer;
  fillTile(s, v);
  return v;
}

QString diagText(const Diagnostics& ds) {
  QString out;
  for (const auto& d : ds) {
    out += QStringLiteral("%1 %2").arg(QString::fromStdString(d.code),
                                       QString::fromStdString(d.message));
    if (d.span.line > 0 && d.code != "E0840" && d.code != "E0842")
      out += QStringLiteral(" (line %1)").arg(d.span.line);
    out += "\n";
  }
  return out;
}

}  // namespace

DebugStartResult startDebugSession(const std::string& source, const std::string& fileName, int sm,
                                   const DebugRequest& q, const CancelTokenPtr& cancel) {
  DebugStartResult r;
  debug::DebugOptions o;
  o.fileName = fileName;
  o.arch = "sm_" + std::to_string(sm > 0 ? sm : 90);
  o.kernel = q.kernel;
  o.launch = q.launch;
  o.cta = q.cta;
  o.thread = q.thread;
  o.firstStep = q.firstStep;
  o.maxTraceBytes = std::max<int64_t>(1, static_cast<int64_t>(q.traceMib * double(1 << 20)));
  o.cancel = cancel;
  const std::string& buffer = q.buffer;
  Diagnostics diags;
  auto s = debug::DebugSession::start(source, o, diags);
  if (!s) {
    r.view.message =
        diags.empty() ? QStringLiteral("the debugger could not start") : diagText(diags);
    return r;
  }
  std::string chosen = buffer;
  if (chosen.empty() || !s->tile(chosen)) {
    chosen.clear();
    for (const auto& n : s->bufferNames()) {
      const auto t = s->tile(n);
      if (t->scope != "local") continue;
      if (chosen.empty()) chosen = n;
      if (t->hasReference) {
        chosen = n;
        break;
      }
    }
    if (chosen.empty() && !s->bufferNames().empty()) chosen = s->bufferNames().front();
  }
  r.view = viewOf(*s, QString::fromStdString(chosen));
  r.handle = std::make_shared<DebugHandle>();
  r.handle->startWarnings = diagText(diags);
  r.view.message = r.handle->startWarnings + r.view.message;
  r.handle->session = std::move(s);
  return r;
}

DebugView runDebugRequest(DebugHandle& h, const DebugRequest& q, const CancelToken* cancel) {
  std::lock_guard lock(h.mutex);
  if (!h.session) return {};
  debug::DebugSession& s = *h.session;
  const QString bpErrors = diagText(s.setBreakpoints(q.breakpoints));
  bool hit = false;
  switch (q.action) {
    case DebugAction::Show:
      break;
    case DebugAction::GoTo:
      s.goTo(q.target);
      break;
    case DebugAction::Continue:
      hit = s.continueForward(cancel);
      break;
    case DebugAction::ReverseContinue:
      hit = s.continueBackward(cancel);
      break;
    case DebugAction::RunToLine:
      hit = s.runToLine(q.line);
      break;
  }
  DebugView v = viewOf(s, QString::fromStdString(q.buffer));
  v.hit = hit;
  v.message = h.startWarnings + bpErrors + v.message;
  return v;
}

}  // namespace tirx::views
