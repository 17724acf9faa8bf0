// The timeline recorder (timeline.h): lane merging, the event cap, name interning, final order.
#include "core/sim/timeline.h"

#include <algorithm>

namespace tirx::sim {

void TimelineRecorder::reset(const SimOptions& o) {
  on = o.recordTimeline;
  out = {};
  out.maxEvents = std::max<int64_t>(0, o.timelineMaxEvents);
  out.copyTicks = std::max<int64_t>(0, o.timelineCopyTicks);
  m_max = out.maxEvents;
  m_open.clear();
  m_laneMask.clear();
  m_names.clear();
}

void TimelineRecorder::beginCta() {
  m_open.clear();
}

int32_t TimelineRecorder::intern(const std::string& s) {
  auto [it, added] = m_names.try_emplace(s, static_cast<int32_t>(out.names.size()));
  if (added) out.names.push_back(s);
  return it->second;
}

bool TimelineRecorder::room() {
  if (static_cast<int64_t>(out.events.size()) < m_max) return true;
  out.truncated = true;
  return false;
}

int32_t TimelineRecorder::lane(ir::AsyncEventKind k, int32_t cta, int64_t thread, int instr,
                               int64_t occurrence, int64_t start, int64_t end,
                               const SourceSpan& span, bool& fresh) {
  const Key key{cta, static_cast<int32_t>(thread / 32), instr, static_cast<uint8_t>(k), occurrence};
  const uint32_t bit = 1u << (thread % 32);
  auto it = m_open.find(key);
  if (it != m_open.end()) {
    fresh = false;
    ir::AsyncEvent& e = out.events[size_t(it->second)];
    uint32_t& mask = m_laneMask[size_t(it->second)];
    if (!(mask & bit)) {
      mask |= bit;
      ++e.lanes;
    }
    e.start = std::min(e.start, start);
    e.end = std::max(e.end, end);
    return it->second;
  }
  fresh = true;
  if (!room()) return -1;
  const int32_t id = static_cast<int32_t>(out.events.size());
  ir::AsyncEvent e;
  e.kind = k;
  e.cta = cta;
  e.warp = key.warp;
  e.lanes = 1;
  e.start = start;
  e.end = end;
  e.span = span;
  out.events.push_back(e);
  m_laneMask.push_back(bit);
  m_open.emplace(key, id);
  return id;
}

int32_t TimelineRecorder::single(ir::AsyncEventKind k, int32_t cta, int32_t warp, int64_t time,
                                 const SourceSpan& span) {
  if (!room()) return -1;
  ir::AsyncEvent e;
  e.kind = k;
  e.cta = cta;
  e.warp = warp;
  e.start = e.end = time;
  e.span = span;
  out.events.push_back(e);
  m_laneMask.push_back(0);
  return static_cast<int32_t>(out.events.size() - 1);
}

void TimelineRecorder::finish() {
  std::stable_sort(out.events.begin(), out.events.end(),
                   [](const ir::AsyncEvent& a, const ir::AsyncEvent& b) {
                     return a.cta != b.cta ? a.cta < b.cta : a.start < b.start;
                   });
  m_open.clear();
  m_laneMask.clear();
}

}  // namespace tirx::sim
