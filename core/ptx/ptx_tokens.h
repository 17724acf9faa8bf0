// The dotted tokens of a PTX opcode spelling, shared by the family parsers (cp.async, TMA,
// collectives, wgmma): `cp.async.bulk` → `cp`, `.async`, `.bulk`, each with its column in the
// spelling, and the one way they report the first token that fits nowhere (PtxParseError).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/ptx/ptx_table.h"

namespace tirx {

struct PtxToken {
  std::string text;  ///< with its leading '.', except the first token
  int column = 0;    ///< offset in the spelling
};

/// Splits `op` before every '.' but a leading one.
std::vector<PtxToken> splitPtxTokens(std::string_view op);

/// Fills `*err` (when given) with the message and the token's place; returns false.
bool ptxTokenError(PtxParseError* err, std::string msg, int column, int length);

}  // namespace tirx
