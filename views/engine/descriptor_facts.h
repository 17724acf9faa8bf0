// Text of the wgmma descriptor facts for the editor's hover and the Tensor cores dock: the engine
// publishes every shared sub-operand's descriptor (fields, 64-bit value, the bytes of the first
// core matrices, the elements it reads: DescriptorFact in core/sema/fragment_facts.h); this file
// only finds the fact under the cursor and formats it. Qt-free so that it is unit-testable.
#pragma once

#include <string>
#include <vector>

#include "core/sema/fragment_facts.h"

namespace tirx::views {

/// Index of the descriptor fact whose operand or a_descriptor=/b_descriptor= value contains byte
/// `offset` of the script, or −1.
int descriptorFactAt(const std::vector<DescriptorFact>& facts, int offset);

/// "0x40000040000100a0": a descriptor's 64-bit value.
std::string descriptorHex(uint64_t bits);

/// One sub-operand: "k-step 1: start +32 B · LBO 16 B · SBO 1024 B · base offset 0 · swizzle
/// 128B · 0x…" (A with M repeats: "m-repeat 0, k-step 1: …").
std::string describeDescriptorSub(const DescriptorFact& f, int sub);

/// The hover text: the operand, then every sub-operand's line, then the byte offsets of the first
/// core matrices of the first sub-operand ("core matrix rows 0–7 × k 0–7: 0, 144, …").
std::string describeDescriptorFact(const DescriptorFact& f);

/// "line 40 · wgmma…bf16 · b descriptor ('Bs')": the dock's picker text.
std::string describeDescriptorPick(const DescriptorFact& f);

}  // namespace tirx::views
