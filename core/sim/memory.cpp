// Memory of the simulated kernel: resolving tensor coordinates through digested layouts, and every
// byte access to global tensors, per-CTA shared memory and per-thread register arrays, with the
// checks the simulator promises: bounds, alignment, never-written registers and shared bytes, and
// the shared-memory race detector (two different threads touch the same byte between two
// barriers, at least one of them writing; `warp_sync` orders the lanes of one warp only).
#include <algorithm>
#include <cstring>

#include "core/sim/sim_internal.h"

namespace tirx::sim {

std::string threadName(int64_t cta, int64_t thread) {
  return "cta " + std::to_string(cta) + " thread " + std::to_string(thread) + " (warp " +
         std::to_string(thread / 32) + ", lane " + std::to_string(thread % 32) + ")";
}

const FastRef& Runner::fast(const ir::TensorRef& r) {
  auto it = fastRefs.find(&r);
  if (it != fastRefs.end()) return it->second;
  FastRef f;
  f.ref = &r;
  f.layout = CompiledLayout(r.layout);
  for (const auto& it : r.layout.shard) f.hasThread = f.hasThread || threadAxisWeight(it.axis) != 0;
  for (const auto& [axis, v] : r.layout.offset)
    f.hasThread = f.hasThread || threadAxisWeight(axis) != 0;
  f.elemBytes = std::max(1, ir::dtypeBytes(r.dtype));
  f.checkDims = r.buffer >= 0 && size_t(r.buffer) < kernel.buffers.size() &&
                ir::hasSymbolicStrides(kernel.buffers[size_t(r.buffer)]);
  const size_t n = r.layoutShape.size();
  f.loConst.assign(n, 0);
  f.loDyn.assign(n, nullptr);
  for (size_t d = 0; d < n && d < r.lo.size(); ++d) {
    if (!r.lo[d]) continue;
    if (r.lo[d]->kind == ir::ExprKind::IntImm) {
      f.loConst[d] = r.lo[d]->intValue;
    } else {
      f.loDyn[d] = r.lo[d].get();
      f.dynamic = true;
    }
  }
  // Memo tables are a cache: at most 2^22 entries each and 256 MiB in all, else resolve() computes.
  int64_t numel = 1;
  for (auto e : r.shape)
    if (__builtin_mul_overflow(numel, e, &numel)) numel = -1;
  constexpr int64_t kEntryBytes = sizeof(Resolved) + 1;
  if (!f.dynamic && numel > 0 && numel <= (int64_t{1} << 22) &&
      memoBytes + numel * kEntryBytes <= (int64_t{256} << 20)) {
    memoBytes += numel * kEntryBytes;
    f.memo.resize(numel);
    f.memoValid.assign(numel, 0);
  }
  return fastRefs.emplace(&r, std::move(f)).first->second;
}

bool Runner::resolve(const FastRef& f, const int64_t* coord, int rank, Thread& t, int instr,
                     Resolved& out) {
  const ir::TensorRef& r = *f.ref;
  int64_t key = -1;
  if (!f.dynamic && !f.memoValid.empty()) {
    key = 0;
    const int rs = static_cast<int>(r.shape.size());
    for (int d = 0; d < rs; ++d) {
      const int64_t c = d < rank ? coord[d] : 0;
      if (c < 0 || c >= r.shape[d]) {
        key = -1;
        break;
      }
      key = key * r.shape[d] + c;
    }
    if (key >= 0 && f.memoValid[key]) {
      out = f.memo[key];
      return true;
    }
  }
  // Exact 64-bit arithmetic: a runtime offset (lo) can be any value, so every step is checked and
  // an address that leaves int64 is an out-of-bounds fault, never a wrapped-around address.
  bool over = false;
  auto mulAdd = [&over](int64_t acc, int64_t a, int64_t b) {
    int64_t p = 0;
    over |= __builtin_mul_overflow(a, b, &p);
    over |= __builtin_add_overflow(acc, p, &acc);
    return acc;
  };
  const size_t n = r.layoutShape.size();
  int64_t flat = 0;
  for (size_t d = 0; d < n; ++d) {
    int64_t lo = f.loConst[d];
    if (f.loDyn[d]) lo = eval(*f.loDyn[d], t, t.vars, instr).i;
    const int src = d < r.dimMap.size() ? r.dimMap[d] : static_cast<int>(d);
    const int64_t c = mulAdd(lo, src >= 0 && src < rank ? coord[src] : 0, 1);
    if (f.checkDims && !over && (c < 0 || c >= r.layoutShape[d])) {
      fault("oob", "E0710", instr,
            "index " + std::to_string(c) + " of dimension " + std::to_string(d) + " of '" + r.text +
                "' is outside its extent " + std::to_string(r.layoutShape[d]) +
                " (bound by this call) in " + threadName(cta, t.tid),
            true);
      return false;
    }
    flat = mulAdd(c, flat, r.layoutShape[d]);
  }
  // Split over the shard extents, innermost last; the outermost component is not reduced.
  // (CompiledLayout::applyFlat's arithmetic, with every step checked.)
  int64_t m = f.layout.offsetM(), th = f.layout.offsetThread();
  const auto its = f.layout.digits();
  for (size_t k = its.size(); k-- > 0;) {
    int64_t c;
    if (k == 0) {
      c = flat;
    } else {
      const int64_t e = its[k].extent > 0 ? its[k].extent : 1;
      c = flat % e;
      if (c < 0) c += e;
      flat = (flat - c) / e;
    }
    if (its[k].mStride) m = mulAdd(m, c, its[k].mStride);
    if (its[k].threadStride) th = mulAdd(th, c, its[k].threadStride);
  }
  m = mulAdd(m, r.elemOffset, 1);
  if (over) {
    fault("oob",
          r.scope == ir::MemScope::Global ? "E0710"
                                          : (r.scope == ir::MemScope::Shared ? "E0711" : "E0712"),
          instr,
          "the address of an element of '" + r.text + "' overflows 64 bits in " +
              threadName(cta, t.tid),
          true);
    return false;
  }
  out.m = m;
  out.thread = th;
  if (key >= 0) {
    f.memo[key] = out;
    f.memoValid[key] = 1;
  }
  return true;
}

namespace {
const char* scopeWord(ir::MemScope s) {
  switch (s) {
    case ir::MemScope::Global:
      return "global";
    case ir::MemScope::Shared:
      return "shared";
    default:
      return "register";
  }
}
}  // namespace

bool Runner::byteOffset(const Thread& t, const ir::TensorRef& r, int64_t m, int instr,
                        int64_t& off) {
  if (!__builtin_mul_overflow(m, int64_t{ir::dtypeBytes(r.dtype)}, &off)) {
    if (r.buffer >= 0 && r.scope == ir::MemScope::Shared)
      off = ir::swizzledByte(kernel.buffers[size_t(r.buffer)], off);
    return true;
  }
  fault("oob",
        r.scope == ir::MemScope::Global ? "E0710"
                                        : (r.scope == ir::MemScope::Shared ? "E0711" : "E0712"),
        instr,
        "element " + std::to_string(m) + " of '" + r.text +
            "' is beyond any address (its byte offset overflows 64 bits) in " +
            threadName(cta, t.tid),
        true);
  return false;
}

/// Bounds and alignment of one access of `nbytes` at byte offset `off` of buffer `b`; reports
/// E0710-E0712 (out of bounds) or E0715 (misaligned) and returns false on a fault.
bool Runner::checkAccess(const Thread& t, int b, int64_t off, int64_t nbytes, int64_t alignBytes,
                         int instr, const char* verb) {
  const ir::Buffer& buf = kernel.buffers[b];
  const int64_t size = bufferBytes[b];
  if (off < 0 || nbytes > size || off > size - nbytes) {  // no off + nbytes: it may overflow
    fault("oob",
          buf.scope == ir::MemScope::Global
              ? "E0710"
              : (buf.scope == ir::MemScope::Shared ? "E0711" : "E0712"),
          instr,
          std::string("out-of-bounds ") + scopeWord(buf.scope) + " " + std::string(verb) + " of " +
              std::to_string(nbytes) + " bytes at byte offset " + std::to_string(off) + " of '" +
              buf.name + "' (" + std::to_string(size) + " bytes) by " + threadName(cta, t.tid),
          true);
    return false;
  }
  if (alignBytes > 1 && buf.scope != ir::MemScope::Local && off % alignBytes != 0) {
    fault("misaligned", "E0715", instr,
          std::string("misaligned ") + scopeWord(buf.scope) + " " + std::string(verb) +
              ": byte offset " + std::to_string(off) + " of '" + buf.name +
              "' is not a multiple of " + std::to_string(alignBytes) + " by " +
              threadName(cta, t.tid),
          true);
    return false;
  }
  return true;
}

bool Runner::checkAsyncPending(const Thread& t, const ir::Buffer& buf, int64_t base, int64_t off,
                               int64_t nbytes, int instr, bool store) {
  for (int64_t k = 0; k < nbytes; ++k) {
    const int32_t w = async.pendingWriter[size_t(base + k)];
    const int32_t r = store ? async.srcReaders[size_t(base + k)] : 0;
    if (!w && !r) continue;
    int32_t id = w - 1;
    if (!w)  // find the in-flight reader
      for (size_t i = 0; i < async.ops.size() && id < 0; ++i)
        for (const ByteRange& br : async.ops[i].src)
          if (!async.ops[i].landed && br.begin <= base + k && base + k < br.end)
            id = static_cast<int32_t>(i);
    const AsyncOpRec* op = id >= 0 ? &async.ops[size_t(id)] : nullptr;
    const std::string who = op ? " by thread " + std::to_string(op->issuer) : std::string();
    std::vector<DiagNote> notes;
    if (op) notes.push_back({span(op->instr), "the async copy is issued here" + who});
    const std::string how =
        op && op->completion == AsyncOpRec::Completion::Mbarrier
            ? "a wait on its mbarrier"
            : "the issuing thread's wait_group (and, for other threads, a barrier after it)";
    fault("async", w ? "E0702" : "E0703", instr,
          std::string(store ? "write to" : "read of") + " '" + buf.name + "' byte offset " +
              std::to_string(off + k) + " by " + threadName(cta, t.tid) +
              (w ? " before the async copy that writes it completed"
                 : " while an async copy reads it") +
              ": completion is observed through " + how,
          false, notes);
    return false;
  }
  return true;
}

bool Runner::loadElem(Thread& t, const ir::TensorRef& r, int64_t m, int64_t nbytes, uint8_t* out,
                      int instr, int64_t alignBytes) {
  const int b = r.buffer;
  if (b < 0 || b >= static_cast<int>(kernel.buffers.size())) {
    fault("internal", "E0750", instr, "tensor '" + r.text + "' has no buffer", true);
    return false;
  }
  const ir::Buffer& buf = kernel.buffers[b];
  int64_t off = 0;
  if (!byteOffset(t, r, m, instr, off)) return false;
  if (!checkAccess(t, b, off, nbytes, alignBytes, instr, "read")) return false;
  switch (buf.scope) {
    case ir::MemScope::Global:
      std::memcpy(out, args[argOfBuffer[b]].tensor.data.data() + off, nbytes);
      return true;
    case ir::MemScope::Shared: {
      const int64_t base = sharedOffset[b] + off;
      std::memcpy(out, shared.data() + base, nbytes);
      const int warp = static_cast<int>(t.tid / 32);
      if (async.used && !checkAsyncPending(t, buf, base, off, nbytes, instr, false)) return true;
      for (int64_t k = 0; k < nbytes; ++k) {
        ShadowByte& s = shadow[base + k];
        if (!s.written) {
          fault("uninit", "E0721", instr,
                "read of never-written shared memory: byte offset " + std::to_string(off + k) +
                    " of '" + buf.name + "' by " + threadName(cta, t.tid),
                false);
          break;
        }
        if (!opt.detectRaces) continue;
        const bool conflict = s.writer >= 0 && s.writer != t.tid && s.writeEpoch == ctaEpoch &&
                              (s.writer / 32 != warp || s.writeWarpEpoch == warpEpoch[warp]) &&
                              !hbOrdered(t.tid, s.writer, s.writeClock);
        if (conflict) {
          std::vector<DiagNote> notes{
              {span(s.writeInstr), "written here by " + threadName(cta, s.writer)}};
          fault("race", "E0701", instr,
                "shared-memory race on '" + buf.name + "' byte offset " + std::to_string(off + k) +
                    ": read by " + threadName(cta, t.tid) + " (line " +
                    std::to_string(line(instr)) + ") after a write by " + actorName(s.writer) +
                    " (line " + std::to_string(line(s.writeInstr)) + ") with no barrier in between",
                false, notes);
          break;
        }
        if (s.readEpoch != ctaEpoch || s.reader < 0) {
          s.reader = static_cast<int32_t>(t.tid);
          s.readInstr = instr;
          s.readEpoch = ctaEpoch;
          s.readWarpEpoch = warpEpoch[warp];
          s.readClock = clockOf(t.tid);
          s.reader2 = -1;
        } else if (s.reader != t.tid && s.reader2 < 0) {
          s.reader2 = static_cast<int32_t>(t.tid);
          s.read2Instr = instr;
          s.read2Clock = clockOf(t.tid);
        }
      }
      return true;
    }
    default: {
      if (wgmmaUsed) wgmmaRegisterAccess(t, b, off, nbytes, instr, false);
      auto& bytes = t.regs[b];
      std::memcpy(out, bytes.data() + off, nbytes);
      const auto& w = t.regWriter[b];
      for (int64_t k = 0; k < nbytes; ++k) {
        if (w[off + k] == 0) {
          const int64_t slot = off / std::max(1, ir::dtypeBytes(buf.dtype));
          fault("uninit", "E0720", instr,
                "read of never-written register " + buf.name + "[" + std::to_string(slot) +
                    "] by " + threadName(cta, t.tid),
                false);
          break;
        }
      }
      return true;
    }
  }
}

bool Runner::storeElem(Thread& t, const ir::TensorRef& r, int64_t m, int64_t nbytes,
                       const uint8_t* in, int instr, int64_t alignBytes) {
  const int b = r.buffer;
  if (b < 0 || b >= static_cast<int>(kernel.buffers.size())) {
    fault("internal", "E0750", instr, "tensor '" + r.text + "' has no buffer", true);
    return false;
  }
  const ir::Buffer& buf = kernel.buffers[b];
  int64_t off = 0;
  if (!byteOffset(t, r, m, instr, off)) return false;
  if (!checkAccess(t, b, off, nbytes, alignBytes, instr, "write")) return false;
  switch (buf.scope) {
    case ir::MemScope::Global: {
      if (async.globalReaders > 0) checkGlobalSourceWrite(t, b, off, nbytes, instr);
      if (lockstep) logGlobalWrite(argOfBuffer[b], off, nbytes);
      std::memcpy(args[argOfBuffer[b]].tensor.data.data() + off, in, nbytes);
      if (auto& def = args[argOfBuffer[b]].tensor.defined;
          !def.empty()) {  // the store defines them
        const int64_t pb = std::max(1, ir::dtypeBytes(buf.dtype));
        for (int64_t e = off / pb;
             e <= (off + nbytes - 1) / pb && e < static_cast<int64_t>(def.size()); ++e)
          def[e] = 1;
      }
      if (opt.trackProvenance) {
        auto& owners = prov.args[argOfBuffer[b]];
        const int64_t pb = std::max(1, ir::dtypeBytes(buf.dtype));
        for (int64_t e = off / pb;
             e <= (off + nbytes - 1) / pb && e < static_cast<int64_t>(owners.size()); ++e) {
          ElementOwner& o = owners[e];
          o.cta = static_cast<int32_t>(cta);
          o.thread = static_cast<int32_t>(t.tid);
          o.storeLine = line(instr);
          o.regBuffer = curRegBuffer;
          o.regSlot = curRegSlot;
          o.regLine = curRegLine;
        }
      }
      return true;
    }
    case ir::MemScope::Shared: {
      const int64_t base = sharedOffset[b] + off;
      if (async.used && !checkAsyncPending(t, buf, base, off, nbytes, instr, true)) return true;
      if (wgmmaUsed) wgmmaSharedWrite(base, nbytes, instr, threadName(cta, t.tid));
      std::memcpy(shared.data() + base, in, nbytes);
      const int warp = static_cast<int>(t.tid / 32);
      for (int64_t k = 0; k < nbytes; ++k) {
        ShadowByte& s = shadow[base + k];
        s.written = true;
        if (opt.detectRaces) {
          auto conflicts = [&](int32_t other, int32_t epoch, int32_t wepoch, uint32_t clock) {
            return other >= 0 && other != t.tid && epoch == ctaEpoch &&
                   (other / 32 != warp || wepoch == warpEpoch[warp]) &&
                   !hbOrdered(t.tid, other, clock);
          };
          int32_t other = -1, otherInstr = -1;
          const char* what = "";
          if (conflicts(s.writer, s.writeEpoch, s.writeWarpEpoch, s.writeClock)) {
            other = s.writer;
            otherInstr = s.writeInstr;
            what = "written";
          } else if (conflicts(s.reader, s.readEpoch, s.readWarpEpoch, s.readClock)) {
            other = s.reader;
            otherInstr = s.readInstr;
            what = "read";
          } else if (conflicts(s.reader2, s.readEpoch, s.readWarpEpoch, s.read2Clock)) {
            other = s.reader2;
            otherInstr = s.read2Instr;
            what = "read";
          }
          if (other >= 0) {
            std::vector<DiagNote> notes{
                {span(otherInstr), std::string(what) + " here by " + threadName(cta, other)}};
            fault("race", "E0701", instr,
                  "shared-memory race on '" + buf.name + "' byte offset " +
                      std::to_string(off + k) + ": written by " + threadName(cta, t.tid) +
                      " (line " + std::to_string(line(instr)) + ") after being " + what + " by " +
                      actorName(other) + " (line " + std::to_string(line(otherInstr)) +
                      ") with no barrier in between",
                  false, notes);
            if (opt.detectRaces) { /* keep going: record this write */
            }
          }
          s.writer = static_cast<int32_t>(t.tid);
          s.writeInstr = instr;
          s.writeEpoch = ctaEpoch;
          s.writeWarpEpoch = warpEpoch[warp];
          s.writeClock = clockOf(t.tid);
        }
      }
      return true;
    }
    default: {
      if (wgmmaUsed) wgmmaRegisterAccess(t, b, off, nbytes, instr, true);
      std::memcpy(t.regs[b].data() + off, in, nbytes);
      auto& w = t.regWriter[b];
      for (int64_t k = 0; k < nbytes; ++k) w[off + k] = instr + 1;
      return true;
    }
  }
}

}  // namespace tirx::sim
