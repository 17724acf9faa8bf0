// Per-element legality of a tile operation, by enumeration (all shapes and launches are static,
// D-1): for every executing thread of the scope's group, every repeat coordinate and every atom
// element, resolve each tensor operand and check
//   - ownership (spec §2.3 rule 2): a register element lands on the executing thread (thread axes
//     normalised with tx = 32·warpid + laneid, ...); at scope="thread" it must not depend on
//     thread axes; replicated layouts are sources only (OPEN-5);
//   - distinct destination slots across repeats (rule 4) and distinct store addresses across
//     threads;
//   - memory atoms consecutive and aligned to N·width/8 bytes (rule 5), with dynamic region
//     starts proven through their known divisor (loMultiple).
// The evaluation uses a flattened copy of the layout (no maps) so that a 256-element tile costs
// microseconds.
#include <algorithm>
#include <numeric>
#include <unordered_set>

#include "core/sema/sema_internal.h"

namespace tirx::sema {

namespace {

std::string coordText(const std::vector<int64_t>& c) {
  std::string out = "(";
  for (size_t i = 0; i < c.size(); ++i) out += (i ? ", " : "") + std::to_string(c[i]);
  return out + (c.size() == 1 ? ",)" : ")");
}

/// A TensorRef flattened for fast evaluation: (thread, m) of a coordinate.
struct FastRef {
  struct It {
    int64_t extent = 1, stride = 0;
    int kind = 2;  ///< 0: memory slot m, 1: thread axis (weight), 2: ignored
    int64_t weight = 0;
  };
  std::vector<int64_t> layoutShape;
  std::vector<int> dimMap;
  std::vector<int64_t> lo;
  std::vector<It> shard, replica;
  int64_t mOffset = 0, tOffset = 0;
  bool hasThread = false, hasZeroStride = false;
  int64_t replicaCount = 1;

  static It classify(const Iter& it) {
    It r;
    r.extent = it.extent;
    r.stride = it.stride;
    if (it.axis == "m") {
      r.kind = 0;
    } else if (axisKind(it.axis) == AxisKind::Thread && threadAxisWeight(it.axis) > 0) {
      r.kind = 1;
      r.weight = threadAxisWeight(it.axis);
    }
    return r;
  }

  explicit FastRef(const ir::TensorRef& t, const std::vector<int64_t>* loOverride = nullptr) {
    layoutShape = t.layoutShape;
    dimMap = t.dimMap;
    lo.assign(layoutShape.size(), 0);
    for (size_t d = 0; d < layoutShape.size(); ++d) {
      if (loOverride)
        lo[d] = (*loOverride)[d];
      else if (d < t.lo.size() && t.lo[d])
        lo[d] = constValue(*t.lo[d]).value_or(0);
    }
    for (const auto& it : t.layout.shard) {
      shard.push_back(classify(it));
      if (shard.back().kind == 1 && it.extent > 1 && it.stride != 0) hasThread = true;
      if (shard.back().kind == 0 && it.extent > 1 && it.stride == 0) hasZeroStride = true;
    }
    for (const auto& it : t.layout.replica) {
      replica.push_back(classify(it));
      replicaCount *= std::max<int64_t>(1, it.extent);
      if (replica.back().kind == 1 && it.extent > 1) hasThread = true;
    }
    for (const auto& [axis, v] : t.layout.offset) {
      if (axis == "m")
        mOffset += v;
      else if (axisKind(axis) == AxisKind::Thread)
        tOffset += v * threadAxisWeight(axis);
    }
    if (tOffset != 0) hasThread = true;
    mOffset += t.elemOffset;
  }

  /// Base (non-replica) coordinate of `coord` (in the ref's own shape).
  void eval(const int64_t* coord, int64_t& thread, int64_t& m) const {
    int64_t flat = 0;
    for (size_t d = 0; d < layoutShape.size(); ++d) {
      const int src = dimMap[d];
      flat = flat * layoutShape[d] + lo[d] + (src >= 0 ? coord[src] : 0);
    }
    thread = tOffset;
    m = mOffset;
    for (size_t k = shard.size(); k-- > 0;) {
      const It& it = shard[k];
      int64_t c;
      if (k == 0) {
        c = flat;
      } else {
        c = flat % it.extent;
        flat /= it.extent;
      }
      if (it.kind == 0)
        m += c * it.stride;
      else if (it.kind == 1)
        thread += c * it.stride * it.weight;
    }
  }

  /// Thread and slot of replica combination `r` added to a base.
  void replicaDelta(int64_t r, int64_t& thread, int64_t& m) const {
    thread = 0;
    m = 0;
    for (size_t k = replica.size(); k-- > 0;) {
      const It& it = replica[k];
      const int64_t c = r % it.extent;
      r /= it.extent;
      if (it.kind == 0)
        m += c * it.stride;
      else if (it.kind == 1)
        thread += c * it.stride * it.weight;
    }
  }
};

/// One operand of a tile op being enumerated: its tensor (or the strides proxy), the coordinate of
/// (thread, repeat, atom element) and what the checks below report with.
struct OperandWalk {
  const Analyzer::OperandCheck& oc;
  const ir::TensorRef& t;
  FastRef& f;
  std::vector<int64_t>& coord;
  const std::string& opText;
  ir::ExecScope scope;
  size_t gr;
  int64_t groupThreads, repeats;
  int atom;
  bool hasAtomAxis;

  /// The coordinate of atom element `a` of repeat `r` issued by thread `tid`.
  void set(int64_t tid, int64_t r, int64_t a) {
    const size_t rank = t.shape.size();
    // The group coordinate of ir::groupCoord, without allocating.
    if (gr == 1) {
      coord[0] = tid % 32;
    } else if (gr == 2) {
      coord[0] = scope == ir::ExecScope::Warpgroup ? (tid / 32) % 4 : tid / 32;
      coord[1] = tid % 32;
    }
    const size_t repEnd = hasAtomAxis ? rank - 1 : rank;
    for (size_t i = repEnd; i-- > gr;) {
      const int64_t e = t.shape[i];
      coord[i] = r % e;
      r /= e;
    }
    if (hasAtomAxis) coord[rank - 1] = a;
  }
};

/// A register operand: every element owned by the thread that issues it (E0171, E0172), a
/// destination neither replicated (E0179) nor writing one slot twice (E0173).
void checkRegisterOperand(Analyzer& A, OperandWalk& w) {
  const Analyzer::OperandCheck& oc = w.oc;
  const ir::TensorRef& t = w.t;
  FastRef& f = w.f;
  std::vector<int64_t>& coord = w.coord;
  auto setCoord = [&w](int64_t tid, int64_t r, int64_t a) { w.set(tid, r, a); };
  const std::string& opText = w.opText;
  const ir::ExecScope scope = w.scope;
  const std::string scopeName(ir::execScopeName(scope));
  const int64_t groupThreads = w.groupThreads, repeats = w.repeats;
  const int atom = w.atom;
  if (scope == ir::ExecScope::Thread && f.hasThread) {
    auto& d = A.error("E0172", oc.op.span,
                      "register operand '" + t.text + "' of " + opText +
                          " is distributed over threads by " + t.layout.toString() +
                          ", but scope=\"thread\" lets every thread issue the whole tile");
    A.note(
        d, oc.op.span,
        "use scope=\"warp\" or scope=\"cta\" so that the group prefix selects the owning thread");
    return;
  }
  if (f.replicaCount > 1 && oc.isDst) {
    auto& d = A.error("E0179", oc.op.span,
                      "destination '" + t.text + "' has a replicated layout (" +
                          t.layout.toString() + "); only sources may be replicated");
    A.note(d, oc.op.span,
           "decision OPEN-5: every replica holder would have to write the same value");
    return;
  }
  std::vector<std::pair<int64_t, int64_t>> written;  // (slot, r * atom + a) of this thread
  written.reserve(repeats * atom);
  bool reported = false;
  for (int64_t tid = 0; tid < groupThreads && !reported; ++tid) {
    written.clear();
    for (int64_t r = 0; r < repeats && !reported; ++r) {
      for (int64_t a = 0; a < atom && !reported; ++a) {
        setCoord(tid, r, a);
        int64_t owner, slot;
        f.eval(coord.data(), owner, slot);
        if (f.hasThread) {
          bool owned = owner == tid;
          for (int64_t rc = 1; !owned && rc < f.replicaCount; ++rc) {
            int64_t dt, dm;
            f.replicaDelta(rc, dt, dm);
            if (owner + dt == tid) {
              owned = true;
              slot += dm;
            }
          }
          if (!owned) {
            auto& d =
                A.error("E0171", oc.op.span,
                        "operand '" + t.text + "' of " + opText + ": element " + coordText(coord) +
                            " belongs to " + A.describeThread(owner) + ", but scope=\"" +
                            scopeName + "\" has it issued by " + A.describeThread(tid));
            A.note(d, oc.op.span,
                   "the layout " + t.layout.toString() +
                       " must map group coordinate (warp, lane) to the thread that executes it");
            reported = true;
            break;
          }
        }
        if (oc.isDst) written.emplace_back(slot, r * atom + a);
      }
    }
    if (reported || written.size() < 2) continue;
    std::sort(written.begin(), written.end());
    for (size_t i = 1; i < written.size(); ++i) {
      if (written[i].first != written[i - 1].first) continue;
      setCoord(tid, written[i].second / atom, written[i].second % atom);
      auto& d = A.error("E0173", oc.op.span,
                        "destination slots overlap: two elements of '" + t.text + "' written by " +
                            opText + " map to register slot " + std::to_string(written[i].first) +
                            " of " + A.describeThread(tid));
      const std::vector<int64_t> second = coord;
      setCoord(tid, written[i - 1].second / atom, written[i - 1].second % atom);
      A.note(d, oc.op.span,
             "elements " + coordText(coord) + " and " + coordText(second) + " share the slot");
      if (f.hasZeroStride)
        A.note(d, oc.op.span, "a zero-stride (broadcast) view is read-only (decision OPEN-7)");
      reported = true;
      break;
    }
  }
}

/// A memory operand: atoms aligned to their size (E0175, E0182 for dynamic starts) and contiguous
/// (E0174), inside the buffer (E0137), no element stored by two threads (E0181).
void checkMemoryOperand(Analyzer& A, OperandWalk& w, const ir::Buffer& buf, bool symStrides) {
  const Analyzer::OperandCheck& oc = w.oc;
  const ir::TensorRef& t = w.t;
  FastRef& f = w.f;
  std::vector<int64_t>& coord = w.coord;
  auto setCoord = [&w](int64_t tid, int64_t r, int64_t a) { w.set(tid, r, a); };
  const std::string& opText = w.opText;
  const ir::ExecScope scope = w.scope;
  const std::string scopeName(ir::execScopeName(scope));
  const int64_t groupThreads = w.groupThreads, repeats = w.repeats;
  const int atom = w.atom;
  const int elemBytes = ir::dtypeBytes(t.dtype);
  const int64_t atomBytes = int64_t(atom) * elemBytes;
  if (atom > 1 && buf.alignBytes % atomBytes != 0) {
    auto& d =
        A.error("E0175", oc.op.span,
                "'" + buf.name + "' is only known to be " + std::to_string(buf.alignBytes) +
                    "-byte aligned, but " + opText + " accesses " + std::to_string(atomBytes) +
                    "-byte atoms that must be aligned to their size");
    A.note(d, buf.span,
           "declare align=" + std::to_string(atomBytes) + " (or more) on '" + buf.name + "'");
    return;
  }
  if (symStrides && atom > 1)
    A.requireExtentMultiple(oc.op.tensor.buffer, atomBytes, opText, oc.op.span);
  // Dynamic region starts: prove that moving the start by its known divisor keeps alignment.
  bool dynOk = true;
  if (t.hasDynamicOffset()) {
    for (size_t d = 0; d < t.lo.size() && dynOk; ++d) {
      if (!t.lo[d] || constValue(*t.lo[d])) continue;
      std::vector<int64_t> base(t.layoutShape.size(), 0), moved;
      for (size_t j = 0; j < base.size(); ++j)
        if (j < t.lo.size() && t.lo[j]) base[j] = constValue(*t.lo[j]).value_or(0);
      moved = base;
      const int64_t mult = std::max<int64_t>(1, t.loMultiple[d]);
      moved[d] += mult;
      std::vector<int64_t> zero(t.shape.size(), 0);
      int64_t th0, m0, th1, m1;
      FastRef(t, &base).eval(zero.data(), th0, m0);
      FastRef(t, &moved).eval(zero.data(), th1, m1);
      if (atom > 1 && ((m1 - m0) * elemBytes) % atomBytes != 0) {
        auto& diag = A.error("E0182", t.lo[d]->span,
                             "cannot prove that the atoms of '" + t.text + "' stay " +
                                 std::to_string(atomBytes) +
                                 "-byte aligned: this start is only known to be a multiple of " +
                                 std::to_string(mult));
        A.note(diag, oc.op.span,
               "a step of " + std::to_string(mult) + " moves the atom by " +
                   std::to_string((m1 - m0) * elemBytes) +
                   " bytes; write the start as a multiple of " + std::to_string(atom) +
                   " elements");
        dynOk = false;
      }
    }
  }
  if (!dynOk) return;
  const bool staticStart = !t.hasDynamicOffset();
  std::unordered_set<int64_t> stored;
  bool reported = false;
  for (int64_t tid = 0; tid < groupThreads && !reported; ++tid) {
    for (int64_t r = 0; r < repeats && !reported; ++r) {
      int64_t m0 = 0;
      for (int64_t a = 0; a < atom && !reported; ++a) {
        setCoord(tid, r, a);
        int64_t th, m;
        f.eval(coord.data(), th, m);
        if (a == 0) {
          m0 = m;
          if ((m * elemBytes) % atomBytes != 0) {
            auto& d = A.error("E0175", oc.op.span,
                              "the atom of '" + t.text + "' at " + coordText(coord) +
                                  " starts at element offset " + std::to_string(m) + " (" +
                                  std::to_string(m * elemBytes) + " bytes), which is not " +
                                  std::to_string(atomBytes) + "-byte aligned");
            A.note(d, oc.op.span,
                   opText + " needs every atom start aligned to " + std::to_string(atomBytes) +
                       " bytes");
            reported = true;
            break;
          }
        } else if (m != m0 + a) {
          auto& d = A.error("E0174", oc.op.span,
                            "the atom of '" + t.text + "' is not contiguous: element " +
                                coordText(coord) + " is at offset " + std::to_string(m) +
                                ", expected " + std::to_string(m0 + a));
          A.note(d, oc.op.span,
                 opText + " needs its " + std::to_string(atom) +
                     " atom elements consecutive in memory");
          reported = true;
          break;
        }
        if (staticStart && (m < 0 || m >= buf.storageElems)) {
          auto& d = A.error("E0137", oc.op.span,
                            "element " + coordText(coord) + " of '" + t.text + "' is at offset " +
                                std::to_string(m) + ", outside '" + buf.name + "' (" +
                                std::to_string(buf.storageElems) + " elements)");
          A.note(d, buf.span, "'" + buf.name + "' is declared here");
          reported = true;
          break;
        }
        if (oc.isDst && staticStart && scope != ir::ExecScope::Thread) {
          if (!stored.insert(m).second) {
            auto& d = A.error("E0181", oc.op.span,
                              "two threads of the " + scopeName + " store to element offset " +
                                  std::to_string(m) + " of '" + buf.name + "' (" + opText + ")");
            A.note(
                d, oc.op.span,
                "the second store comes from " + A.describeThread(tid) + " at " + coordText(coord));
            reported = true;
            break;
          }
        }
      }
    }
  }
}

}  // namespace

ir::TensorRef Analyzer::stridesProxy(const ir::TensorRef& t) const {
  ir::TensorRef p = t;
  for (auto& e : p.layoutShape)
    if (e == ir::kSymbolicInnerExtent) e = int64_t{1} << 16;
  for (auto& e : p.shape)
    if (e == ir::kSymbolicInnerExtent) e = int64_t{1} << 16;
  p.layout = TileLayout::rowMajor(p.layoutShape);  // views of such tensors are refused (E0292)
  return p;
}

void Analyzer::requireExtentMultiple(int buffer, int64_t atomBytes, const std::string& opText,
                                     SourceSpan span) {
  ir::Buffer& b = m_body->kernel->buffers[size_t(buffer)];
  for (size_t d = 1; d < b.shapeVars.size() && d < b.extentMultiple.size(); ++d) {
    if (b.shapeVars[d] < 0) continue;
    // Every stride before dimension d is a multiple of extent * (elements after d).
    int64_t unitBytes = ir::dtypeBytes(b.dtype);
    for (size_t e = d + 1; e < b.shape.size(); ++e) unitBytes *= b.shape[e];
    const int64_t need = atomBytes / std::gcd(atomBytes, unitBytes);
    if (need <= 1 || b.extentMultiple[d] % need == 0) continue;
    b.extentMultiple[d] = std::lcm(b.extentMultiple[d], need);
    b.extentMultipleWhy[d] = opText + " at line " + std::to_string(span.line) + " (" +
                             std::to_string(atomBytes) + "-byte atoms)";
  }
}

void Analyzer::checkOwnershipAndMemory(const std::string& opText, ir::ExecScope scope,
                                       const std::vector<int64_t>& group,
                                       const std::vector<int64_t>& repeat,
                                       std::vector<OperandCheck>& ops) {
  const ir::Kernel& k = *m_body->kernel;
  const int64_t groupThreads = scope == ir::ExecScope::Thread      ? 1
                               : scope == ir::ExecScope::Warp      ? 32
                               : scope == ir::ExecScope::Warpgroup ? 128
                                                                   : m_body->blockThreads;
  const int64_t repeats = product(repeat);
  // Bound the work on pathological scripts; the seeds are a few hundred elements.
  int64_t work = 0;
  for (const auto& oc : ops)
    work += oc.op.isScalar ? 0 : groupThreads * repeats * std::max(1, oc.atom);
  if (work > (int64_t(1) << 22)) {
    // Unchecked here, but the calls must still keep the atoms' rows aligned.
    for (const auto& oc : ops)
      if (!oc.op.isScalar && oc.isMemory && oc.atom > 1 &&
          ir::hasSymbolicStrides(k.buffers[size_t(oc.op.tensor.buffer)]))
        requireExtentMultiple(oc.op.tensor.buffer,
                              int64_t(oc.atom) * ir::dtypeBytes(oc.op.tensor.dtype), opText,
                              oc.op.span);
    warning("W0101", ops.front().op.span,
            "operation too large to check element by element (" + std::to_string(work) +
                " elements); ownership and alignment are not verified");
    return;
  }
  const size_t gr = group.size();
  std::vector<int64_t> coord;
  for (auto& oc : ops) {
    if (oc.op.isScalar) continue;
    const ir::Buffer& buf = k.buffers[oc.op.tensor.buffer];
    // Symbolic strides (a symbolic non-leading extent): checked on a copy whose symbolic extent is
    // 2^16, so that its strides keep every atom aligned; the multiple of the extent that makes
    // that true is required of every call instead (stridesProxy, E0772 when a call breaks it).
    ir::TensorRef proxy;
    const bool symStrides = ir::hasSymbolicStrides(buf);
    if (symStrides) proxy = stridesProxy(oc.op.tensor);
    const ir::TensorRef& t = symStrides ? proxy : oc.op.tensor;
    FastRef f(t);
    const int atom = std::max(1, oc.atom);
    const bool hasAtomAxis = oc.atom > 0;
    coord.assign(t.shape.size(), 0);
    OperandWalk w{oc, t, f, coord, opText, scope, gr, groupThreads, repeats, atom, hasAtomAxis};
    if (oc.isMemory)
      checkMemoryOperand(*this, w, buf, symStrides);
    else
      checkRegisterOperand(*this, w);
  }
}

}  // namespace tirx::sema
