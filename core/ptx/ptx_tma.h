// The TMA rows of the PTX instruction table (spec/TIRX-TENSOR-CORES.md §5): the tensor copies
// `cp.async.bulk.tensor.Nd.<dst>.<src>[.tile].<completion>` between global memory (through a
// tensor map the host encodes) and shared memory, in tile mode, rank 1 to 5. Loads complete
// transaction bytes on an mbarrier (`.mbarrier::complete_tx::bytes`), stores join the issuing
// thread's bulk async group (`.bulk_group`). Like the collectives their tokens come in PTX's fixed
// order, so parsePtxOpcode() hands every `cp.async.bulk.tensor` spelling to parseTmaOpcode().
// Multicast, im2col, gather/scatter, cache hints, cta_group and `cp.reduce` are refused with a
// message naming the token.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ptx/ptx_table.h"

namespace tirx {

/// True for an opcode that starts with `cp.async.bulk.tensor` (or `cp.reduce.async.bulk.tensor`).
bool isTmaSpelling(std::string_view opcode);

/// Parses a TMA spelling: family BulkTensor, `tensorRank` 1..5, `tmaStore`, `space` (the shared
/// state space: "shared::cta" or "shared::cluster"), minimum target sm_90, two memory operands in
/// call order (load: dst shared, src global; store: dst global, src shared). Fills `error`
/// (message, column and length of the offending token) and returns nullopt otherwise.
std::optional<PtxInstruction> parseTmaOpcode(std::string_view opcode, PtxParseError* error);

/// Every accepted TMA spelling (rank 1..5, both load destinations, with and without `.tile`,
/// store).
std::vector<std::string> tmaSpellings();

/// The family for ptxFamilies().
PtxFamilyInfo tmaFamilyInfo();

/// Hover text per token (same contract as describePtxTokens).
std::vector<PtxTokenInfo> describeTmaTokens(std::string_view opcode);

/// The TMA section of ptxTableMarkdown().
std::string tmaMarkdown();

}  // namespace tirx
