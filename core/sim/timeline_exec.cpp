// The Runner's side of the asynchronous timeline (decision PIPE-1, ir/async_timeline.h): the
// facts of an event that the executor files know only in part — which shared allocation and
// stage a copy writes, which barrier it completes on, where each element of a TMA box lands after
// the swizzle. Called only when Runner::timeline.on; async_exec.cpp and tma_exec.cpp own the times.
#include <algorithm>

#include "core/layout/swizzle_layout.h"
#include "core/sim/sim_internal.h"
#include "core/sim/tma_image.h"

namespace tirx::sim {

using ir::AsyncEventKind;

int32_t Runner::tlEvent(AsyncEventKind k, const Thread& t, int pc, int64_t start, int64_t end,
                        bool& fresh) {
  const int64_t occurrence = size_t(pc) < t.execCount.size() ? t.execCount[size_t(pc)] : 0;
  return timeline.lane(k, static_cast<int32_t>(cta), t.tid, pc, occurrence, start, end, span(pc),
                       fresh);
}

void Runner::tlMbar(AsyncEventKind k, const Thread& t, int pc, const MbarState& m, int64_t count,
                    int64_t bytes) {
  bool fresh = false;
  const int32_t id = tlEvent(k, t, pc, t.clock, t.clock, fresh);
  if (id < 0) return;
  ir::AsyncEvent& e = timeline.at(id);
  if (fresh) {
    e.barrier = timeline.intern(m.name);
    e.phase = m.phase;
  }
  e.count += count;
  e.bytes += bytes;
}

void Runner::tlCommit(AsyncEventKind k, const Thread& t, int pc, const std::vector<int32_t>& open,
                      int64_t group) {
  bool fresh = false;
  const int32_t id = tlEvent(k, t, pc, t.clock, t.clock, fresh);
  if (id < 0) return;
  ir::AsyncEvent& e = timeline.at(id);
  if (fresh) e.group = group;
  for (int32_t op : open) {
    const AsyncOpRec& o = async.ops[size_t(op)];
    for (const ByteRange& r : o.dst.empty() ? o.src : o.dst) e.bytes += r.end - r.begin;
  }
}

void Runner::syncClocks(Thread* const* lanes, uint32_t mask) {
  int64_t latest = 0;
  for (int l = 0; l < 32; ++l)
    if (mask >> l & 1) latest = std::max(latest, lanes[l]->clock);
  for (int l = 0; l < 32; ++l)
    if (mask >> l & 1) lanes[l]->clock = latest;
}

void Runner::tlIssue(const Thread& t, int pc, AsyncOpRec& op) {
  using C = AsyncOpRec::Completion;
  op.issueTime = t.clock;
  op.landTime = t.clock + timeline.out.copyTicks;
  const AsyncEventKind k = op.completion == C::CpAsync    ? AsyncEventKind::CpAsyncCopy
                           : op.completion == C::Mbarrier ? AsyncEventKind::TmaLoad
                                                          : AsyncEventKind::TmaStore;
  bool fresh = false;
  op.event = tlEvent(k, t, pc, op.issueTime, op.landTime, fresh);
  if (op.event < 0) return;
  const std::vector<ByteRange>& bytes = op.dst.empty() ? op.src : op.dst;
  ir::AsyncEvent& e = timeline.at(op.event);
  for (const ByteRange& r : bytes) e.bytes += r.end - r.begin;
  if (!fresh || bytes.empty()) return;
  // The shared allocation (and its leading index) holding the copy's first byte.
  const int64_t first = bytes.front().begin;
  for (size_t b = 0; b < kernel.buffers.size(); ++b) {
    const ir::Buffer& buf = kernel.buffers[b];
    if (buf.scope != ir::MemScope::Shared || first < sharedOffset[b] ||
        first >= sharedOffset[b] + bufferBytes[b])
      continue;
    e.buffer = timeline.intern(buf.name);
    if (buf.shape.size() >= 2 && buf.shape[0] > 0 && bufferBytes[b] % buf.shape[0] == 0)
      e.stage = (first - sharedOffset[b]) / (bufferBytes[b] / buf.shape[0]);
    break;
  }
  if (op.completion == C::Mbarrier) {
    auto it = async.bars.find(op.mbarAddr);
    if (it != async.bars.end()) {
      e.barrier = timeline.intern(it->second.name);
      e.phase = it->second.phase;
    }
  }
}

void Runner::tlTmaImage(const ir::TmaCopy& c, const std::vector<int64_t>& coords, int pc,
                        int32_t event) {
  if (event < 0) return;
  ir::AsyncTimeline& tl = timeline.out;
  const SourceSpan sp = span(pc);
  for (size_t i = 0; i < tl.images.size();
       ++i) {  // the same box again (another CTA, a later round)
    const ir::TmaBoxImage& im = tl.images[i];
    if (im.span.line == sp.line && im.span.col == sp.col && im.coords == coords) {
      timeline.at(event).image = static_cast<int32_t>(i);
      return;
    }
  }
  if (static_cast<int>(tl.images.size()) >= opt.timelineMaxImages) return;
  const ir::TensorMap& map = kernel.tensorMaps[size_t(c.map)];
  const ir::Buffer& sbuf = kernel.buffers[size_t(c.shared.buffer)];
  const int eb = ir::dtypeBytes(map.dtype);
  ir::TmaBoxImage im;
  im.span = sp;
  im.cta = static_cast<int32_t>(cta);
  im.buffer = timeline.intern(sbuf.name);
  im.tensor = timeline.intern(kernel.buffers[size_t(map.buffer)].name);
  im.elemBytes = eb;
  const auto mode = hardwareSwizzleMode(sbuf.swizzle, eb);
  im.swizzleBytes = mode ? swizzleModeBytes(*mode) : 0;
  im.coords = coords;
  const size_t rank = map.box.size();
  int64_t total = 1;
  for (int64_t b : map.box) total *= b;
  im.cols = rank ? map.box[0] : 1;
  im.rows = total / std::max<int64_t>(1, im.cols);
  im.srcRow.assign(size_t(total), -1);
  im.srcCol.assign(size_t(total), -1);
  // forEachTmaElement walks the box densely, innermost fastest: the dense index gives the box
  // coordinate, the element's shared byte its position in the image.
  int64_t dense = 0;
  forEachTmaElement(map, coords, sbuf.swizzle, [&](const TmaElement& el) {
    const int64_t pos = el.sharedByte / eb;
    const int64_t inner = dense % im.cols, outer = rank >= 2 ? (dense / im.cols) % map.box[1] : 0;
    ++dense;
    if (el.globalByte < 0 || pos < 0 || pos >= total) return;
    im.srcCol[size_t(pos)] = static_cast<int32_t>(coords[rank - 1] + inner);
    im.srcRow[size_t(pos)] = rank >= 2 ? static_cast<int32_t>(coords[rank - 2] + outer) : 0;
  });
  timeline.at(event).image = static_cast<int32_t>(tl.images.size());
  tl.images.push_back(std::move(im));
}

}  // namespace tirx::sim
