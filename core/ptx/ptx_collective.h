// The warp-collective rows of the PTX instruction table (spec/TIRX-TENSOR-CORES.md §6, §7, §10):
// ldmatrix / stmatrix .m8n8 .b16, mma.sync m16n8k8 / m16n8k16 with f16/bf16 inputs and f32
// accumulators, shfl.sync and redux.sync. Their spellings have a fixed token order (the PTX
// grammar's), so they are matched by a small sequence table instead of the order-free slot rows of
// ptx_rows.cpp; parsePtxOpcode() hands these families to parseCollectiveOpcode(). They are outside
// ptxrows::enumerateSpellings() (the arithmetic conformance suite): collectiveSpellings() lists
// them for their own exact tests (tests/core/tst_ptx_collective.cpp, ptxas minimum targets).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ptx/ptx_table.h"

namespace tirx {

/// True for ldmatrix, stmatrix, mma, shfl and redux.
bool isCollectiveFamily(PtxFamily f);
/// True when `family` (the first token of an opcode) names a collective family.
bool isCollectiveFamilyName(std::string_view family);

/// Parses a spelling whose family is collective (ldmatrix.sync.aligned.m8n8.x4.shared.b16, ...).
/// Fills `error` (message, column and length of the offending token) and returns nullopt when the
/// spelling is not accepted.
std::optional<PtxInstruction> parseCollectiveOpcode(std::string_view opcode, PtxParseError* error);

/// Every accepted collective spelling (208), sorted.
std::vector<std::string> collectiveSpellings();

/// The collective families for ptxFamilies() (name, description, examples).
std::vector<PtxFamilyInfo> collectiveFamilyInfos();

/// Hover text per token of a collective spelling (same contract as describePtxTokens).
std::vector<PtxTokenInfo> describeCollectiveTokens(std::string_view opcode);
/// Next-token completions after `prefix` for a collective family (same contract as
/// ptxCompletions); an empty list when the prefix does not start a collective spelling.
std::vector<PtxTokenInfo> collectiveCompletions(std::string_view prefix);

/// The collective families as Markdown (appended to ptxTableMarkdown()).
std::string collectiveMarkdown();

}  // namespace tirx
