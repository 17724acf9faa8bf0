// Legality and IR of the Hopper warpgroup MMA (spec/TIRX-TENSOR-CORES.md §8; decision TC-2 in
// docs/decisions.md): `T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64nNk16.f32.T.T"],
// D, A, B, scope="warpgroup", a_descriptor=(ldo, sdo, swizzle), b_descriptor=(...), scale_d=...,
// scale_a=..., scale_b=..., trans_a=..., trans_b=...)`, plus `T.ptx.setmaxnreg(inc, n)` and
// `T.cuda.warpgroup_sync(id)`. Checked by enumeration (static shapes):
//   - D is a local f32 tile (64·R, N) whose layout gives every element the thread and one slot per
//     accumulator register that the §8.4 map names (E0221); A in registers likewise (uint32 words,
//     (64·R, 8·kSteps), the §8.4 A map); R = M repeats, kSteps = K / 16 (E0220 for shapes, dtypes);
//   - A and B in shared memory are (rows, K) regions (K-major; (K, rows) with trans 1) of 16-bit
//     elements. Each 64 x 16 / N x 16 sub-operand is derived with deriveWgmmaDescriptor (every
//     element read through the descriptor lands on the layout's byte; E0223 when none does) and
//     must equal the written descriptor tuple (E0222 names both); a dynamic region start must
//     move by whole swizzle patterns (E0223);
//   - scope="warpgroup", no lane-dependent control flow, target sm_90 (compiled as sm_90a; E0177
//     elsewhere), keyword values (E0225).
#include <algorithm>
#include <functional>
#include <set>

#include "core/layout/wgmma_descriptor.h"
#include "core/ptx/fragments.h"
#include "core/sema/sema_internal.h"

namespace tirx::sema {

namespace {

std::string tupleText(int64_t a, int64_t b, int64_t c) {
  return "(" + std::to_string(a) + ", " + std::to_string(b) + ", " + std::to_string(c) + ")";
}

ir::ExprPtr mkCast(ir::ExprPtr v, ir::DType t) {
  auto c = std::make_shared<ir::Expr>();
  c->kind = ir::ExprKind::Cast;
  c->dtype = t;
  c->span = v->span;
  c->args = {std::move(v)};
  return c;
}

std::string shapeText(const std::vector<int64_t>& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

/// The studio's fact of a wgmma register operand (D: halves 1, blocks = M repeats; A in registers:
/// halves 2, blocks = (M repeat, k-step)): every element of the warpgroup's frame (64 × N, or 64 ×
/// 16 elements of A) with the thread and register the §8.4 map needs and the thread and slot the
/// tensor's layout gives. `coordOf(block, thread, reg)` is the tensor coordinate of a register
/// word, `elementOf(thread, element)` the element's place in the frame.
FragmentFact wgmmaFragmentFact(
    const PtxInstruction& instr, char letter, int index, const ir::TensorRef& t,
    const frag::FragmentMap& map, std::vector<int64_t> repeat, int cols, int regs, int halves,
    const std::function<std::vector<int64_t>(int64_t, int, int)>& coordOf,
    const std::function<frag::Coord(int, int)>& elementOf) {
  FragmentFact f;
  f.opcode = instr.opcode;
  f.role = std::string(1, letter);
  f.letter = letter;
  f.operandIndex = index;
  f.tensor = t.text;
  f.mapName = map.name;
  f.mapLayout = map.layout;
  f.rows = 64;
  f.cols = cols;
  f.halves = halves;
  f.warps = 1;
  f.frameThreads = 128;
  f.repeat = std::move(repeat);
  const RefEval ev(t);
  const bool threaded = ev.cl.hasThreadAxes();
  int64_t blocks = 1;
  for (int64_t e : f.repeat) blocks *= e;
  for (int64_t b = 0; b < blocks; ++b)
    for (int th = 0; th < 128; ++th)
      for (int j = 0; j < regs; ++j) {
        const CompiledLayout::Point p = ev.at(coordOf(b, th, j));
        for (int h = 0; h < halves; ++h) {
          FragmentCell c;
          c.warp = th / 32;
          c.repeat = static_cast<int>(b);
          c.needLane = th % 32;
          c.needReg = j;
          c.needHalf = h;
          c.element = halves * j + h;
          const frag::Coord e = elementOf(th, c.element);
          c.row = e.row;
          c.col = e.col;
          c.haveThread = threaded ? p.thread : -1;
          c.haveSlot = p.m;
          c.mismatch = threaded && p.thread != th;
          if (c.mismatch) ++f.mismatches;
          if (int64_t(f.cells.size()) < kMaxFragmentCells)
            f.cells.push_back(c);
          else
            f.truncated = true;
        }
      }
  return f;
}

}  // namespace

void Analyzer::recordWgmmaFragment(FragmentFact f, const ast::Expr& call,
                                   const ast::Expr& operand) {
  if (!m_fragments) return;
  f.kernel = m_body->kernel ? m_body->kernel->name : std::string();
  f.opSpan = call.span;
  f.operandSpan = operand.span;
  m_fragments->push_back(std::move(f));
}

void Analyzer::recordWgmmaDescriptors(const ast::Expr& call, const ast::Expr& e, char which,
                                      const ir::WgmmaShared& op, int64_t originPre, int64_t subRows,
                                      int64_t mRepeat, int64_t kSteps,
                                      const PtxInstruction& instr) {
  if (!m_descriptors) return;
  const ir::Buffer& buf = m_body->kernel->buffers[size_t(op.ref.buffer)];
  const int eb = ir::dtypeBytes(op.ref.dtype);
  DescriptorFact f;
  f.kernel = m_body->kernel->name;
  f.opSpan = call.span;
  f.operandSpan = e.span;
  if (const ast::Expr* k = keyword(call, std::string(1, which) + "_descriptor"))
    f.keywordSpan = k->span;
  f.opcode = instr.opcode;
  f.operand = which;
  f.tensor = op.ref.text;
  f.buffer = buf.name;
  f.bufferShape = buf.shape;
  f.major = op.mnMajor ? MatrixMajor::MN : MatrixMajor::K;
  f.elemBytes = eb;
  f.rows = subRows;
  f.kSteps = kSteps;
  // Byte → element of the buffer (its layout, then its swizzle), to name what a descriptor reads.
  std::vector<std::pair<int64_t, int64_t>> byteToFlat;
  const int64_t total = product(buf.shape);
  if (total > 0 && total <= (int64_t(1) << 20)) {
    const CompiledLayout cl(buf.layout);
    byteToFlat.reserve(size_t(total));
    for (int64_t flat = 0; flat < total; ++flat)
      byteToFlat.emplace_back(ir::swizzledByte(buf, cl.applyFlat(flat).m * eb), flat);
    std::sort(byteToFlat.begin(), byteToFlat.end());
  }
  auto flatOf = [&](int64_t byte) -> std::optional<int64_t> {
    auto it = std::lower_bound(byteToFlat.begin(), byteToFlat.end(),
                               std::pair<int64_t, int64_t>{byte, INT64_MIN});
    if (it == byteToFlat.end() || it->first != byte) return std::nullopt;
    return it->second;
  };
  const int T = 16 / eb;
  for (int64_t r = 0; r < mRepeat; ++r)
    for (int64_t k = 0; k < kSteps; ++k) {
      DescriptorSubOperand s;
      s.repeat = int(r);
      s.kStep = int(k);
      s.fields.startAddress = originPre + op.start[size_t(r * kSteps + k)];
      s.fields.leadingByteOffset = op.lbo;
      s.fields.strideByteOffset = op.sbo;
      s.fields.swizzle = op.mode;
      s.bits = encodeDescriptor(s.fields);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
          std::vector<int64_t> rowsOf;
          for (int q = 0; q < 8; ++q) {
            // K-major: row 8i + q, first element of k chunk j; MN-major: k 8j + q, row chunk i
            const auto a =
                op.mnMajor ? descriptorAddress(s.fields, f.major, eb, int64_t(T) * i, 8 * j + q)
                           : descriptorAddress(s.fields, f.major, eb, 8 * i + q, int64_t(T) * j);
            rowsOf.push_back(a.value_or(-1));
          }
          s.coreMatrixBytes.push_back(std::move(rowsOf));
        }
      for (int64_t row = 0; row < subRows; ++row)
        for (int64_t kk = 0; kk < 16; ++kk) {
          const auto a = descriptorAddress(s.fields, f.major, eb, row, kk);
          const auto flat = a ? flatOf(*a) : std::nullopt;
          if (flat)
            s.elements.push_back(*flat);
          else
            ++s.unmapped;
        }
      std::sort(s.elements.begin(), s.elements.end());
      f.subs.push_back(std::move(s));
    }
  m_descriptors->push_back(std::move(f));
}

/// The `a_descriptor=` / `b_descriptor=` tuple written for a wgmma shared operand: three static
/// integers (ldo_bytes, sdo_bytes, swizzle 0-3) (E0222, with the tuple the layout needs); nullopt
/// after an error.
std::optional<std::array<int64_t, 3>> Analyzer::wgmmaDescriptorTuple(
    const ast::Expr& call, const ast::Expr& e, const std::string& kw, const std::string& op,
    const ir::TensorRef& t, const ir::Buffer& buf, const std::string& needText) {
  const ast::Expr* de = keyword(call, kw);
  if (!de) {
    auto& d = error("E0222", call.span,
                    op + " reads '" + t.text + "' from shared memory and needs " + kw +
                        "=(ldo_bytes, sdo_bytes, swizzle)");
    note(d, e.span, "the layout of '" + buf.name + "' gives " + kw + "=" + needText);
    return std::nullopt;
  }
  std::vector<int64_t> vals;
  if (de->kind == ast::ExprKind::Tuple || de->kind == ast::ExprKind::List) {
    for (const auto& x : de->args) {
      const size_t before = m_diags.size();
      auto v = staticInt(*x, false);
      if (!v) {
        if (m_diags.size() == before)
          error("E0222", x->span, kw + "= takes static integers, found '" + text(x->span) + "'");
        return std::nullopt;
      }
      vals.push_back(*v);
    }
  }
  if (vals.size() != 3) {
    auto& d = error("E0222", de->span,
                    kw + "= is (ldo_bytes, sdo_bytes, swizzle), found '" + text(de->span) + "'");
    note(d, e.span, "the layout of '" + buf.name + "' gives " + kw + "=" + needText);
    return std::nullopt;
  }
  if (vals[2] < 0 || vals[2] > 3) {
    error("E0222", de->args[2]->span,
          "the swizzle of " + kw +
              "= is 0, 1, 2 or 3 (none, 32B, 64B, 128B; TMA swizzle= numbering), found " +
              std::to_string(vals[2]));
    return std::nullopt;
  }
  return std::array<int64_t, 3>{vals[0], vals[1], vals[2]};
}

/// Operand `name` of a wgmma is a shared region of the instruction's A/B element type, viewed at
/// its buffer's own element width (E0220).
bool Analyzer::wgmmaOperandTyped(const ast::Expr& e, const ir::TensorRef& t,
                                 const std::string& name, const PtxInstruction& instr) {
  const std::string& op = instr.opcode;
  if (t.scope != ir::MemScope::Shared) {
    error("E0220", e.span,
          "operand '" + name + "' of " + op +
              " is a shared region (read through a descriptor), but '" + t.text + "' is a " +
              std::string(ir::memScopeName(t.scope)) + " tensor");
    return false;
  }
  const bool bf = instr.abType == ".bf16";
  const bool typeOk = t.dtype == (bf ? ir::DType::BFloat16 : ir::DType::Float16) ||
                      t.dtype == ir::DType::UInt16 || t.dtype == ir::DType::Int16;
  if (!typeOk) {
    auto& d =
        error("E0220", e.span,
              "operand '" + name + "' of " + op + " holds " + instr.abType.substr(1) +
                  " elements, but '" + t.text + "' is " + std::string(ir::dtypeName(t.dtype)));
    note(d, e.span,
         std::string("accepted: ") + (bf ? "bfloat16" : "float16") + ", or its uint16/int16 bits");
    return false;
  }
  const ir::Buffer& buf = m_body->kernel->buffers[size_t(t.buffer)];
  const int eb = ir::dtypeBytes(t.dtype);
  if (ir::dtypeBytes(buf.dtype) != eb) {
    error("E0220", e.span,
          "operand '" + name + "' of " + op + " must view '" + buf.name +
              "' with its own element width (" + std::to_string(ir::dtypeBytes(buf.dtype)) +
              " bytes), found a " + std::to_string(eb) + "-byte view");
    return false;
  }
  return true;
}

/// A dynamic start of a wgmma operand moves it by whole 16-byte units, or whole swizzle patterns
/// when the buffer is swizzled (E0223): the descriptor's base offset stays 0.
bool Analyzer::wgmmaDynamicStartAligned(const ast::Expr& e, const ir::TensorRef& t,
                                        const ir::Buffer& buf, int eb) {
  const int64_t period =
      buf.swizzle.isIdentity() ? 16 : std::max<int64_t>(16, swizzlePatternBytes(buf.swizzle, eb));
  if (!t.hasDynamicOffset()) return true;
  const RefEval ev(t);
  {
    for (size_t d = 0; d < t.lo.size(); ++d) {
      if (!t.lo[d] || constValue(*t.lo[d])) continue;
      std::vector<int64_t> base = ev.lo, moved = ev.lo;
      const int64_t mult = std::max<int64_t>(1, d < t.loMultiple.size() ? t.loMultiple[d] : 1);
      moved[d] += mult;
      const std::vector<int64_t> zero(t.shape.size(), 0);
      const int64_t delta = (RefEval(t, &moved).at(zero).m - RefEval(t, &base).at(zero).m) * eb;
      if (delta % period != 0) {
        auto& dg =
            error("E0223", t.lo[d]->span,
                  "cannot prove that '" + t.text + "' starts on a " + std::to_string(period) +
                      "-byte boundary of '" + buf.name +
                      "': this start is only known to be a multiple of " + std::to_string(mult));
        note(dg, e.span,
             "a step of " + std::to_string(mult) + " moves the operand by " +
                 std::to_string(delta) + " bytes; a wgmma " +
                 (buf.swizzle.isIdentity()
                      ? "operand must stay 16-byte aligned"
                      : "descriptor with base offset 0 needs whole swizzle patterns"));
        return false;
      }
    }
  }
  return true;
}

std::optional<ir::WgmmaShared> Analyzer::wgmmaSharedOperand(
    const ast::Expr& call, const ast::Expr& e, char which, int64_t rows, int64_t mRepeat,
    bool mnMajor, const PtxInstruction& instr, int64_t& kSteps) {
  const std::string& op = instr.opcode;
  const std::string name(1, which);
  const std::string kw = name + "_descriptor";
  auto ref = lowerTensor(e);
  if (ref && !staticOperand(*ref, e.span)) ref = nullptr;
  if (!ref) return std::nullopt;
  const ir::TensorRef& t = *ref;
  if (!wgmmaOperandTyped(e, t, name, instr)) return std::nullopt;
  const ir::Buffer& buf = m_body->kernel->buffers[size_t(t.buffer)];
  const int eb = ir::dtypeBytes(t.dtype);
  const std::string want =
      mnMajor ? "(K, " + std::to_string(rows) + ")" : "(" + std::to_string(rows) + ", K)";
  if (t.shape.size() != 2 || t.shape[mnMajor ? 1 : 0] != rows ||
      t.shape[mnMajor ? 0 : 1] % 16 != 0) {
    auto& d = error("E0220", e.span,
                    "operand '" + name + "' of " + op + " must be a shared region " + want +
                        " with K a multiple of 16, found '" + t.text + "' of shape " +
                        shapeText(t.shape));
    note(d, e.span,
         std::string(mnMajor ? "trans_" + name + "=1: the region is (K, M/N), M/N contiguous"
                             : "K-major (trans 0): the region is (rows, K), K contiguous") +
             "; A has 64 rows per M repeat, B has N rows");
    return std::nullopt;
  }
  kSteps = t.shape[mnMajor ? 0 : 1] / 16;

  // The region's element bytes with dynamic starts at 0; dynamic starts must move by whole
  // patterns.
  const RefEval ev(t);
  auto coordOf = [&](int64_t row, int64_t k) {
    return mnMajor ? std::vector<int64_t>{k, row} : std::vector<int64_t>{row, k};
  };
  auto bytesOf = [&](int64_t row, int64_t k) {
    const int64_t pre = ev.at(coordOf(row, k)).m * eb;
    return OperandBytes{pre, ir::swizzledByte(buf, pre)};
  };
  if (!wgmmaDynamicStartAligned(e, t, buf, eb)) return std::nullopt;

  // The written descriptor tuple.
  const int64_t subRows = which == 'a' ? 64 : rows;
  ir::WgmmaShared out;
  out.ref = t;
  out.mnMajor = mnMajor;
  const int64_t originPre = bytesOf(0, 0).pre;
  std::optional<SmemDescriptor> first;
  for (int64_t r = 0; r < mRepeat; ++r)
    for (int64_t k = 0; k < kSteps; ++k) {
      WgmmaOperand wo;
      wo.major = mnMajor ? MatrixMajor::MN : MatrixMajor::K;
      wo.elemBytes = eb;
      wo.rows = subRows;
      wo.k = 16;
      wo.row0 = r * 64;
      wo.k0 = k * 16;
      const DerivedDescriptor dd = deriveWgmmaDescriptor(bytesOf, buf.swizzle, buf.alignBytes, wo);
      if (!dd.descriptor) {
        auto& d = error("E0223", e.span,
                        "operand '" + name + "' ('" + t.text +
                            "') cannot be read through a wgmma descriptor: " + dd.why);
        note(d, buf.span,
             "'" + buf.name + "' is declared here with the layout " +
                 (buf.swizzle.isIdentity()
                      ? buf.layout.toString()
                      : "ComposeLayout(" + std::to_string(buf.swizzle.perElement) + ", " +
                            std::to_string(buf.swizzle.len) + ", " +
                            std::to_string(buf.swizzle.atom) + ", " + buf.layout.toString() + ")"));
        return std::nullopt;
      }
      const SmemDescriptor& sd = *dd.descriptor;
      if (!first) first = sd;
      out.start.push_back(sd.startAddress - originPre);
    }
  const SmemDescriptor& need = *first;
  const std::string needText =
      tupleText(need.leadingByteOffset, need.strideByteOffset, swizzleModeTirx(need.swizzle));
  const std::optional<std::array<int64_t, 3>> vals =
      wgmmaDescriptorTuple(call, e, kw, op, t, buf, needText);
  if (!vals) return std::nullopt;
  const ast::Expr* de = keyword(call, kw);
  SmemDescriptor written;
  written.leadingByteOffset = (*vals)[0];
  written.strideByteOffset = (*vals)[1];
  const SwizzleMode modes[4] = {SwizzleMode::None, SwizzleMode::B32, SwizzleMode::B64,
                                SwizzleMode::B128};
  written.swizzle = modes[(*vals)[2]];
  if (const std::string w = checkDescriptor(written); !w.empty()) {
    error("E0222", de->span,
          kw + "=" + tupleText((*vals)[0], (*vals)[1], (*vals)[2]) + " cannot be encoded: " + w);
    return std::nullopt;
  }
  // The written tuple is right when it reads every element where the layout puts it (a field the
  // operand never exercises, e.g. LBO of a swizzled K-major operand, may hold any value).
  bool reads = written.swizzle == need.swizzle;
  for (int64_t r = 0; r < mRepeat && reads; ++r)
    for (int64_t k = 0; k < kSteps && reads; ++k) {
      SmemDescriptor sd = written;
      sd.startAddress = out.start[size_t(r * kSteps + k)] + originPre;
      for (int64_t row = 0; row < subRows && reads; ++row)
        for (int64_t kk = 0; kk < 16 && reads; ++kk) {
          const std::optional<int64_t> got =
              descriptorAddress(sd, mnMajor ? MatrixMajor::MN : MatrixMajor::K, eb, row, kk);
          reads = got && *got == bytesOf(r * 64 + row, k * 16 + kk).phys;
        }
    }
  if (!reads) {
    auto& d = error("E0222", de->span,
                    kw + "=" + tupleText((*vals)[0], (*vals)[1], (*vals)[2]) +
                        " does not describe '" + t.text + "': its layout needs " + needText);
    note(d, buf.span,
         "'" + buf.name + "' is declared here" +
             (buf.swizzle.isIdentity()
                  ? std::string(" (no swizzle)")
                  : " with a " + std::string(swizzleModeName(need.swizzle)) + " swizzle") +
             "; LBO steps along K between core matrices (M/N between swizzle atoms when "
             "transposed), SBO between 8-row groups");
    return std::nullopt;
  }
  out.lbo = written.leadingByteOffset;
  out.sbo = written.strideByteOffset;
  out.mode = written.swizzle;
  SmemDescriptor high = written;
  high.startAddress = 0;
  out.highBits = encodeDescriptor(high);
  recordWgmmaDescriptors(call, e, which, out, originPre, subRows, mRepeat, kSteps, instr);
  return out;
}

/// The immediates of wgmma (scale_a/scale_b = ±1, trans_a/trans_b = 0/1, E0225) and scale_d= (0, 1
/// or a runtime integer), into `w`; false after an error.
bool Analyzer::wgmmaKeywords(const ast::Expr& call, const std::string& op, ir::Wgmma& w) {
  auto immediate = [&](const char* kwName, int def, std::initializer_list<int> allowed, int& v) {
    const ast::Expr* k = keyword(call, kwName);
    v = def;
    if (!k) return true;
    const size_t before = m_diags.size();
    auto x = staticInt(*k, false);
    if (k->kind == ast::ExprKind::Bool) x = k->boolValue ? 1 : 0;
    if (!x || std::find(allowed.begin(), allowed.end(), int(*x)) == allowed.end()) {
      if (m_diags.size() == before) {
        std::string list;
        for (int a : allowed) list += (list.empty() ? "" : " or ") + std::to_string(a);
        error("E0225", k->span,
              std::string(kwName) + "= of " + op + " is a constant " + list + ", found '" +
                  text(k->span) + "'");
      }
      return false;
    }
    v = int(*x);
    return true;
  };
  bool ok = immediate("scale_a", 1, {1, -1}, w.scaleA);
  ok &= immediate("scale_b", 1, {1, -1}, w.scaleB);
  ok &= immediate("trans_a", 0, {0, 1}, w.transA);
  ok &= immediate("trans_b", 0, {0, 1}, w.transB);
  if (const ast::Expr* sd = keyword(call, "scale_d")) {
    Scalar v = lowerScalar(*sd);
    if (v.ok() && v.literal && v.expr->kind == ir::ExprKind::IntImm && v.expr->intValue != 0 &&
        v.expr->intValue != 1) {
      error("E0225", sd->span,
            "scale_d= of " + op + " is 0 (D = A·B), 1 (D = A·B + D) or a runtime integer, found " +
                std::to_string(v.expr->intValue));
      ok = false;
    } else if (v.ok()) {
      if (v.expr->dtype == ir::DType::Bool)
        v.expr = mkCast(v.expr, ir::DType::Int32);
      else if (v.literal)
        v = coerce(v, ir::DType::Int32, sd->span, "scale_d");
      if (v.ok() && !ir::isInt(v.expr->dtype)) {
        error("E0225", sd->span,
              "scale_d= of " + op + " is an integer or a bool, found " +
                  std::string(ir::dtypeName(v.expr->dtype)));
        ok = false;
      } else if (v.ok()) {
        w.scaleD = v.expr->dtype == ir::DType::Int32 ? v.expr : mkCast(v.expr, ir::DType::Int32);
      } else {
        ok = false;
      }
    } else {
      ok = false;
    }
  } else {
    w.scaleD = mkInt(1, call.span);
  }
  return ok;
}

/// Fragment ownership of a wgmma register operand: every (repeat, register) one slot, in the thread
/// the map names, no slot twice (E0221); false after an error.
bool Analyzer::wgmmaRegisterOwnership(
    const std::string& op, const ir::TensorRef& t, const ast::Expr& te, const char* role,
    int64_t blocks, int regs, const std::function<std::vector<int64_t>(int64_t, int, int)>& coordOf,
    const std::string& mapLayout, std::vector<int64_t>& slots) {
  const RefEval ev(t);
  if (!ev.cl.hasThreadAxes() || t.layout.hasReplica()) {
    auto& d = error("E0221", te.span,
                    "operand '" + std::string(role) + "' of " + op + ": '" + t.text +
                        "' must be distributed over the 128 threads of the warpgroup by the wgmma "
                        "fragment map, found the layout " +
                        t.layout.toString());
    note(d, te.span,
         "a layout that is: " + mapLayout + (blocks > 1 ? " (tiled over the repeats)" : ""));
    return false;
  }
  slots.assign(size_t(blocks * regs), INT64_MIN);
  std::vector<int> firstThread(size_t(blocks * regs), -1);
  for (int64_t b = 0; b < blocks; ++b)
    for (int th = 0; th < 128; ++th)
      for (int j = 0; j < regs; ++j) {
        const std::vector<int64_t> c = coordOf(b, th, j);
        const CompiledLayout::Point p = ev.at(c);
        if (p.thread != th) {
          auto& d =
              error("E0221", te.span,
                    "operand '" + std::string(role) + "' of " + op + ": element " + shapeText(c) +
                        " of '" + t.text + "' is in " + describeThread(p.thread) +
                        ", the instruction needs thread " + std::to_string(th) + " (warp " +
                        std::to_string(th / 32) + ", lane " + std::to_string(th % 32) +
                        ") of the warpgroup, register " + std::to_string(j));
          note(d, te.span,
               "the layout " + t.layout.toString() +
                   " must follow the wgmma map (spec TC §8.4); one that does: " + mapLayout);
          return false;
        }
        const size_t key = size_t(b * regs + j);
        if (slots[key] == INT64_MIN) {
          slots[key] = p.m;
          firstThread[key] = th;
        } else if (slots[key] != p.m) {
          auto& d = error("E0221", te.span,
                          "register " + std::to_string(j) + " of " + op + " (operand '" + role +
                              "') is slot " + std::to_string(slots[key]) + " of '" + t.text +
                              "' in thread " + std::to_string(firstThread[key]) + " but slot " +
                              std::to_string(p.m) + " in thread " + std::to_string(th));
          note(d, te.span,
               "one instruction names one register in every thread: each fragment register must be "
               "the same slot in all 128 threads");
          return false;
        }
      }
  std::set<int64_t> seen;
  for (int64_t s : slots)
    if (!seen.insert(s).second) {
      error("E0221", te.span,
            "two registers of operand '" + std::string(role) + "' of " + op + " are slot " +
                std::to_string(s) + " of '" + t.text + "'");
      return false;
    }
  return true;
}

/// Operand a of wgmma in registers (the rs form): a uint32 tile (64·R, 8·K/16) owned as the A
/// fragment map says (E0220-E0222, E0225); its K steps into `kSteps`. False after an error.
bool Analyzer::wgmmaRegisterA(const ast::Expr& call, const PtxInstruction& instr,
                              const ast::Expr& ae, const ir::TensorRef& A, ir::Wgmma& w,
                              int64_t& kSteps) {
  const std::string& op = instr.opcode;
  if (keyword(call, "a_descriptor")) {
    error("E0222", keyword(call, "a_descriptor")->span,
          "a_descriptor= belongs to a shared A; '" + A.text + "' is a register tile (the rs form)");
    return false;
  }
  if (w.transA) {
    error("E0225", keyword(call, "trans_a")->span,
          "trans_a=1 needs A in shared memory: the rs form (A in registers) has no transpose");
    return false;
  }
  if ((A.dtype != ir::DType::UInt32 && A.dtype != ir::DType::Int32) || A.shape.size() != 2 ||
      A.shape[0] != 64 * w.mRepeat || A.shape[1] % 8 != 0 || A.shape[1] == 0 ||
      A.hasDynamicOffset()) {
    auto& d = error("E0220", ae.span,
                    "operand 'a' in registers must be a uint32 tile (" +
                        std::to_string(64 * w.mRepeat) + ", 8·K/16) of " + instr.abType.substr(1) +
                        " pairs at a static position, found '" + A.text + "' (" +
                        std::string(ir::dtypeName(A.dtype)) + " " + shapeText(A.shape) + ")");
    note(d, ae.span,
         "one 64 x 16 A block is (64, 8) 32-bit words; view 16-bit registers as words with "
         ".view(\"uint32\")");
    return false;
  }
  kSteps = A.shape[1] / 8;
  w.aRegisters = true;
  w.aRegs = A;
  const int64_t ks = kSteps;
  auto aCoord = [&](int64_t blk, int th, int i) {
    const frag::Coord c = frag::wgmmaAElement(th, 2 * i);
    return std::vector<int64_t>{64 * (blk / ks) + c.row, 8 * (blk % ks) + c.col / 2};
  };
  const frag::FragmentMap amap = frag::wgmmaAFragment(frag::Units::Words);
  if (m_fragments && !A.layout.hasReplica())
    recordWgmmaFragment(wgmmaFragmentFact(instr, 'a', 1, A, amap, {w.mRepeat, ks}, 16, 4, 2, aCoord,
                                          [](int th, int i) { return frag::wgmmaAElement(th, i); }),
                        call, ae);
  if (!wgmmaRegisterOwnership(op, A, ae, "a", w.mRepeat * ks, 4, aCoord, amap.layout, w.aSlots))
    return false;
  return true;
}

void Analyzer::lowerWgmma(const ast::Expr& call, const PtxInstruction& instr,
                          std::vector<ir::Stmt>& out) {
  const std::vector<std::string> keys = {"scope",   "a_descriptor", "b_descriptor",
                                         "scale_d", "scale_a",      "scale_b",
                                         "trans_a", "trans_b",      "loc"};
  if (!checkCallShape(call, "T.cuda.tile.apply", 2, -1, keys)) return;
  const std::string& op = instr.opcode;
  const int n = static_cast<int>(call.args.size()) - 2;
  if (n != 3) {
    auto& d = error("E0162", n > 3 ? call.args[5]->span : call.span,
                    op + " takes 3 operands, found " + std::to_string(n));
    note(d, call.args[1]->span,
         "operands in order: d (f32 registers), a (shared region or registers), b (shared region)");
    return;
  }
  if (m_options.sm != 90) {
    auto& d =
        error("E0177", call.span, op + " is not available on sm_" + std::to_string(m_options.sm));
    note(d, call.args[1]->span,
         "wgmma is an sm_90a instruction (compiled for compute_90a/sm_90a); later architectures do "
         "not have it");
    return;
  }
  auto scope = lowerScope(call);
  if (!scope) return;
  if (*scope != ir::ExecScope::Warpgroup) {
    const ast::Expr* s = keyword(call, "scope");
    auto& d = error("E0224", s ? s->span : call.span,
                    op + " is issued by a warpgroup: scope= must be \"warpgroup\", found \"" +
                        std::string(ir::execScopeName(*scope)) + "\"");
    note(d, call.span,
         "the 128 threads of 4 consecutive warps (the first a multiple of 4) execute it together "
         "(spec TC §8.2)");
    return;
  }
  if (!checkScopeLaunch(*scope, call)) return;
  if (!m_body->laneDivergence.empty()) {
    auto& d = error("E0224", call.span,
                    op + " inside control flow that may differ between the lanes of a warp; every "
                         "thread of the warpgroup must execute it");
    note(d, m_body->laneDivergence.back(),
         "this condition is not warp-uniform (it depends on the lane)");
    return;
  }
  auto w = std::make_shared<ir::Wgmma>();
  w->instr = instr;
  w->n = instr.wgmmaN;
  if (!wgmmaKeywords(call, op, *w)) return;

  // ---- operands ----
  const ast::Expr& de = *call.args[2];
  const ast::Expr& ae = *call.args[3];
  const ast::Expr& be = *call.args[4];
  for (const ast::Expr* x : {&de, &ae, &be})
    if (!isTensorExpr(*x)) {
      if (x->kind == ast::ExprKind::Name && !lookup(x->text))
        unknownName(*x);
      else
        error("E0220", x->span,
              "the operands of " + op +
                  " are tensors (d registers, a shared region or registers, b shared region), "
                  "found '" +
                  text(x->span) + "'");
      return;
    }
  auto dref = lowerTensor(de);
  if (dref && !staticOperand(*dref, de.span)) dref = nullptr;
  if (!dref) return;
  const ir::TensorRef& D = *dref;
  const int N = w->n;
  if (D.scope != ir::MemScope::Local || D.dtype != ir::DType::Float32 || D.shape.size() != 2 ||
      D.shape[0] % 64 != 0 || D.shape[0] == 0 || D.shape[1] != N || D.hasDynamicOffset()) {
    auto& d = error("E0220", de.span,
                    "operand 'd' of " + op + " must be a local float32 tile (64·R, " +
                        std::to_string(N) + ") (R M repeats) at a static position, found '" +
                        D.text + "' (" + std::string(ir::memScopeName(D.scope)) + " " +
                        std::string(ir::dtypeName(D.dtype)) + " " + shapeText(D.shape) + ")");
    note(d, de.span,
         "allocate it with T.alloc_local((64, " + std::to_string(N) +
             "), \"float32\", layout=" + frag::wgmmaAccumulatorFragment(N).layout + ")");
    return;
  }
  w->mRepeat = D.shape[0] / 64;
  w->d = D;
  const frag::FragmentMap dmap = frag::wgmmaAccumulatorFragment(N);
  auto dCoord = [&](int64_t r, int th, int j) {
    const frag::Coord c = frag::wgmmaAccumulator(N, th, j);
    return std::vector<int64_t>{64 * r + c.row, c.col};
  };
  // The studio's facts first, also for a layout the check below rejects (the cells outlined).
  if (m_fragments && !D.layout.hasReplica())
    recordWgmmaFragment(
        wgmmaFragmentFact(instr, 'd', 0, D, dmap, {w->mRepeat}, N, N / 2, 1, dCoord,
                          [&](int th, int i) { return frag::wgmmaAccumulator(N, th, i); }),
        call, de);
  if (!wgmmaRegisterOwnership(op, D, de, "d", w->mRepeat, N / 2, dCoord, dmap.layout, w->dSlots))
    return;

  auto aref = lowerTensor(ae);
  if (aref && !staticOperand(*aref, ae.span)) aref = nullptr;
  if (!aref) return;
  int64_t kSteps = 0;
  if (aref->scope == ir::MemScope::Local) {
    if (!wgmmaRegisterA(call, instr, ae, *aref, *w, kSteps)) return;
  } else {
    auto a = wgmmaSharedOperand(call, ae, 'a', 64 * w->mRepeat, w->mRepeat, w->transA == 1, instr,
                                kSteps);
    if (!a) return;
    w->a = std::move(*a);
  }
  int64_t bSteps = 0;
  auto b = wgmmaSharedOperand(call, be, 'b', N, 1, w->transB == 1, instr, bSteps);
  if (!b) return;
  w->b = std::move(*b);
  if (bSteps != kSteps) {
    auto& d = error("E0220", be.span,
                    "'" + w->b.ref.text + "' has K = " + std::to_string(16 * bSteps) +
                        ", but A has K = " + std::to_string(16 * kSteps));
    note(d, ae.span, "A is (64·R, K), B is (N, K): one wgmma per 16 of K");
    return;
  }
  w->kSteps = kSteps;
  ir::Stmt st;
  st.kind = ir::StmtKind::Wgmma;
  st.span = call.span;
  st.wgmma = w;
  out.push_back(std::move(st));
}

void Analyzer::lowerSetMaxNReg(const ast::Expr& call, std::vector<ir::Stmt>& out) {
  const std::string written = "T.ptx.setmaxnreg";
  if (!checkCallShape(call, written, 2, 2, {})) return;
  if (m_options.sm != 90) {
    auto& d = error("E0177", call.span,
                    "setmaxnreg is not available on sm_" + std::to_string(m_options.sm));
    note(d, call.args[0]->span,
         "setmaxnreg.sync.aligned is an sm_90a instruction here (compiled for compute_90a/sm_90a)");
    return;
  }
  if (m_body->launchOk && m_body->blockThreads % 128 != 0) {
    // setmaxnreg.sync.aligned is executed by all warps of a warpgroup together.
    auto& d = error("E0224", call.span,
                    "setmaxnreg needs a block of a multiple of 128 threads (whole warpgroups), but "
                    "the kernel launches " +
                        std::to_string(m_body->blockThreads));
    note(d, m_body->kernel->launchSpan, "the launch is here");
    return;
  }
  if (!m_body->laneDivergence.empty()) {
    auto& d = error("E0224", call.span,
                    "setmaxnreg inside control flow that may differ between the lanes of a warp; "
                    "the whole warp must execute it");
    note(d, m_body->laneDivergence.back(),
         "this condition is not warp-uniform (it depends on the lane)");
    return;
  }
  const ast::Expr& ie = *call.args[1];
  bool inc = false;
  if (ie.kind == ast::ExprKind::Bool) {
    inc = ie.boolValue;
  } else if (auto v = staticInt(ie, false); v && (*v == 0 || *v == 1)) {
    inc = *v == 1;
  } else {
    error(
        "E0225", ie.span,
        "the first argument of T.ptx.setmaxnreg is True (setmaxnreg.inc) or False (.dec), found '" +
            text(ie.span) + "'");
    return;
  }
  const ast::Expr& ne = *call.args[2];
  const size_t before = m_diags.size();
  auto n = staticInt(ne, false);
  if (!n || *n < 24 || *n > 256 || *n % 8 != 0) {
    if (m_diags.size() == before)
      error("E0225", ne.span,
            "setmaxnreg takes a constant register count from 24 to 256 in steps of 8, found '" +
                text(ne.span) + "'");
    return;
  }
  auto op = std::make_shared<ir::AsyncOp>();
  op->kind = ir::AsyncKind::SetMaxNReg;
  op->increase = inc;
  op->n = *n;
  op->spelling = written;
  ir::Stmt st;
  st.kind = ir::StmtKind::Async;
  st.span = call.span;
  st.async = op;
  out.push_back(std::move(st));
}

void Analyzer::lowerWarpgroupSync(const ast::Expr& call, std::vector<ir::Stmt>& out) {
  if (!checkCallShape(call, "T.cuda.warpgroup_sync", 1, 1, {})) return;
  if (m_body->launchOk && m_body->blockThreads % 128 != 0) {
    auto& d = error("E0224", call.span,
                    "T.cuda.warpgroup_sync needs a block of a multiple of 128 threads, but the "
                    "kernel launches " +
                        std::to_string(m_body->blockThreads));
    note(d, m_body->kernel->launchSpan, "the launch is here");
    return;
  }
  if (!m_body->laneDivergence.empty()) {
    auto& d = error("E0224", call.span,
                    "T.cuda.warpgroup_sync inside control flow that may differ between the lanes "
                    "of a warp; whole warps arrive at bar.sync");
    note(d, m_body->laneDivergence.back(),
         "this condition is not warp-uniform (it depends on the lane)");
    return;
  }
  const ast::Expr& ie = *call.args[1];
  Scalar v = lowerScalar(ie);
  if (!v.ok()) return;
  if (v.literal) v = coerce(v, ir::DType::Int32, ie.span, "barrier id");
  if (!v.ok()) return;
  if (!ir::isInt(v.expr->dtype)) {
    error("E0225", ie.span,
          "the barrier id of T.cuda.warpgroup_sync is an integer, found " +
              std::string(ir::dtypeName(v.expr->dtype)));
    return;
  }
  if (auto c = constValue(*v.expr); c && (*c < 1 || *c > 15)) {
    auto& d =
        error("E0225", ie.span,
              "the barrier id of T.cuda.warpgroup_sync is 1..15, found " + std::to_string(*c));
    note(d, ie.span,
         "named barrier 0 is the one T.cuda.cta_sync() (__syncthreads) uses for the whole block");
    return;
  }
  if (!warpUniform(*v.expr)) {
    error("E0224", ie.span,
          "the barrier id of T.cuda.warpgroup_sync must be the same in every lane of a warp");
    return;
  }
  ir::Stmt st;
  st.kind = ir::StmtKind::Barrier;
  st.span = call.span;
  st.barrier = "warpgroup_sync";
  st.value = v.expr;
  out.push_back(std::move(st));
}

}  // namespace tirx::sema
