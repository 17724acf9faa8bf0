// Names of the asynchronous timeline's event kinds (async_timeline.h).
#include "core/ir/async_timeline.h"

namespace tirx::ir {

const char* asyncEventKindName(AsyncEventKind k) {
  switch (k) {
    case AsyncEventKind::CpAsyncCopy:
      return "cp.async";
    case AsyncEventKind::CpAsyncCommit:
      return "cp.async.commit";
    case AsyncEventKind::CpAsyncWait:
      return "cp.async.wait";
    case AsyncEventKind::TmaLoad:
      return "tma.load";
    case AsyncEventKind::TmaStore:
      return "tma.store";
    case AsyncEventKind::BulkCommit:
      return "bulk.commit";
    case AsyncEventKind::BulkWait:
      return "bulk.wait";
    case AsyncEventKind::MbarInit:
      return "mbarrier.init";
    case AsyncEventKind::MbarArrive:
      return "mbarrier.arrive";
    case AsyncEventKind::MbarExpectTx:
      return "mbarrier.expect_tx";
    case AsyncEventKind::MbarCompleteTx:
      return "mbarrier.complete_tx";
    case AsyncEventKind::MbarPhase:
      return "mbarrier.phase";
    case AsyncEventKind::MbarWait:
      return "mbarrier.wait";
    case AsyncEventKind::MbarInval:
      return "mbarrier.inval";
  }
  return "?";
}

bool isAsyncInterval(AsyncEventKind k) {
  switch (k) {
    case AsyncEventKind::CpAsyncCopy:
    case AsyncEventKind::CpAsyncWait:
    case AsyncEventKind::TmaLoad:
    case AsyncEventKind::TmaStore:
    case AsyncEventKind::BulkWait:
    case AsyncEventKind::MbarWait:
      return true;
    default:
      return false;
  }
}

std::string describeAsyncEvent(const AsyncTimeline& tl, const AsyncEvent& e) {
  std::string s = "t=" + std::to_string(e.start);
  if (isAsyncInterval(e.kind))
    s += ".." + (e.unfinished ? std::string("never") : std::to_string(e.end));
  s += " cta " + std::to_string(e.cta) + " warp " + std::to_string(e.warp) + " line " +
       std::to_string(e.span.line) + " " + asyncEventKindName(e.kind);
  if (e.barrier >= 0) s += " " + tl.name(e.barrier);
  if (e.parity >= 0) s += " parity " + std::to_string(e.parity);
  if (e.barrier >= 0 && e.phase >= 0) s += " (phase " + std::to_string(e.phase) + ")";
  if (e.buffer >= 0)
    s += " " + tl.name(e.buffer) +
         (e.stage >= 0 ? " stage " + std::to_string(e.stage) : std::string());
  if (e.group >= 0) s += " group " + std::to_string(e.group);
  if (e.kind == AsyncEventKind::CpAsyncWait || e.kind == AsyncEventKind::BulkWait)
    s += " (N=" + std::to_string(e.count) + ")";
  else if (e.count)
    s += ", count " + std::to_string(e.count);
  if (e.bytes) s += ", " + std::to_string(e.bytes) + " bytes";
  if (e.lanes > 1) s += ", " + std::to_string(e.lanes) + " lanes";
  return s;
}

const std::string& AsyncTimeline::name(int32_t index) const {
  static const std::string none;
  return index >= 0 && size_t(index) < names.size() ? names[size_t(index)] : none;
}

}  // namespace tirx::ir
