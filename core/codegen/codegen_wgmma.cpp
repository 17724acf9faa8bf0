// Code generation for the Hopper warpgroup MMA (spec/TIRX-TENSOR-CORES.md §8.3 item 6, §8.5,
// §8.6; decision TC-2): one `asm volatile` per (k-step, m-repeat) with every accumulator register
// of the repeat as a "+f" operand, the descriptors as "l" operands and scale-d as a predicate set
// from an "r" operand (CUTLASS's form). Each shared operand's descriptor is a 64-bit constant for
// the LBO/SBO/swizzle fields OR'ed with ((shared address + byte offset) & 0x3FFFF) >> 4: the
// region's origin address is computed once per statement (integer adds over the region's start
// expressions, e.g. a pipeline stage), the sub-operand offsets (k-steps inside a swizzle atom,
// m-repeats) are constants. Before the first and after the last wgmma of the statement every
// accumulator (and RS A) register is pinned with an empty asm ("noop_barrier", §8.3 item 6) so
// that ptxas keeps them in place across the asynchronous window.
#include <cstdio>

#include "core/codegen/codegen_internal.h"

namespace tirx::codegen::detail {

namespace {

std::string hex64(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%016llxull", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

std::vector<std::string> Emitter::wgmmaRegisterOperands(const ir::Wgmma& w, bool withA) {
  const int regs = w.n / 2;
  std::vector<std::string> all;
  if (w.dSlots.size() != size_t(w.mRepeat * regs) ||
      (w.aRegisters && w.aSlots.size() != size_t(w.mRepeat * w.kSteps * 4)))
    return all;  // malformed: emitWgmma reports it
  for (int64_t r = 0; r < w.mRepeat; ++r)
    for (int j = 0; j < regs; ++j)
      all.push_back("\"+f\"(" + element(w.d, std::to_string(w.dSlots[size_t(r * regs + j)])) + ")");
  if (withA && w.aRegisters)
    for (int64_t r = 0; r < w.mRepeat; ++r)
      for (int64_t k = 0; k < w.kSteps; ++k)
        for (int i = 0; i < 4; ++i)
          all.push_back(
              "\"+r\"(" +
              element(w.aRegs, std::to_string(w.aSlots[size_t((r * w.kSteps + k) * 4 + i)])) + ")");
  return all;
}

void Emitter::pinRegisters(const std::vector<std::string>& operands) {
  for (size_t i = 0; i < operands.size(); i += 8) {
    std::string l = indent();
    for (size_t k = i; k < std::min(operands.size(), i + 8); ++k)
      l += (k > i ? " " : "") + std::string("asm volatile(\"\" : ") + operands[k] +
           " :: \"memory\");";
    line(l);
  }
}

void Emitter::emitWgmma(const ir::Stmt& s) {
  const ir::Wgmma& w = *s.wgmma;
  m_usesSm90a = true;
  const int regs = w.n / 2;
  if (w.dSlots.size() != size_t(w.mRepeat * regs) ||
      (w.aRegisters && w.aSlots.size() != size_t(w.mRepeat * w.kSteps * 4)) ||
      w.b.start.size() != size_t(w.kSteps) ||
      (!w.aRegisters && w.a.start.size() != size_t(w.mRepeat * w.kSteps))) {
    internalError(s.span, "cannot lower " + w.instr.opcode + ": malformed wgmma operands");
    return;
  }
  auto dReg = [&](int64_t r, int j) {
    return element(w.d, std::to_string(w.dSlots[size_t(r * regs + j)]));
  };
  auto aReg = [&](int64_t r, int64_t k, int i) {
    return element(w.aRegs, std::to_string(w.aSlots[size_t((r * w.kSteps + k) * 4 + i)]));
  };
  const int id = m_tmp++;
  const std::vector<std::string> pinned = wgmmaRegisterOperands(w, true);
  noteAccumulators(wgmmaRegisterOperands(w, false));  // waits from here on pin them
  auto pin = [&]() {
    ++m_depth;
    pinRegisters(pinned);
    --m_depth;
  };
  // The shared-window address of a shared operand's origin (before the swizzle: the hardware
  // applies it to the address bits).
  auto base = [&](const ir::WgmmaShared& o, const char* name) {
    const std::vector<std::string> zero(o.ref.shape.size(), "0");
    const std::string off = offsetExprUnswizzled(o.ref, zero);
    const std::string v = "tirx_wg" + std::to_string(id) + "_" + name;
    line(indent() + "  const unsigned " + v + " = (unsigned)__cvta_generic_to_shared(" +
         typedPointer(o.ref) + ") + (unsigned)(" + off + ") * " +
         std::to_string(ir::dtypeBytes(o.ref.dtype)) + "u;");
    return v;
  };
  auto desc = [&](const ir::WgmmaShared& o, const std::string& b, int64_t start) {
    return "(" + hex64(o.highBits) + " | (unsigned long long)(((" + b + " + " +
           std::to_string(start) + "u) & 0x3FFFFu) >> 4))";
  };
  begin(s.span);
  line(indent() + "{");
  const std::string aBase = w.aRegisters ? std::string() : base(w.a, "a");
  const std::string bBase = base(w.b, "b");
  const std::string scale = "(int)(" + expr(w.scaleD) + ")";
  // scale-d 0 ignores D's input: give the registers a value so that the pinning asm and the "+f"
  // operands read defined values (no "used before set" warning, no undefined reads).
  if (w.scaleD && w.scaleD->kind == ir::ExprKind::IntImm && w.scaleD->intValue == 0)
    for (int64_t r = 0; r < w.mRepeat; ++r)
      for (int j = 0; j < regs; j += 8) {
        std::string l = indent() + " ";
        for (int k = j; k < std::min(regs, j + 8); ++k) l += " " + dReg(r, k) + " = 0.0f;";
        line(l);
      }
  pin();
  for (int64_t k = 0; k < w.kSteps; ++k)
    for (int64_t r = 0; r < w.mRepeat; ++r) {
      std::vector<std::string> outs, ins;
      std::string text = "{\\n.reg .pred p;\\nsetp.ne.b32 p, %SCALE, 0;\\n" + w.instr.opcode + " {";
      for (int j = 0; j < regs; ++j) {
        text += (j ? ", %" : "%") + std::to_string(outs.size());
        outs.push_back("\"+f\"(" + dReg(r, j) + ")");
      }
      text += "}, ";
      auto in = [&](const std::string& c) {
        ins.push_back(c);
        return "%" + std::to_string(regs + int(ins.size()) - 1);
      };
      if (w.aRegisters) {
        text += "{";
        for (int i = 0; i < 4; ++i) text += (i ? ", " : "") + in("\"r\"(" + aReg(r, k, i) + ")");
        text += "}, ";
      } else {
        text += in("\"l\"(" + desc(w.a, aBase, w.a.start[size_t(r * w.kSteps + k)]) + ")") + ", ";
      }
      text += in("\"l\"(" + desc(w.b, bBase, w.b.start[size_t(k)]) + ")") + ", p, ";
      const std::string sc = in("\"r\"(" + (k == 0 ? scale : std::string("1")) + ")");
      text.replace(text.find("%SCALE"), 6, sc);
      text += std::to_string(w.scaleA) + ", " + std::to_string(w.scaleB) + ", ";
      if (!w.aRegisters) text += std::to_string(w.transA) + ", ";
      text += std::to_string(w.transB) + ";\\n}\\n";
      std::string l = indent() + "  asm volatile(\"" + text + "\" : ";
      for (size_t i = 0; i < outs.size(); ++i) l += (i ? ", " : "") + outs[i];
      l += " : ";
      for (size_t i = 0; i < ins.size(); ++i) l += (i ? ", " : "") + ins[i];
      l += " : \"memory\");";
      line(l);
    }
  pin();
  line(indent() + "}");
  end();
}

}  // namespace tirx::codegen::detail
