// Private to core/toolchain: the one lexer of a SASS instruction line as nvdisasm and cuobjdump
// print it, `/*0890*/  @P0 HGMMA.64x256x16.F32.BF16 R24, gdesc[UR20], R24 ;  // | 135 | ...`.
// The register facts (register_facts.cpp: line records and live counts joined by address) and the
// Assembly view's hover facts (sassLineFacts in sass_lines.cpp) both read instructions through it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tirx::toolchain {

struct SassLine {
  int address = 0;     ///< the /*ADDR*/ column (at most 8 hex digits)
  std::string guard;   ///< "@!P0", "" when unguarded
  std::string opcode;  ///< "HGMMA.64x256x16.F32.BF16": mnemonic and modifiers
  std::string text;    ///< the instruction as printed (guard included), without the ';'
  std::string rest;    ///< what follows the ';' (nvdisasm -plr's count columns)
};

/// The instruction on `line`; nullopt for anything else (records, labels, headers, blank lines,
/// an address without an instruction or a ';'). A leading `{` (a dual-issue group) is skipped.
std::optional<SassLine> lexSassLine(std::string_view line);

}  // namespace tirx::toolchain
