// Tile operations and element stores, per thread (spec §2.2, §3.4): for the executing thread's
// group coordinate and every repeat coordinate in row-major order, one instruction instance whose
// register operands are the atom elements owned by the thread and whose memory operand is the
// address of the first atom element. All sources of an instance are read before its destination
// is written (PTX register semantics), so in-place use (`apply(fma, R, R, ...)`) is exact.
#include <algorithm>
#include <cstring>

#include "core/ir/buffer_access.h"
#include "core/sim/sim_internal.h"
#include "core/sim/sim_numerics.h"

namespace tirx::sim {

namespace {

/// Storage bits of one element named by a type qualifier such as ".b32", ".u16", ".f32".
int typeBits(const std::string& type) {
  int bits = 0;
  for (char c : type)
    if (c >= '0' && c <= '9')
      bits = bits * 10 + (c - '0');
    else if (c == 'x')
      break;  // f16x2
  if (type.find("x2") != std::string::npos) bits *= 2;
  return bits;
}

/// Number of arithmetic nodes in an expression tree (for the element-operation count).
int64_t opCount(const ir::Expr& e) {
  int64_t n = 0;
  switch (e.kind) {
    case ir::ExprKind::Unary:
    case ir::ExprKind::Binary:
    case ir::ExprKind::Compare:
    case ir::ExprKind::Logical:
    case ir::ExprKind::Select:
    case ir::ExprKind::Intrinsic:
    case ir::ExprKind::Cast:
      n = 1;
      break;
    default:
      break;
  }
  for (const auto& a : e.args)
    if (a) n += opCount(*a);
  return n;
}

int64_t bodyOps(const std::vector<ir::Stmt>& body) {
  int64_t n = 0;
  ir::forEachStmt(body, [&](const ir::Stmt& s) {
    if (s.value) n += opCount(*s.value);
  });
  return n;
}

struct Coords {
  int64_t c[ir::kMaxTensorRank] = {};
  int rank = 0;
};

/// One tile apply as executed by one thread: the scope coordinate, the repeat coordinate being
/// executed, and how an operand's elements are found.
struct ApplyCursor {
  Runner& R;
  const ir::TileApply& a;
  Thread& t;
  int instr;
  std::vector<int64_t> g;  ///< the thread's coordinate in the scope
  int ng = 0, nr = 0;
  std::vector<int64_t> rc;  ///< the repeat coordinate

  void coordsFor(const ir::TileOperand& op, int64_t atomIdx, Coords& out) const {
    out.rank = 0;
    // Sema keeps every operand within kMaxTensorRank dimensions (checked once in execApply).
    for (int d = 0; d < ng && d < static_cast<int>(g.size()); ++d) out.c[out.rank++] = g[d];
    for (int d = 0; d < nr; ++d) out.c[out.rank++] = rc[d];
    const int rank = static_cast<int>(op.tensor.shape.size());
    while (out.rank < rank) out.c[out.rank++] = atomIdx;
  }
  int64_t atomOf(int i) const {
    const ir::TileOperand& op = a.operands[i];
    if (op.isScalar) return 1;
    const int rank = static_cast<int>(op.tensor.shape.size());
    if (rank > ng + nr) return op.tensor.shape.back();
    return 1;
  }
  /// Resolves the element `atomIdx` of register operand `i`; checks ownership.
  bool regElem(int i, int64_t atomIdx, Resolved& res) const {
    const ir::TileOperand& op = a.operands[i];
    const FastRef& f = R.fast(op.tensor);
    Coords c;
    coordsFor(op, atomIdx, c);
    if (!R.resolve(f, c.c, c.rank, t, instr, res)) return false;
    if (f.hasThread && res.thread != scopeOwner(a.scope, t.tid)) {
      R.fault("ownership", "E0752", instr,
              "register operand '" + op.tensor.text + "' element belongs to thread " +
                  std::to_string(res.thread) + ", not to the executing " + threadName(R.cta, t.tid),
              true);
      return false;
    }
    return true;
  }
};

/// cp.async: one instance issues a copy of the source atom into the shared destination; false
/// after a fatal fault.
bool applyCpAsync(ApplyCursor& c) {
  const ir::TileApply& a = c.a;
  Thread& t = c.t;
  Runner& R = c.R;
  const int instr = c.instr;
  const int nops = static_cast<int>(a.operands.size());
  if (nops != 2 || a.operands[0].isScalar || a.operands[1].isScalar) {
    R.fault("unsupported", "E0751", instr, "cp.async needs a shared and a global operand", true);
    return false;
  }
  Coords dc, sc;
  c.coordsFor(a.operands[0], 0, dc);
  c.coordsFor(a.operands[1], 0, sc);
  Resolved dres, sres;
  if (!R.resolve(R.fast(a.operands[0].tensor), dc.c, dc.rank, t, instr, dres) ||
      !R.resolve(R.fast(a.operands[1].tensor), sc.c, sc.rank, t, instr, sres))
    return false;
  if (!R.issueCpAsync(a, t, instr, dres.m, sres.m)) return false;
  return true;
}

/// ld / st: one vector access of the memory atom to or from the register elements of instance
/// `r`; false after a fatal fault.
bool applyLoadStore(ApplyCursor& c, int64_t r) {
  const ir::TileApply& a = c.a;
  Thread& t = c.t;
  Runner& R = c.R;
  const int instr = c.instr;
  const int nops = static_cast<int>(a.operands.size());
  const PtxInstruction& ins = a.instr;
  const bool isLd = ins.family == PtxFamily::Ld, isSt = ins.family == PtxFamily::St;
  const int regI = isLd ? 0 : 1, memI = isLd ? 1 : 0;
  if (nops < 2 || a.operands[regI].isScalar || a.operands[memI].isScalar) {
    R.fault("unsupported", "E0751", instr, "ld/st needs a register and a memory operand", true);
    return false;
  }
  const ir::TensorRef& regRef = a.operands[regI].tensor;
  const ir::TensorRef& memRef = a.operands[memI].tensor;
  const int64_t n = c.atomOf(regI);
  int elemBytes = typeBits(ins.type) / 8;
  if (elemBytes <= 0) elemBytes = ir::dtypeBytes(regRef.dtype);
  const FastRef& mf = R.fast(memRef);
  Coords mc;
  c.coordsFor(a.operands[memI], 0, mc);
  Resolved mres;
  if (!R.resolve(mf, mc.c, mc.rank, t, instr, mres)) return false;
  const int64_t memEb = ir::dtypeBytes(memRef.dtype);
  const int64_t vecBytes = n * elemBytes;
  // The memory atom is consecutive from its first element; express it in view elements.
  int64_t startByte = 0;
  if (__builtin_mul_overflow(mres.m, memEb, &startByte)) {
    R.fault("oob", "E0710", instr,
            "the address of '" + memRef.text + "' overflows 64 bits in " + threadName(R.cta, t.tid),
            true);
    return false;
  }
  if (memRef.scope == ir::MemScope::Shared)
    R.recordShared(t, instr, 0, r, R.sharedByte(memRef, mres.m), static_cast<int>(vecBytes), memRef,
                   isSt);
  if (isLd) {
    uint8_t buf[256];
    if (vecBytes > 256 || n > 256) {
      R.fault("unsupported", "E0751", instr,
              "vector accesses wider than 256 bytes are not simulated", true);
      return false;
    }
    if (!R.loadElem(t, memRef, mres.m, vecBytes, buf, instr, vecBytes)) return false;
    for (int64_t k = 0; k < n; ++k) {
      Resolved rr;
      if (!c.regElem(regI, k, rr)) return false;
      const int64_t regEb = ir::dtypeBytes(regRef.dtype);
      if (!R.storeElem(t, regRef, rr.m, std::min<int64_t>(elemBytes, regEb), buf + k * elemBytes,
                       instr, 1))
        return false;
    }
  } else {
    for (int64_t k = 0; k < n; ++k) {
      Resolved rr;
      if (!c.regElem(regI, k, rr)) return false;
      uint8_t buf[16] = {};
      const int64_t regEb = ir::dtypeBytes(regRef.dtype);
      if (!R.loadElem(t, regRef, rr.m, std::min<int64_t>(elemBytes, regEb), buf, instr, 1))
        return false;
      if (R.opt.trackProvenance) {
        R.curRegBuffer = regRef.buffer;
        R.curRegSlot = static_cast<int32_t>(
            rr.m * regEb / std::max(1, ir::dtypeBytes(R.kernel.buffers[regRef.buffer].dtype)));
        const int64_t byteOff = rr.m * regEb;
        const auto& w = t.regWriter[regRef.buffer];
        R.curRegLine = (byteOff >= 0 && byteOff < static_cast<int64_t>(w.size()) && w[byteOff] > 0)
                           ? R.line(w[byteOff] - 1)
                           : 0;
      }
      int64_t off = 0;
      if (__builtin_add_overflow(startByte, k * elemBytes, &off)) {
        R.fault(
            "oob", "E0710", instr,
            "the address of '" + memRef.text + "' overflows 64 bits in " + threadName(R.cta, t.tid),
            true);
        return false;
      }
      if (off % memEb != 0) {
        R.fault("unsupported", "E0751", instr,
                "st of " + std::to_string(elemBytes) + "-byte elements into '" + memRef.text +
                    "' whose elements are " + std::to_string(memEb) + " bytes is not simulated",
                true);
        return false;
      }
      const bool ok =
          R.storeElem(t, memRef, off / memEb, elemBytes, buf, instr, k == 0 ? vecBytes : 1);
      R.curRegBuffer = -1;
      R.curRegSlot = -1;
      R.curRegLine = 0;
      if (!ok) return false;
    }
  }
  R.elementOps += n;
  return true;
}

/// Arithmetic, mov, cvt: read every source of every atom element, then write; false after a
/// fatal fault.
bool applyArithmetic(ApplyCursor& c) {
  const ir::TileApply& a = c.a;
  Thread& t = c.t;
  Runner& R = c.R;
  const int instr = c.instr;
  const int nops = static_cast<int>(a.operands.size());
  const PtxInstruction& ins = a.instr;
  const int64_t n = c.atomOf(0);
  uint64_t results[16];
  Resolved dsts[16];
  if (n > 16) {
    R.fault("unsupported", "E0751", instr, "atoms wider than 16 elements are not simulated", true);
    return false;
  }
  if (nops - 1 > 4) {
    R.fault("unsupported", "E0751", instr,
            "instructions with more than 4 sources are not simulated", true);
    return false;
  }
  for (int64_t k = 0; k < n; ++k) {
    uint64_t srcs[4] = {};
    const int nsrc = nops - 1;
    for (int i = 1; i <= nsrc; ++i) {
      const ir::TileOperand& op = a.operands[i];
      if (op.isScalar) {
        if (!op.scalar) continue;
        srcs[i - 1] = valueToBits(R.eval(*op.scalar, t, t.vars, instr), op.scalar->dtype);
        continue;
      }
      Resolved rr;
      if (!c.regElem(i, c.atomOf(i) > 1 ? k : 0, rr)) return false;
      uint64_t bits = 0;
      const int64_t eb = ir::dtypeBytes(op.tensor.dtype);
      if (!R.loadElem(t, op.tensor, rr.m, eb, reinterpret_cast<uint8_t*>(&bits), instr, 1))
        return false;
      srcs[i - 1] = bits;
    }
    std::string why;
    if (!execPtx(ins, std::span<const uint64_t>(srcs, nsrc), results[k], &why)) {
      R.fault("unsupported", "E0751", instr, why, true);
      return false;
    }
    if (!c.regElem(0, k, dsts[k])) return false;
  }
  const ir::TensorRef& dref = a.operands[0].tensor;
  const int64_t deb = ir::dtypeBytes(dref.dtype);
  for (int64_t k = 0; k < n; ++k)
    if (!R.storeElem(t, dref, dsts[k].m, deb, reinterpret_cast<const uint8_t*>(&results[k]), instr,
                     1))
      return false;
  R.elementOps += n;
  return true;
}

}  // namespace

void Runner::execApply(const ir::TileApply& a, Thread& t, int instr) {
  if (a.pred) {
    const Value p = eval(*a.pred, t, t.vars, instr);
    if ((ir::isFloat(a.pred->dtype) ? p.f != 0 : p.i != 0) == false) return;
  }
  ApplyCursor c{*this, a, t, instr, ir::groupCoord(a.scope, t.tid), 0, 0, {}};
  const std::vector<int64_t>& g = c.g;
  const int ng = c.ng = static_cast<int>(a.group.size());
  for (int d = 0; d < ng && d < static_cast<int>(g.size()); ++d)
    if (g[d] >= a.group[d]) return;  // outside the active range of the scope
  const int nr = c.nr = static_cast<int>(a.repeat.size());
  int64_t reps = 1;
  for (auto e : a.repeat) reps *= e;
  const int nops = static_cast<int>(a.operands.size());
  if (nops == 0) return;
  const PtxInstruction& ins = a.instr;
  const bool isLd = ins.family == PtxFamily::Ld, isSt = ins.family == PtxFamily::St;
  if (ng + nr > ir::kMaxTensorRank) {
    fault("internal", "E0750", instr,
          "a tile operation over more than " + std::to_string(ir::kMaxTensorRank) + " dimensions",
          true);
    return;
  }
  for (const auto& op : a.operands)
    if (!op.isScalar && op.tensor.shape.size() > static_cast<size_t>(ir::kMaxTensorRank)) {
      fault("internal", "E0750", instr,
            "operand '" + op.tensor.text + "' has more than " + std::to_string(ir::kMaxTensorRank) +
                " dimensions",
            true);
      return;
    }

  c.rc.assign(nr, 0);
  // Work per instance: the atom elements it moves or computes.
  const int64_t unitsPerRep = std::max<int64_t>(1, c.atomOf(0));
  for (int64_t r = 0; r < reps && !fatal; ++r) {
    if (!charge(unitsPerRep, t, instr)) return;
    {  // row-major repeat coordinate
      int64_t x = r;
      for (int d = nr; d-- > 0;) {
        c.rc[d] = x % a.repeat[d];
        x /= a.repeat[d];
      }
    }
    const bool ok = ins.family == PtxFamily::CpAsync ? applyCpAsync(c)
                    : isLd || isSt                   ? applyLoadStore(c, r)
                                                     : applyArithmetic(c);
    if (!ok) return;
  }
}

void Runner::execEwise(const ir::TileEwise& e, Thread& t, int instr) {
  const std::vector<int64_t> g = ir::groupCoord(e.scope, t.tid);
  const int ng = static_cast<int>(e.group.size());
  for (int d = 0; d < ng && d < static_cast<int>(g.size()); ++d)
    if (g[d] >= e.group[d]) return;
  const int nr = static_cast<int>(e.repeat.size());
  int64_t reps = 1;
  for (auto x : e.repeat) reps *= x;
  if (ng + nr > ir::kMaxTensorRank) {
    fault("internal", "E0750", instr,
          "an ewise over more than " + std::to_string(ir::kMaxTensorRank) + " dimensions", true);
    return;
  }
  int64_t ops = 1, units = 1;  // elementOps (arithmetic nodes) and work units per element
  if (e.func >= 0 && e.func < static_cast<int>(funcOps.size())) {
    if (funcOps[e.func] < 0)
      funcOps[e.func] = std::max<int64_t>(1, bodyOps(program.functions[e.func].body));
    ops = funcOps[e.func];
    units = funcCost[e.func];
  }
  // Any number of inputs: on the stack up to 16, on the heap beyond (once per statement).
  const int nin = static_cast<int>(e.inputs.size());
  const FastRef* smallRefs[16] = {};
  Value smallArgs[16];
  std::vector<const FastRef*> bigRefs;
  std::vector<Value> bigArgs;
  if (nin > 16) {
    bigRefs.assign(nin, nullptr);
    bigArgs.resize(nin);
  }
  const FastRef** inRefs = nin > 16 ? bigRefs.data() : smallRefs;
  Value* argv = nin > 16 ? bigArgs.data() : smallArgs;
  for (int i = 0; i < nin; ++i)
    if (!e.inputs[i].isScalar) inRefs[i] = &fast(e.inputs[i].tensor);
  const FastRef& df = fast(e.dst);
  Coords c;
  for (int64_t r = 0; r < reps && !fatal; ++r) {
    if (!charge(units, t, instr)) return;
    c.rank = 0;
    for (int d = 0; d < ng && d < static_cast<int>(g.size()); ++d) c.c[c.rank++] = g[d];
    {
      int64_t x = r;
      for (int d = nr; d-- > 0;) {
        c.c[c.rank + d] = x % e.repeat[d];
        x /= e.repeat[d];
      }
      c.rank += nr;
    }
    for (int i = 0; i < nin; ++i) {
      const ir::TileOperand& op = e.inputs[i];
      if (op.isScalar) {
        if (op.scalar) argv[i] = eval(*op.scalar, t, t.vars, instr);
        continue;
      }
      const FastRef& f = *inRefs[i];
      Resolved rr;
      if (!resolve(f, c.c, c.rank, t, instr, rr)) return;
      if (f.hasThread && rr.thread != scopeOwner(e.scope, t.tid)) {
        fault("ownership", "E0752", instr,
              "ewise input '" + op.tensor.text + "' element belongs to thread " +
                  std::to_string(rr.thread) + ", not to the executing " + threadName(cta, t.tid),
              true);
        return;
      }
      uint64_t bits = 0;
      if (!loadElem(t, op.tensor, rr.m, f.elemBytes, reinterpret_cast<uint8_t*>(&bits), instr, 1))
        return;
      argv[i] = bitsToValue(bits, op.tensor.dtype);
    }
    const Value v = callFunction(e.func, argv, nin, t, instr);
    if (fatal) return;
    Resolved dr;
    if (!resolve(df, c.c, c.rank, t, instr, dr)) return;
    if (df.hasThread && dr.thread != scopeOwner(e.scope, t.tid)) {
      fault("ownership", "E0752", instr,
            "ewise destination '" + e.dst.text + "' element belongs to thread " +
                std::to_string(dr.thread) + ", not to the executing " + threadName(cta, t.tid),
            true);
      return;
    }
    const uint64_t bits = valueToBits(v, e.dst.dtype);
    if (!storeElem(t, e.dst, dr.m, df.elemBytes, reinterpret_cast<const uint8_t*>(&bits), instr, 1))
      return;
    elementOps += ops;
  }
}

void Runner::execStore(const ir::Stmt& s, Thread& t, int instr) {
  if (!s.tensor || !s.value) return;
  const ir::TensorRef& r = *s.tensor;
  const FastRef& f = fast(r);
  int64_t coord[ir::kMaxTensorRank] = {};
  if (s.indices.size() > static_cast<size_t>(ir::kMaxTensorRank)) {
    fault("internal", "E0750", instr,
          "a store of more than " + std::to_string(ir::kMaxTensorRank) + " indices", true);
    return;
  }
  const int rank = static_cast<int>(s.indices.size());
  for (int d = 0; d < rank; ++d) coord[d] = eval(*s.indices[d], t, t.vars, instr).i;
  for (int d = 0; d < rank; ++d) {
    const int64_t ext = d < static_cast<int>(r.shape.size()) ? r.shape[d] : 1;
    if (coord[d] < 0 || coord[d] >= ext) {
      fault("oob", r.scope == ir::MemScope::Global ? "E0710" : "E0711", instr,
            "index " + std::to_string(coord[d]) + " is out of bounds for dimension " +
                std::to_string(d) + " of '" + r.text + "' with extent " + std::to_string(ext) +
                " in " + threadName(cta, t.tid),
            true);
      return;
    }
  }
  const Value v = castTo(eval(*s.value, t, t.vars, instr), s.value->dtype, r.dtype);
  Resolved res;
  if (!resolve(f, coord, rank, t, instr, res)) return;
  const uint64_t bits = valueToBits(v, r.dtype);
  if (r.scope == ir::MemScope::Shared)
    recordShared(t, instr, 0, 0, sharedByte(r, res.m), f.elemBytes, r, true);
  storeElem(t, r, res.m, f.elemBytes, reinterpret_cast<const uint8_t*>(&bits), instr, f.elemBytes);
  ++elementOps;
}

}  // namespace tirx::sim
