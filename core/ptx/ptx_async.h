// The non-bulk asynchronous copy `cp.async.{ca,cg}.shared{::cta}.global{.L2::64B|128B|256B}`
// (spec TC §2): a thread-level tile op whose operands are two memory operands (shared destination,
// global source) and whose atom is `chunk_bytes=` bytes, not a fixed element count. It lives
// beside the table (ptx_table.cpp hands the `cp` family here) because its operand shapes depend
// on a keyword; sema_cp_async.cpp checks it.
#pragma once

#include <optional>
#include <string_view>

#include "core/ptx/ptx_table.h"

namespace tirx {

/// True for the family token "cp".
bool isAsyncCopyFamilyName(std::string_view family);
/// Parses a cp.async spelling; fills `error` (message, column, length of the offending token).
std::optional<PtxInstruction> parseCpAsyncOpcode(std::string_view opcode, PtxParseError* error);
/// The cp.async family for ptxFamilies().
PtxFamilyInfo cpAsyncFamilyInfo();

}  // namespace tirx
