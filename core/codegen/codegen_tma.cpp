// TMA copies (spec TC §5.3): one inline-asm `cp.async.bulk.tensor` per TileTma statement, issued
// by the thread that reaches it. The tensor map is the kernel's `const __grid_constant__
// CUtensorMap tirx_tmapN` parameter (the host encodes it, core/driver), passed by its generic
// address ("l"); shared addresses (destination or source, and the mbarrier) are 32-bit
// shared-window values ("r"); coordinates are `.s32`, innermost first. The opcode is emitted as the
// script spells it: `.shared::cluster` works with every sm_90 toolchain, `.shared::cta` needs PTX
// ISA 8.6 (CUDA 12.8+; NVRTC 13 emits PTX 9.0) — decision TC-T5 in docs/decisions.md.
#include "core/codegen/codegen_internal.h"

namespace tirx::codegen::detail {

std::string Emitter::sharedAddress(const ir::TensorRef& ref,
                                   const std::vector<std::string>& coord) {
  return "(unsigned)__cvta_generic_to_shared(&" + element(ref, offsetExpr(ref, coord)) + ")";
}

void Emitter::emitTma(const ir::Stmt& s) {
  const ir::TmaCopy& t = *s.tma;
  const size_t rank = t.box.size();
  const std::vector<std::string> zero(t.shared.shape.size(), "0");
  std::vector<std::string> in;  // input operands in order, the asm text's %N
  std::string coords = "{";
  auto coordList = [&](int first) {
    for (size_t i = 0; i < rank; ++i) {
      coords += (i ? ", %" : "%") + std::to_string(first + int(i));
      in.push_back("\"r\"((int)(" + expr(t.coords[rank - 1 - i]) + "))");
    }
    coords += "}";
  };
  const std::string map = "&tirx_tmap" + std::to_string(t.map);
  std::string text;
  if (t.store) {
    in.push_back("\"l\"(" + map + ")");
    coordList(1);
    in.push_back("\"r\"(" + sharedAddress(t.shared, zero) + ")");
    text = t.instr.opcode + " [%0, " + coords + "], [%" + std::to_string(rank + 1) + "];";
  } else {
    in.push_back("\"r\"(" + sharedAddress(t.shared, zero) + ")");
    in.push_back("\"l\"(" + map + ")");
    coordList(2);
    std::vector<std::string> idx;
    for (const auto& e : t.mbarIndex) idx.push_back(expr(e));
    in.push_back("\"r\"((unsigned)__cvta_generic_to_shared(&" +
                 element(*t.mbar, offsetExpr(*t.mbar, idx)) + "))");
    text = t.instr.opcode + " [%0], [%1, " + coords + "], [%" + std::to_string(rank + 2) + "];";
  }
  std::string operands;
  for (size_t i = 0; i < in.size(); ++i) operands += (i ? ", " : "") + in[i];
  stmt(s.span, "asm volatile(\"" + text + "\" :: " + operands + " : \"memory\");");
}

}  // namespace tirx::codegen::detail
