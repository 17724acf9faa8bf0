// TMA copies in the simulator (spec TC §5.4, §12.3; decisions TC-T3, TC-T6, TC-T7): one issuing
// thread enqueues an in-flight operation through the async API (async_state.h). A load's
// destination bytes read as pending until it lands; it lands when the scheduler retires it (no
// thread can run, decision ASYNC-2), reading the box from global memory at that moment, writing
// the swizzled image, then complete_tx(full box bytes) on its barrier — so a missing wait is a
// read of pending bytes (E0702), several issuers over-deliver (E0793), a wrong expect_tx never
// completes (the deadlock report names announced and delivered bytes). A store joins the issuing
// thread's bulk group and writes the in-bounds elements when its wait_group runs; shared bytes a
// generic store wrote must have been fenced with fence.proxy.async by their writer (E0785).
#include <cstring>

#include "core/sim/sim_internal.h"
#include "core/sim/tma_image.h"

namespace tirx::sim {

bool Runner::tmaBarrier(const ir::TmaCopy& c, Thread& t, int pc, int64_t& addr) {
  const ir::TensorRef& r = *c.mbar;
  int64_t coord[ir::kMaxTensorRank] = {};
  const int rank = static_cast<int>(std::min<size_t>(c.mbarIndex.size(), ir::kMaxTensorRank));
  for (int d = 0; d < rank; ++d) {
    coord[d] = eval(*c.mbarIndex[size_t(d)], t, t.vars, pc).i;
    if (coord[d] < 0 || coord[d] >= r.shape[size_t(d)]) {
      fault("oob", "E0711", pc,
            "index " + std::to_string(coord[d]) + " is out of bounds for dimension " +
                std::to_string(d) + " of '" + r.text + "' with extent " +
                std::to_string(r.shape[size_t(d)]) + " in " + threadName(cta, t.tid),
            true);
      return false;
    }
  }
  Resolved res;
  int64_t off = 0;
  if (!resolve(fast(r), coord, rank, t, pc, res) || !byteOffset(t, r, res.m, pc, off) ||
      !checkAccess(t, r.buffer, off, 8, 8, pc, "mbarrier access"))
    return false;
  addr = sharedOffset[size_t(r.buffer)] + off;
  auto it = async.bars.find(addr);
  if (it == async.bars.end() || !it->second.live) {
    fault("mbarrier", "E0790", pc,
          "the TMA load of " + threadName(cta, t.tid) + " completes on mbarrier '" + r.text +
              "' before any mbarrier.init of it",
          true);
    return false;
  }
  return true;
}

void Runner::execTma(const ir::TmaCopy& c, Thread& t, int pc) {
  const ir::TensorMap& map = kernel.tensorMaps[size_t(c.map)];
  const ir::Buffer& sbuf = kernel.buffers[size_t(c.shared.buffer)];
  const int64_t eb = ir::dtypeBytes(map.dtype);
  int64_t boxElems = 1;
  for (int64_t b : map.box) boxElems *= b;
  if (!charge(boxElems, t, pc)) return;
  elementOps += boxElems;
  // Where the box starts in the tile (a runtime region start is checked here; sema proved static
  // ones).
  int64_t zero[ir::kMaxTensorRank] = {};
  Resolved r0;
  if (!resolve(fast(c.shared), zero, static_cast<int>(c.shared.shape.size()), t, pc, r0)) return;
  int64_t start = 0;
  if (__builtin_mul_overflow(r0.m, eb, &start)) {
    fault("oob", "E0711", pc, "the TMA box of '" + c.shared.text + "' is beyond any shared address",
          true);
    return;
  }
  const int64_t period =
      std::max<int64_t>(128, swizzlePatternBytes(sbuf.swizzle, static_cast<int>(eb)));
  if (start % period != 0) {
    fault("misaligned", "E0715", pc,
          "misaligned TMA " + std::string(c.store ? "source" : "destination") + ": '" +
              c.shared.text + "' starts at byte offset " + std::to_string(start) + " of '" +
              sbuf.name + "', not a multiple of " + std::to_string(period) + " (" +
              threadName(cta, t.tid) + ")",
          true);
    return;
  }
  const auto ranges = tmaSharedRanges(map, sbuf.swizzle);
  if (!checkAccess(t, sbuf.id, start, ranges.back().second, 1, pc,
                   c.store ? "TMA read" : "TMA write"))
    return;
  std::vector<int64_t> coords;
  for (const auto& e : c.coords)
    coords.push_back(static_cast<int32_t>(eval(*e, t, t.vars, pc).i));  // .s32
  const int64_t base = sharedOffset[size_t(sbuf.id)] + start;
  const int arg = argOfBuffer[size_t(map.buffer)];
  AsyncOpRec op;
  for (const auto& [b, e] : ranges) (c.store ? op.src : op.dst).push_back({base + b, base + e});
  if (!c.store) {
    int64_t addr = 0;
    if (!tmaBarrier(c, t, pc, addr)) return;
    op.completion = AsyncOpRec::Completion::Mbarrier;
    op.mbarAddr = addr;
    op.txBytes = c.boxBytes;  // the full box, OOB-filled elements included (decision TC-T3)
    const Swizzle swz = sbuf.swizzle;
    op.land = [&map, coords, swz, base, arg, eb](Runner& r, AsyncOpRec& o) {
      const auto& data = r.args[size_t(arg)].tensor.data;
      const int64_t from = map.baseElems * eb;
      const auto image = tmaLoadImage(map, coords, swz, data.data() + from,
                                      static_cast<int64_t>(data.size()) - from);
      for (const auto& [b, e] : tmaSharedRanges(map, swz))
        r.landShared(o, base + b, image.data() + b, e - b);
    };
    const int32_t id = issueAsync(t, pc, std::move(op));
    if (timeline.on && !fatal) tlTmaImage(c, coords, pc, async.ops[size_t(id)].event);
    return;
  }
  // Store: the generic→async proxy rule for every source byte a thread wrote (decision TC-T7).
  for (const auto& [b, e] : ranges)
    for (int64_t k = base + b; k < base + e; ++k) {
      const ShadowByte& s = shadow[size_t(k)];
      if (!s.written) {
        fault("uninit", "E0721", pc,
              "TMA store reads never-written shared memory: byte offset " +
                  std::to_string(k - sharedOffset[size_t(sbuf.id)]) + " of '" + sbuf.name + "' (" +
                  threadName(cta, t.tid) + ")",
              false);
        break;
      }
      if (s.writer < 0 || s.writer >= async.nThreads) continue;  // written by the async proxy
      const ThreadAsync& wa = async.threads[size_t(s.writer)];
      if (wa.fenceSeq == 0 || wa.fenceEpoch < s.writeEpoch) {
        fault("async", "E0785", pc,
              "TMA store by " + threadName(cta, t.tid) + " reads '" + sbuf.name + "' byte offset " +
                  std::to_string(k - sharedOffset[size_t(sbuf.id)]) + ", written by thread " +
                  std::to_string(s.writer) +
                  " through the generic proxy without a fence.proxy.async before the barrier (the "
                  "TMA may read stale bytes)",
              false, {{span(s.writeInstr), "written here"}});
        k = base + e;
        break;
      }
    }
  op.completion = AsyncOpRec::Completion::BulkGroup;
  op.land = [&map, coords, swz = sbuf.swizzle, base, arg, eb, tid = t.tid, pc](Runner& r,
                                                                               AsyncOpRec&) {
    auto& tensor = r.args[size_t(arg)].tensor;
    const int64_t from = map.baseElems * eb;
    forEachTmaElement(map, coords, swz, [&](const TmaElement& e) {
      if (e.globalByte < 0) return;  // out-of-bounds elements are not written
      const int64_t g = from + e.globalByte;
      if (g + eb > static_cast<int64_t>(tensor.data.size())) return;
      if (r.lockstep) r.logGlobalWrite(arg, g, eb);
      std::memcpy(tensor.data.data() + g, r.shared.data() + base + e.sharedByte, size_t(eb));
      if (!tensor.defined.empty()) tensor.defined[size_t(g / eb)] = 1;
      if (r.opt.trackProvenance && size_t(arg) < r.prov.args.size() &&
          size_t(g / eb) < r.prov.args[size_t(arg)].size()) {
        ElementOwner& o = r.prov.args[size_t(arg)][size_t(g / eb)];
        o.cta = static_cast<int32_t>(r.cta);
        o.thread = static_cast<int32_t>(tid);
        o.storeLine = r.line(pc);
        o.regBuffer = -1;
      }
    });
  };
  issueAsync(t, pc, std::move(op));
}

}  // namespace tirx::sim
