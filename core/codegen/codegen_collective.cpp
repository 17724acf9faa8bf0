// Code generation for the warp collectives (spec/TIRX-TENSOR-CORES.md §6.4, §7.4, §9, §10):
//   - ldmatrix / stmatrix: one `asm volatile` per repeat; every lane passes the 32-bit shared
//     address of the row it provides (matrix (lane >> 3) % count, row lane & 7), computed in closed
//     form from the operand's layout and, for a ComposeLayout tile, the XOR swizzle
//     (`tirx_swizzle`, constants folded here); the registers are constant slots of the per-thread
//     array (sema checked that one instruction register is one slot in every lane);
//   - mma.sync: one asm per (m, n, k), K innermost, D tied to C ("+f") when they are the same
//     registers;
//   - the CUDA shuffle intrinsics of `T.cuda.__shfl_xor_sync` etc., hoisted by sema into their own
//     assignment.
// shfl.sync and redux.sync tile ops have per-lane atoms and go through emitApply's generic path.
#include "core/codegen/codegen_internal.h"
#include "core/ptx/fragments.h"

namespace tirx::codegen::detail {

namespace {

bool parseInt(const std::string& s, int64_t& v) {
  if (s.empty()) return false;
  size_t i = s[0] == '-' ? 1 : 0;
  if (i == s.size()) return false;
  for (size_t k = i; k < s.size(); ++k)
    if (s[k] < '0' || s[k] > '9') return false;
  v = std::stoll(s);
  return true;
}

int log2i(int64_t v) {
  int l = 0;
  while ((int64_t(1) << l) < v) ++l;
  return l;
}

struct AsmArg {
  std::string constraint, value;
};

}  // namespace

std::string Emitter::offsetExpr(const ir::TensorRef& ref, const std::vector<std::string>& coord,
                                const std::vector<int64_t>* constCoord) {
  return swizzled(ref, offsetExprUnswizzled(ref, coord, constCoord));
}

std::string Emitter::swizzled(const ir::TensorRef& ref, const std::string& off) {
  if (!m_kernel || ref.buffer < 0) return off;
  const ir::Buffer& b = m_kernel->buffers.at(size_t(ref.buffer));
  if (b.swizzle.isIdentity()) return off;
  // The swizzle permutes units of 2^M buffer elements; in the view's elements a unit is
  // 2^M · bytes(buffer) / bytes(view) elements (sema keeps a unit at 16 bytes, E0267).
  const int64_t unitBytes = (int64_t(1) << b.swizzle.perElement) * ir::dtypeBytes(b.dtype);
  const int m = log2i(std::max<int64_t>(1, unitBytes / std::max(1, ir::dtypeBytes(ref.dtype))));
  int64_t v = 0;
  if (parseInt(off, v)) {
    Swizzle s = b.swizzle;
    s.perElement = m;
    return std::to_string(s.apply(v));
  }
  return "tirx_swizzle(" + off + ", " + std::to_string(m) + ", " + std::to_string(b.swizzle.len) +
         ", " + std::to_string(b.swizzle.atom) + ")";
}

std::string Emitter::shuffleCall(const ir::Expr& e) {
  // args: mask (uint32), value, lane/offset (int32), width (constant)
  std::string s = e.name + "(";
  for (size_t i = 0; i < e.args.size(); ++i) s += (i ? ", " : "") + expr(e.args[i]);
  return s + ")";
}

void Emitter::emitMatrixCollective(const ir::Stmt& s) {
  const ir::TileApply& a = *s.apply;
  const PtxInstruction& in = a.instr;
  const bool isMma = in.family == PtxFamily::Mma;
  const size_t gr = a.group.size();
  const std::vector<std::string> gv =
      gr ? std::vector<std::string>{a.scope == ir::ExecScope::Warpgroup ? "(tirx_warp & 3)"
                                                                        : "tirx_warp"}
         : std::vector<std::string>{};
  const int64_t warps = gr ? a.group[0] : 1;
  const frag::MmaShape shape = in.mmaK == 16 ? frag::MmaShape::M16N8K16 : frag::MmaShape::M16N8K8;
  const int n = static_cast<int>(a.operands.size());
  if (a.repeatAxes.size() != size_t(n) || a.atomRank.size() != size_t(n)) {
    internalError(s.span, "cannot lower " + in.opcode + ": malformed collective operands");
    return;
  }

  // The lvalue of register `reg` of operand `i` at its own repeat coordinate `own`.
  auto regLvalue = [&](int i, const std::vector<int64_t>& own, int reg) {
    const ir::TensorRef& ref = a.operands[size_t(i)].tensor;
    std::vector<int64_t> atom;
    if (isMma) {
      const frag::MmaOperand which = i == 1   ? frag::MmaOperand::A
                                     : i == 2 ? frag::MmaOperand::B
                                              : frag::MmaOperand::C;
      const frag::Coord c =
          frag::mmaWord(shape, which, 0, reg);  // lane 0 holds it; sema: same slot in every lane
      atom = {c.row, c.col};
    } else {
      atom = {reg, 0, 0};
    }
    std::optional<int64_t> slot;
    bool constant = !ref.hasDynamicOffset();
    for (int64_t w = 0; w < warps && constant; ++w) {
      std::vector<int64_t> coord;
      if (gr) coord.push_back(w);
      coord.insert(coord.end(), own.begin(), own.end());
      coord.insert(coord.end(), atom.begin(), atom.end());
      const int64_t m = ref.resolve(coord)["m"];
      if (!slot)
        slot = m;
      else if (*slot != m)
        constant = false;
    }
    if (constant && slot) return element(ref, std::to_string(*slot));
    std::vector<std::string> coord = gv;
    for (int64_t x : own) coord.push_back(std::to_string(x));
    for (int64_t x : atom) coord.push_back(std::to_string(x));
    return element(ref, offsetExpr(ref, coord));
  };

  begin(s.span);
  const int64_t nRep = product(a.repeat);
  for (int64_t r = 0; r < nRep; ++r) {
    const std::vector<int64_t> rc = unflatten(r, a.repeat);
    auto ownOf = [&](int i) {
      std::vector<int64_t> own;
      for (int ax : a.repeatAxes[size_t(i)]) own.push_back(rc[size_t(ax)]);
      return own;
    };
    std::vector<AsmArg> outs, ins;
    std::string text = in.opcode + " ";
    auto regList = [&](std::vector<std::string> lvals, bool output, const char* c) {
      std::string t = "{";
      for (size_t k = 0; k < lvals.size(); ++k) {
        const size_t idx = output ? outs.size() : ins.size();
        (output ? outs : ins).push_back({std::string(output ? "=" : "") + c, lvals[k]});
        t += (k ? ", %" : "%") + std::string(output ? "o" : "i") + std::to_string(idx);
      }
      return t + "}";
    };
    if (isMma) {
      std::vector<std::string> d, av, bv, cv;
      for (int j = 0; j < 4; ++j) d.push_back(regLvalue(0, ownOf(0), j));
      for (int j = 0; j < in.mmaK / 4; ++j) av.push_back(regLvalue(1, ownOf(1), j));
      for (int j = 0; j < in.mmaK / 8; ++j) bv.push_back(regLvalue(2, ownOf(2), j));
      for (int j = 0; j < 4; ++j) cv.push_back(regLvalue(3, ownOf(3), j));
      const bool tied = d == cv;
      const std::string dt = regList(d, true, "f");
      if (tied)
        for (AsmArg& o : outs) o.constraint = "+f";
      // One statement per list: the operands are numbered in the order they are listed.
      const std::string at = regList(av, false, "r");
      const std::string bt = regList(bv, false, "r");
      text += dt + ", " + at + ", " + bt + ", ";
      text += tied ? dt : regList(cv, false, "f");
    } else {
      const bool load = in.family == PtxFamily::Ldmatrix;
      const int memI = load ? 1 : 0, regI = load ? 0 : 1;
      const ir::TensorRef& mem = a.operands[size_t(memI)].tensor;
      std::vector<std::string> coord = gv;
      for (int64_t x : ownOf(memI)) coord.push_back(std::to_string(x));
      coord.push_back(
          in.matrices == 1 ? "0" : "((tirx_lane >> 3) & " + std::to_string(in.matrices - 1) + ")");
      coord.push_back("(tirx_lane & 7)");
      coord.push_back("0");
      const std::string off = offsetExpr(mem, coord);
      const std::string addr =
          "(unsigned)__cvta_generic_to_shared(" + typedPointer(mem) + " + " + off + ")";
      std::vector<std::string> regs;
      for (int j = 0; j < in.matrices; ++j) regs.push_back(regLvalue(regI, ownOf(regI), j));
      if (load) {
        text += regList(regs, true, "r") + ", [%i" + std::to_string(ins.size()) + "]";
        ins.push_back({"r", addr});
      } else {
        text += "[%i" + std::to_string(ins.size()) + "], ";
        ins.push_back({"r", addr});
        text += regList(regs, false, "r");
      }
    }
    text += ";";
    // Number outputs first, then inputs (GCC inline-asm order).
    std::string numbered;
    for (size_t k = 0; k < text.size(); ++k) {
      if (text[k] == '%' && k + 1 < text.size() && (text[k + 1] == 'o' || text[k + 1] == 'i')) {
        const bool o = text[k + 1] == 'o';
        size_t e = k + 2;
        while (e < text.size() && isdigit(static_cast<unsigned char>(text[e]))) ++e;
        const int idx = std::stoi(text.substr(k + 2, e - k - 2));
        numbered += "%" + std::to_string(o ? idx : int(outs.size()) + idx);
        k = e - 1;
      } else {
        numbered += text[k];
      }
    }
    auto join = [](const std::vector<AsmArg>& v) {
      std::string t;
      for (const AsmArg& x : v)
        t += (t.empty() ? "" : ", ") + ("\"" + x.constraint + "\"(" + x.value + ")");
      return t;
    };
    std::string line = "asm volatile(\"" + numbered + "\" : " + join(outs) + " : " + join(ins);
    if (!isMma) line += " : \"memory\"";
    line += ");";
    this->line(indent() + line);
  }
  end();
}

}  // namespace tirx::codegen::detail
