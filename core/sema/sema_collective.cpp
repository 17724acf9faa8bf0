// Legality and IR of the matrix warp collectives (spec/TIRX-TENSOR-CORES.md §1.1, §6, §7):
// ldmatrix / stmatrix .m8n8 .b16 and mma.sync m16n8k8 / m16n8k16. The lane is inside the atom, so
// an operand is (*group, *repeat, *atom) with the group the warps of the scope (none at "warp",
// (4,) at "warpgroup", (warps,) at "cta") and the atom the instruction's (ptx_collective.cpp):
// registers (count, 8, 4) words, shared rows (count, 8, 8) halves or (count, 8, 4) words, mma
// A (16, k/2) and B (8, k/2) words, C/D (16, 8) floats. Checked by enumeration (static shapes):
//   - every register element is held by the lane the fragment map (core/ptx/fragments.h) names
//     (E0263, naming the element, its lane and the lane needed) and one register of the
//     instruction is one slot in every lane (E0264, else codegen could not name it);
//   - destination slots are distinct (E0173); replicated layouts are refused;
//   - each ldmatrix/stmatrix row is 16 contiguous bytes (E0265), 16-byte aligned (E0266, dynamic
//     starts through their known divisor, E0182) and inside the tile (E0137);
//   - mma repeats: D and C are (m, n), A (m, k), B (n, k), one instruction per (m, n, k), K
//     innermost (decision TC-11); inconsistent extents are E0273.
#include <algorithm>
#include <set>

#include "core/layout/compiled_layout.h"
#include "core/ptx/fragments.h"
#include "core/sema/sema_internal.h"

namespace tirx::sema {

namespace {

std::string shapeText(const std::vector<int64_t>& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

std::string joinTypes(const std::vector<std::string>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i)
    out += (i ? (i + 1 == v.size() ? " or " : ", ") : "") + v[i];
  return out;
}

/// Odometer over a shape (row-major); `f(coord)` returns false to stop.
template <class F>
void forEachCoord(const std::vector<int64_t>& shape, F&& f) {
  std::vector<int64_t> c(shape.size(), 0);
  if (product(shape) == 0) return;
  while (true) {
    if (!f(c)) return;
    size_t d = shape.size();
    while (d > 0) {
      --d;
      if (++c[d] < shape[d]) break;
      c[d] = 0;
      if (d == 0) return;
    }
    if (shape.empty()) return;
  }
}

/// The fragment fact of register operand `t` (operand `index`, spec `spec`) of a collective: every
/// atom word of every warp and repeat, split into its elements in the instruction's frame (the
/// map's holder names the element through mmaElement / ldmatrixSource), with the thread and slot
/// the tensor's layout gives it. Records at most kMaxFragmentCells cells; counts every mismatch.
FragmentFact fragmentFact(const PtxInstruction& instr, const PtxOperandSpec& spec, int index,
                          const ir::TensorRef& t, const frag::FragmentMap& map, int64_t warps,
                          bool grouped, const std::vector<int64_t>& rep) {
  const bool isMma = instr.family == PtxFamily::Mma;
  const frag::MmaShape shape =
      instr.mmaK == 16 ? frag::MmaShape::M16N8K16 : frag::MmaShape::M16N8K8;
  const frag::MmaOperand which = index == 1   ? frag::MmaOperand::A
                                 : index == 2 ? frag::MmaOperand::B
                                              : frag::MmaOperand::C;
  const frag::MatrixShape ms{instr.matrices, instr.trans};
  FragmentFact f;
  f.opcode = instr.opcode;
  f.role = spec.name;
  f.letter = isMma ? spec.name[0] : 'r';
  f.operandIndex = index;
  f.tensor = t.text;
  f.mapName = map.name;
  f.mapLayout = map.layout;
  f.halves = isMma && which == frag::MmaOperand::C ? 1 : 2;
  if (isMma) {
    const frag::Coord e = frag::mmaElementShape(shape, which);
    f.rows = e.row;
    f.cols = e.col;
  } else {
    f.rows = 8 * instr.matrices;
    f.cols = 8;
  }
  f.warps = static_cast<int>(warps);
  f.repeat = rep;
  RefEval ev(t);
  const bool threaded = ev.cl.hasThreadAxes();
  const int64_t reps = product(rep);
  const int64_t words = int64_t(map.rows) * map.cols;
  std::vector<int64_t> c(t.shape.size(), 0);
  for (int64_t w = 0; w < warps; ++w)
    for (int64_t r = 0; r < reps; ++r)
      for (int64_t a = 0; a < words; ++a) {
        size_t k = 0;
        if (grouped) c[k++] = w;
        for (int64_t x : unflatten(r, rep)) c[k++] = x;
        // the atom axes are the map's words row-major (ldmatrix (count, 8, 4) flattens to (8·count,
        // 4))
        int64_t rest = a;
        for (size_t d = t.shape.size(); d-- > k;) {
          c[d] = rest % t.shape[d];
          rest /= t.shape[d];
        }
        const frag::Holder& h = map.holders[size_t(a)];
        const CompiledLayout::Point p = ev.at(c);
        const int64_t need = 32 * w + h.thread;
        for (int half = 0; half < f.halves; ++half) {
          FragmentCell cell;
          cell.warp = static_cast<int>(w);
          cell.repeat = static_cast<int>(r);
          cell.needLane = h.thread;
          cell.needReg = h.reg;
          cell.needHalf = f.halves == 2 ? half : 0;
          cell.element = f.halves == 2 ? 2 * h.reg + half : h.reg;
          if (isMma) {
            const frag::Coord e = frag::mmaElement(shape, which, h.thread, cell.element);
            cell.row = e.row;
            cell.col = e.col;
          } else {
            const frag::MatrixElement e = frag::ldmatrixSource(ms, h.thread, h.reg, half);
            cell.row = 8 * e.matrix + e.row;
            cell.col = e.col;
          }
          cell.haveThread = threaded ? p.thread : -1;
          cell.haveSlot = p.m;
          // at warp scope the layout's thread is the lane; in a group, the linear thread
          cell.mismatch = threaded && p.thread != (grouped ? need : int64_t(h.thread));
          if (cell.mismatch) ++f.mismatches;
          if (int64_t(f.cells.size()) < kMaxFragmentCells)
            f.cells.push_back(cell);
          else
            f.truncated = true;
        }
      }
  return f;
}
}  // namespace

/// One operand of a matrix collective as checked: its expression, tensor, PTX operand and its
/// atom and repeat shapes.
struct Analyzer::CollectiveOperand {
  const ast::Expr* expr = nullptr;
  std::shared_ptr<const ir::TensorRef> ref;
  const PtxOperandSpec* spec = nullptr;
  std::vector<int64_t> atom, rep;
};

/// Operand `i` of a matrix collective: a static tensor in the right memory, with the bit width and
/// dtype the instruction names and the shape (group, repeat..., atom); false after an error.
bool Analyzer::collectiveOperand(const ast::Expr& call, const PtxInstruction& instr, int i,
                                 const std::vector<int64_t>& group, ir::ExecScope scope,
                                 CollectiveOperand& o) {
  const std::string& op = instr.opcode;
  const bool isMma = instr.family == PtxFamily::Mma;
  const size_t gr = group.size();
  const std::string scopeName(ir::execScopeName(scope));
  o.expr = call.args[i + 2].get();
  o.spec = &instr.operands[i];
  const ast::Expr& oe = *o.expr;
  const PtxOperandSpec& spec = *o.spec;
  const bool mem = spec.role == OperandRole::Address;
  if (!isTensorExpr(oe)) {
    if (oe.kind == ast::ExprKind::Name && !lookup(oe.text))
      unknownName(oe);
    else
      error("E0169", oe.span,
            "operand '" + spec.name + "' of " + op + " must be " +
                (mem ? std::string("a shared tensor (the rows of the matrices)")
                     : std::string("a register tensor (a fragment)")) +
                ", found '" + text(oe.span) + "'");
    return false;
  }
  o.ref = lowerTensor(oe);
  if (o.ref && !staticOperand(*o.ref, oe.span)) o.ref = nullptr;
  if (!o.ref) {
    return false;
  }
  const ir::TensorRef& t = *o.ref;
  const std::string dtn(ir::dtypeName(t.dtype));
  const ir::MemScope want = mem ? ir::MemScope::Shared : ir::MemScope::Local;
  if (t.scope != want) {
    auto& d = error(
        "E0176", oe.span,
        "operand '" + spec.name + "' of " + op + " is " +
            (mem ? std::string("the shared-memory operand") : std::string("a register operand")) +
            ", but '" + t.text + "' is a " + std::string(ir::memScopeName(t.scope)) + " tensor");
    note(d, call.args[1]->span,
         std::string("operands come destination first: ") +
             (instr.family == PtxFamily::Ldmatrix   ? "registers, shared"
              : instr.family == PtxFamily::Stmatrix ? "shared, registers"
                                                    : "d, a, b, c"));
    return false;
  }
  const int bits = ir::dtypeBits(t.dtype);
  o.atom = spec.atomShape;
  if (mem) {
    if (bits == 32) {
      o.atom.back() = 4;  // a 32-bit word view of the rows
    } else if (bits != 16) {
      auto& d = error("E0167", oe.span,
                      "operand '" + spec.name + "' of " + op +
                          " needs 16-bit elements (.b16) or their 32-bit word view, but '" +
                          t.text + "' holds " + dtn + " (" + std::to_string(bits) + "-bit)");
      note(d, oe.span, "accepted: " + joinTypes(spec.dtypes) + ", or uint32 words of them");
      return false;
    }
  } else {
    if (bits != spec.bits) {
      auto& d =
          error("E0167", oe.span,
                "operand '" + spec.name + "' of " + op + " needs " + std::to_string(spec.bits) +
                    "-bit registers (" + spec.ptxType + "), but '" + t.text + "' holds " + dtn +
                    " (" + std::to_string(bits) + "-bit)");
      if (bits == 16)
        note(d, oe.span,
             "view two 16-bit values as one 32-bit register: " + t.text + ".view(\"uint32\")");
      return false;
    }
    if (std::find(spec.dtypes.begin(), spec.dtypes.end(), dtn) == spec.dtypes.end()) {
      auto& d = error("E0168", oe.span,
                      "operand '" + spec.name + "' of " + op + " (" + spec.ptxType + ") needs a " +
                          joinTypes(spec.dtypes) + " register, found " + dtn);
      note(d, oe.span,
           "reinterpret the bits with a dtype view: " + t.text + ".view(\"" + spec.dtypes.front() +
               "\")");
      return false;
    }
  }
  const size_t ar = o.atom.size();
  if (t.shape.size() < gr + ar) {
    error("E0163", oe.span,
          "operand '" + t.text + "' of " + op + " has shape " + shapeText(t.shape) + "; scope=\"" +
              scopeName + "\" needs (" + (gr ? "warps " + shapeText(group) + ", " : std::string()) +
              "repeat..., atom " + shapeText(o.atom) + ")");
    return false;
  }
  const std::vector<int64_t> lead(t.shape.begin(), t.shape.begin() + static_cast<long>(gr));
  if (lead != group) {
    auto& d = error("E0164", oe.span,
                    "operand '" + t.text + "' of " + op + " at scope=\"" + scopeName +
                        "\" needs a leading warp axis " + shapeText(group) + ", found " +
                        shapeText(lead));
    note(d, oe.span,
         "for warp collectives the lane is inside the atom; the group is one axis of warps (spec "
         "TC §1.1)");
    return false;
  }
  const std::vector<int64_t> tail(t.shape.end() - static_cast<long>(ar), t.shape.end());
  if (tail != o.atom) {
    auto& d = error("E0165", oe.span,
                    op + " needs the trailing atom axes " + shapeText(o.atom) + " in '" + t.text +
                        "', found " + shapeText(tail));
    note(d, oe.span,
         isMma ? "mma atoms: d and c (16, 8) floats, a (16, k/2) and b (8, k/2) 32-bit words"
               : "ldmatrix/stmatrix atoms: registers (count, 8, 4) words, shared (count, 8, 8) "
                 "halves or (count, 8, 4) words");
    return false;
  }
  o.rep.assign(t.shape.begin() + static_cast<long>(gr), t.shape.end() - static_cast<long>(ar));
  return true;
}

/// The repeat space of a matrix collective and the axes of it each operand spans: ldmatrix and
/// stmatrix repeat both sides alike, mma.sync over (m, n, k); false after an error (E0166, E0273).
bool Analyzer::collectiveRepeats(const PtxInstruction& instr,
                                 const std::vector<CollectiveOperand>& ops,
                                 std::vector<int64_t>& repeat,
                                 std::vector<std::vector<int>>& repeatAxes) {
  const std::string& op = instr.opcode;
  const bool isMma = instr.family == PtxFamily::Mma;
  const int n = static_cast<int>(ops.size());
  if (!isMma) {
    if (ops[0].rep != ops[1].rep) {
      auto& d =
          error("E0166", ops[1].expr->span,
                "repeat shape " + shapeText(ops[1].rep) + " of '" + ops[1].ref->text +
                    "' differs from " + shapeText(ops[0].rep) + " of '" + ops[0].ref->text + "'");
      note(d, ops[0].expr->span,
           "one " + op + " per repeat coordinate moves the same matrices on both sides");
      return false;
    }
    repeat = ops[0].rep;
    for (int i = 0; i < n; ++i)
      for (size_t d = 0; d < repeat.size(); ++d) repeatAxes[i].push_back(static_cast<int>(d));
  } else {
    // D, A, B, C index (m, n), (m, k), (n, k), (m, n) of the product space (m, n, k).
    static const int kAxes[4][2] = {{0, 1}, {0, 2}, {1, 2}, {0, 1}};
    static const char* kNames[3] = {"M", "N", "K"};
    int64_t ext[3] = {0, 0, 0};
    int from[3] = {-1, -1, -1};
    for (int i = 0; i < n; ++i) {
      const auto& r = ops[i].rep;
      if (r.size() != 0 && r.size() != 2) {
        auto& d = error("E0273", ops[i].expr->span,
                        "operand '" + ops[i].ref->text + "' of " + op + " has the repeat shape " +
                            shapeText(r) + "; expected none or two axes (" +
                            (i == 1   ? "M, K"
                             : i == 2 ? "N, K"
                                      : "M, N") +
                            ")");
        note(d, ops[i].expr->span,
             "mma.sync repeats over (m, n, k): d and c are (M, N, 16, 8), a (M, K, 16, k/2), b (N, "
             "K, 8, k/2)");
        return false;
      }
      for (int a = 0; a < 2; ++a) {
        const int axis = kAxes[i][a];
        const int64_t e = r.empty() ? 1 : r[a];
        if (!r.empty()) repeatAxes[i].push_back(axis);
        if (from[axis] < 0) {
          ext[axis] = e;
          from[axis] = i;
        } else if (ext[axis] != e) {
          auto& d = error("E0273", ops[i].expr->span,
                          "operand '" + ops[i].ref->text + "' of " + op + " repeats " +
                              kNames[axis] + " " + std::to_string(e) + " times, but '" +
                              ops[from[axis]].ref->text + "' " + std::to_string(ext[axis]));
          note(d, ops[from[axis]].expr->span,
               "d and c are (M, N, ...), a (M, K, ...), b (N, K, ...); one instruction per (m, n, "
               "k), K innermost");
          return false;
        }
      }
    }
    repeat = {ext[0], ext[1], ext[2]};
  }
  return true;
}

/// The shared operand of ldmatrix/stmatrix: each row 16 contiguous, aligned bytes inside its buffer
/// (before the swizzle, which moves whole 16-byte chunks, E0267 at the allocation); E0182, E0265,
/// E0266, E0137.
void Analyzer::checkCollectiveRows(const PtxInstruction& instr, const CollectiveOperand& o) {
  const std::string& op = instr.opcode;
  const ir::TensorRef& t = *o.ref;
  const size_t before = m_diags.size();
  // ---- shared rows: 16 contiguous, aligned bytes each (before the swizzle, which moves whole
  // 16-byte chunks, E0267 at the allocation) ----
  const ir::Buffer& buf = m_body->kernel->buffers[t.buffer];
  const int eb = ir::dtypeBytes(t.dtype);
  const int64_t rowElems = o.atom.back();
  if (t.hasDynamicOffset()) {
    std::vector<int64_t> base(t.layoutShape.size(), 0);
    for (size_t d = 0; d < base.size(); ++d)
      if (d < t.lo.size() && t.lo[d]) base[d] = constValue(*t.lo[d]).value_or(0);
    for (size_t d = 0; d < t.lo.size(); ++d) {
      if (!t.lo[d] || constValue(*t.lo[d])) continue;
      std::vector<int64_t> moved = base;
      const int64_t mult = std::max<int64_t>(1, t.loMultiple[d]);
      moved[d] += mult;
      const std::vector<int64_t> zero(t.shape.size(), 0);
      const int64_t delta = (RefEval(t, &moved).at(zero).m - RefEval(t, &base).at(zero).m) * eb;
      if (delta % 16 != 0) {
        auto& dg =
            error("E0182", t.lo[d]->span,
                  "cannot prove that the rows of '" + t.text +
                      "' stay 16-byte aligned: this start is only known to be a multiple of " +
                      std::to_string(mult));
        note(dg, o.expr->span,
             "a step of " + std::to_string(mult) + " moves the rows by " + std::to_string(delta) +
                 " bytes");
        break;
      }
    }
    if (m_diags.size() != before) return;
  }
  RefEval ev(t);
  std::vector<int64_t> rowShape(t.shape.begin(), t.shape.end() - 1);
  forEachCoord(rowShape, [&](const std::vector<int64_t>& rc) {
    std::vector<int64_t> c = rc;
    c.push_back(0);
    const int64_t m0 = ev.at(c).m;
    if ((m0 * eb) % 16 != 0) {
      auto& d = error("E0266", o.expr->span,
                      "row " + shapeText(rc) + " of '" + t.text + "' starts at byte " +
                          std::to_string(m0 * eb) + " of '" + buf.name +
                          "', which is not 16-byte aligned");
      note(d, o.expr->span,
           op + " reads each 8-element row as one 16-byte access from the address a lane provides");
      return false;
    }
    for (int64_t k = 1; k < rowElems; ++k) {
      c.back() = k;
      const int64_t m = ev.at(c).m;
      if (m != m0 + k) {
        auto& d = error("E0265", o.expr->span,
                        "row " + shapeText(rc) + " of '" + t.text +
                            "' is not 16 contiguous bytes: element " + std::to_string(k) +
                            " is at offset " + std::to_string(m) + ", expected " +
                            std::to_string(m0 + k));
        note(
            d, o.expr->span,
            "each matrix row is one 16-byte access; rows may sit anywhere, their elements may not");
        return false;
      }
    }
    if (!t.hasDynamicOffset() &&
        (m0 < 0 || m0 + rowElems > buf.storageElems * ir::dtypeBytes(buf.dtype) / eb)) {
      auto& d = error("E0137", o.expr->span,
                      "row " + shapeText(rc) + " of '" + t.text + "' is at offset " +
                          std::to_string(m0) + ", outside '" + buf.name + "'");
      note(d, buf.span, "'" + buf.name + "' is declared here");
      return false;
    }
    return true;
  });
}

/// A register operand of a matrix collective: every element in the lane the fragment map names,
/// each fragment register one slot in every lane, destination slots distinct (E0263, E0264, E0173).
void Analyzer::checkCollectiveFragment(const PtxInstruction& instr, const CollectiveOperand& o,
                                       int i, int64_t warps, bool grouped) {
  const std::string& op = instr.opcode;
  const bool isMma = instr.family == PtxFamily::Mma;
  const size_t gr = grouped ? 1 : 0;
  const ir::TensorRef& t = *o.ref;
  if (t.layout.hasReplica()) {
    auto& d = error("E0263", o.expr->span,
                    "fragment '" + t.text + "' of " + op + " has a replicated layout (" +
                        t.layout.toString() + ")");
    note(d, o.expr->span, "every fragment element is held by exactly one lane");
    return;
  }
  frag::FragmentMap map;
  if (isMma) {
    const frag::MmaShape shape =
        instr.mmaK == 16 ? frag::MmaShape::M16N8K16 : frag::MmaShape::M16N8K8;
    const frag::MmaOperand which = i == 1   ? frag::MmaOperand::A
                                   : i == 2 ? frag::MmaOperand::B
                                            : frag::MmaOperand::C;
    map = frag::mmaFragment(shape, which, frag::Units::Words);
  } else {
    map = frag::ldmatrixFragment(instr.matrices);
  }
  const int regs = map.slotCount;
  RefEval ev(t);
  const bool threaded = ev.cl.hasThreadAxes();
  const int64_t atomN = product(o.atom);
  std::vector<int64_t> c(t.shape.size(), 0);
  std::vector<int64_t> slotOfReg;  // per (rep, reg): the slot seen first
  std::vector<int> firstLane;
  bool reported = false;
  const int64_t reps = product(o.rep);
  slotOfReg.assign(size_t(reps * regs), INT64_MIN);
  firstLane.assign(size_t(reps * regs), -1);
  for (int64_t w = 0; w < warps && !reported; ++w) {
    for (int64_t r = 0; r < reps && !reported; ++r) {
      const std::vector<int64_t> rc = unflatten(r, o.rep);
      for (int64_t a = 0; a < atomN && !reported; ++a) {
        const std::vector<int64_t> ac = unflatten(a, o.atom);
        size_t k = 0;
        if (gr) c[k++] = w;
        for (int64_t x : rc) c[k++] = x;
        for (int64_t x : ac) c[k++] = x;
        const frag::Holder& h = map.holders[size_t(a)];
        const CompiledLayout::Point p = ev.at(c);
        const int64_t need = gr ? 32 * w + h.thread : h.thread;
        if (threaded && p.thread != need) {
          const std::string have =
              p.thread / 32 == need / 32 || !gr
                  ? "lane " + std::to_string(p.thread % 32) +
                        (p.thread >= 32 && !gr ? " of warp " + std::to_string(p.thread / 32) : "")
                  : describeThread(p.thread);
          auto& d = error("E0263", o.expr->span,
                          "operand '" + o.spec->name + "' of " + op + ": element " + shapeText(c) +
                              " of '" + t.text + "' is in " + have + ", the instruction needs " +
                              (gr ? describeThread(need) : "lane " + std::to_string(need)) +
                              " (register " + std::to_string(h.reg) + " of the " + map.name + ")");
          note(d, o.expr->span,
               "the layout " + t.layout.toString() +
                   " must give each atom element the lane of the fragment map; one that does: " +
                   map.layout + (gr ? " (with the warp axis in front)" : ""));
          reported = true;
          break;
        }
        const size_t key = size_t(r * regs + h.reg);
        if (slotOfReg[key] == INT64_MIN) {
          slotOfReg[key] = p.m;
          firstLane[key] = h.thread;
        } else if (slotOfReg[key] != p.m) {
          auto& d =
              error("E0264", o.expr->span,
                    "register " + std::to_string(h.reg) + " of " + op + " (operand '" +
                        o.spec->name + "') is slot " + std::to_string(slotOfReg[key]) + " of '" +
                        t.text + "' in lane " + std::to_string(firstLane[key]) + " but slot " +
                        std::to_string(p.m) + " in lane " + std::to_string(h.thread) +
                        (gr ? " of warp " + std::to_string(w) : std::string()));
          note(d, o.expr->span,
               "one instruction names one register in every lane: each fragment register must be "
               "the same slot in all lanes"
               " (slots may be gapped or permuted)");
          reported = true;
          break;
        }
      }
    }
  }
  if (reported || o.spec->role != OperandRole::DstReg) return;
  std::set<int64_t> seen;
  for (int64_t key = 0; key < int64_t(slotOfReg.size()); ++key) {
    if (seen.insert(slotOfReg[size_t(key)]).second) continue;
    auto& d =
        error("E0173", o.expr->span,
              "destination slots overlap: two registers of '" + t.text + "' written by " + op +
                  " are slot " + std::to_string(slotOfReg[size_t(key)]) + " of each lane");
    note(d, o.expr->span,
         "repeat " + shapeText(unflatten(key / regs, o.rep)) + ", register " +
             std::to_string(key % regs) +
             " lands on a slot another register of this operation also writes");
    break;
  }
}

void Analyzer::lowerMatrixCollective(const ast::Expr& call, const PtxInstruction& instr,
                                     ir::ExecScope scope, std::vector<ir::Stmt>& out) {
  const bool isMma = instr.family == PtxFamily::Mma;
  const int n = static_cast<int>(call.args.size()) - 2;
  std::vector<int64_t> group;
  if (scope == ir::ExecScope::Warpgroup) group = {4};
  if (scope == ir::ExecScope::Cta) group = {m_body->blockThreads / 32};
  const size_t gr = group.size();

  std::vector<CollectiveOperand> ops(n);
  bool ok = true;
  for (int i = 0; i < n; ++i)
    if (!collectiveOperand(call, instr, i, group, scope, ops[i])) ok = false;
  if (!ok) return;

  std::vector<int64_t> repeat;
  std::vector<std::vector<int>> repeatAxes(n);
  if (!collectiveRepeats(instr, ops, repeat, repeatAxes)) return;

  // ---- per element ----
  const int64_t warps = gr ? group[0] : 1;
  int64_t work = 0;
  for (const CollectiveOperand& o : ops) work += warps * product(o.rep) * product(o.atom);
  if (work > (int64_t(1) << 22)) {
    warning("W0101", call.span,
            "operation too large to check element by element (" + std::to_string(work) +
                " elements); fragment ownership and row alignment are not verified");
  } else {
    // The studio's facts first: every element of every register operand, even when a check below
    // rejects the layout (the layout view outlines the cells that are wrong).
    for (int i = 0; i < n && m_fragments; ++i) {
      const CollectiveOperand& o = ops[i];
      if (o.spec->role == OperandRole::Address || o.ref->layout.hasReplica()) continue;
      const frag::FragmentMap map =
          isMma ? frag::mmaFragment(
                      instr.mmaK == 16 ? frag::MmaShape::M16N8K16 : frag::MmaShape::M16N8K8,
                      i == 1   ? frag::MmaOperand::A
                      : i == 2 ? frag::MmaOperand::B
                               : frag::MmaOperand::C,
                      frag::Units::Words)
                : frag::ldmatrixFragment(instr.matrices);
      FragmentFact f = fragmentFact(instr, *o.spec, i, *o.ref, map, warps, gr > 0, o.rep);
      f.kernel = m_body->kernel ? m_body->kernel->name : std::string();
      f.opSpan = call.span;
      f.operandSpan = o.expr->span;
      m_fragments->push_back(std::move(f));
    }
    const size_t before = m_diags.size();
    for (int i = 0; i < n && m_diags.size() == before; ++i) {
      const CollectiveOperand& o = ops[i];
      if (o.spec->role == OperandRole::Address) {
        checkCollectiveRows(instr, o);
        continue;
      }
      checkCollectiveFragment(instr, o, i, warps, gr > 0);
    }
    if (m_diags.size() != before &&
        hasErrors(Diagnostics(m_diags.begin() + long(before), m_diags.end())))
      return;
  }

  auto apply = std::make_shared<ir::TileApply>();
  apply->instr = instr;
  apply->scope = scope;
  apply->group = group;
  apply->repeat = repeat;
  apply->repeatAxes = repeatAxes;
  for (const CollectiveOperand& o : ops) {
    ir::TileOperand to;
    to.tensor = *o.ref;
    to.span = o.expr->span;
    apply->operands.push_back(std::move(to));
    apply->atom.push_back(o.atom.back());
    apply->atomRank.push_back(static_cast<int>(o.atom.size()));
  }
  ir::Stmt st;
  st.kind = ir::StmtKind::Apply;
  st.span = call.span;
  st.apply = apply;
  out.push_back(std::move(st));
}

}  // namespace tirx::sema
