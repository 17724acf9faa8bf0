// buildPipelineChart (pipeline_chart.h): rows per warp, greedy track packing of the copy bars.
#include "views/models/pipeline_chart.h"

#include <algorithm>
#include <map>

namespace tirx::views {

using ir::AsyncEventKind;

std::vector<int> pipelineCtas(const ir::AsyncTimeline& tl) {
  std::vector<int> out;
  for (const auto& e : tl.events)
    if (out.empty() || out.back() != e.cta) out.push_back(e.cta);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

namespace {

bool isCopy(AsyncEventKind k) {
  return k == AsyncEventKind::CpAsyncCopy || k == AsyncEventKind::TmaLoad ||
         k == AsyncEventKind::TmaStore;
}

PipelineItem::Category categoryOf(AsyncEventKind k) {
  switch (k) {
    case AsyncEventKind::CpAsyncWait:
    case AsyncEventKind::BulkWait:
    case AsyncEventKind::MbarWait:
      return PipelineItem::Category::Wait;
    case AsyncEventKind::CpAsyncCopy:
    case AsyncEventKind::TmaLoad:
    case AsyncEventKind::TmaStore:
      return PipelineItem::Category::Copy;
    case AsyncEventKind::MbarArrive:
    case AsyncEventKind::MbarExpectTx:
    case AsyncEventKind::MbarCompleteTx:
      return PipelineItem::Category::Arrive;
    case AsyncEventKind::MbarPhase:
      return PipelineItem::Category::Phase;
    default:
      return PipelineItem::Category::Other;
  }
}

QString barLabel(const ir::AsyncTimeline& tl, const ir::AsyncEvent& e) {
  QString s;
  if (e.barrier >= 0) s = QString::fromStdString(tl.name(e.barrier));
  if (e.kind == AsyncEventKind::MbarWait) s += QStringLiteral(" p%1").arg(e.parity);
  if (e.kind == AsyncEventKind::CpAsyncWait || e.kind == AsyncEventKind::BulkWait)
    s = e.group >= 0 ? QStringLiteral("group %1").arg(e.group)
                     : QStringLiteral("wait %1").arg(e.count);
  if (isCopy(e.kind) && e.buffer >= 0) {
    if (!s.isEmpty()) s += QStringLiteral(" ");
    s += QString::fromStdString(tl.name(e.buffer));
    if (e.stage >= 0) s += QStringLiteral("[%1]").arg(e.stage);
  }
  return s;
}

}  // namespace

PipelineChart buildPipelineChart(const ir::AsyncTimeline& tl, int cta) {
  PipelineChart c;
  c.cta = cta;
  c.truncated = tl.truncated;
  // Which warps appear, and which issued copies.
  std::map<int, bool> warps;  // warp -> has copies
  for (const auto& e : tl.events) {
    if (e.cta != cta) continue;
    warps[e.warp] = warps[e.warp] || isCopy(e.kind);
    c.tEnd = std::max({c.tEnd, e.end, e.start + 1});
  }
  std::map<int, int> syncRow, copyRow;
  for (const auto& [w, copies] : warps) {
    syncRow[w] = static_cast<int>(c.rows.size());
    c.rows.push_back({QStringLiteral("warp %1 · sync").arg(w), w, false, 1});
    if (copies) {
      copyRow[w] = static_cast<int>(c.rows.size());
      c.rows.push_back({QStringLiteral("warp %1 · copies").arg(w), w, true, 1});
    }
  }
  // Copy bars go to the first track of their row that is free at their start (events come
  // ordered by start time, so a greedy pass packs them).
  std::map<int, std::vector<int64_t>> trackEnds;
  for (size_t i = 0; i < tl.events.size(); ++i) {
    const ir::AsyncEvent& e = tl.events[i];
    if (e.cta != cta) continue;
    PipelineItem it;
    it.category = categoryOf(e.kind);
    it.bar = ir::isAsyncInterval(e.kind);
    it.start = e.start;
    it.end = e.end;
    it.event = static_cast<int>(i);
    it.line = e.span.line;
    it.unfinished = e.unfinished;
    if (it.unfinished) it.end = c.tEnd;
    it.label = barLabel(tl, e);
    it.tooltip = QString::fromStdString(ir::describeAsyncEvent(tl, e));
    if (isCopy(e.kind)) {
      it.row = copyRow[e.warp];
      auto& ends = trackEnds[it.row];
      size_t t = 0;
      while (t < ends.size() && ends[t] > e.start) ++t;
      if (t == ends.size()) ends.push_back(0);
      ends[t] = std::max(e.end, e.start + 1);
      it.track = static_cast<int>(t);
      c.rows[size_t(it.row)].tracks = std::max(c.rows[size_t(it.row)].tracks, it.track + 1);
    } else {
      it.row = syncRow[e.warp];
    }
    c.items.push_back(std::move(it));
  }
  return c;
}

}  // namespace tirx::views
