// The Hopper warpgroup MMA rows of the PTX instruction table (spec/TIRX-TENSOR-CORES.md §8):
// `wgmma.mma_async.sync.aligned.m64n{N}k16.f32.{bf16.bf16|f16.f16}` for N = 8..256 in steps of 8,
// f32 accumulators, A from shared memory (a descriptor) or registers, B from shared memory. The
// tokens come in PTX's fixed order, so parsePtxOpcode() hands every `wgmma` spelling here. The
// other wgmma shapes of the PTX table (f16 accumulators, tf32, fp8, integer, b1) are refused with
// a message naming the token, and wgmma.fence / commit_group / wait_group are statements
// (`T.ptx.wgmma.fence.sync.aligned()`, sema_async.cpp), not tile operations.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ptx/ptx_table.h"

namespace tirx {

/// True for an opcode whose family token is `wgmma`.
bool isWgmmaSpelling(std::string_view opcode);

/// Parses a wgmma.mma_async spelling: family Wgmma, `wgmmaN`, `abType` (".bf16" or ".f16"),
/// `type` ".f32", minimum target 90 (sm_90a: the simulator and sema require exactly sm_90),
/// operands d (f32 registers), a (shared or registers), b (shared). Fills `error` (message,
/// column and length of the offending token) and returns nullopt otherwise.
std::optional<PtxInstruction> parseWgmmaOpcode(std::string_view opcode, PtxParseError* error);

/// Every accepted spelling (N = 8..256 step 8, bf16 and f16).
std::vector<std::string> wgmmaSpellings();

/// The family for ptxFamilies().
PtxFamilyInfo wgmmaFamilyInfo();

/// Hover text per token (same contract as describePtxTokens).
std::vector<PtxTokenInfo> describeWgmmaTokens(std::string_view opcode);

/// The wgmma section of ptxTableMarkdown().
std::string wgmmaMarkdown();

}  // namespace tirx
