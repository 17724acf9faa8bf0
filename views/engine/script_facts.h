// What the editor and the layout view need to know about a script, computed on the job runner's
// worker (never on the GUI thread), in two stages (decision LIVE-3 in docs/decisions.md):
//  1. checkScriptFacts: the front-end result (diagnostics, IR, symbols) from checkScript — the very
//     call `tirx check` makes — and the PTX opcode strings sema resolved. Delivered at once: the
//     diagnostics are on screen as soon as the engine's check returns.
//  2. detailScriptFacts: what is drawn from that result afterwards — an ownership summary of every
//     layout-carrying symbol and literal (hovers), the fragment facts and wgmma descriptors of the
//     tensor-core ops and the byte/bank images of the shared tiles (the Tensor cores dock). It
//     takes a cancel token: the next keystroke stops it between its steps.
// Ownership tables of a tile (the Layout dock) are not here: they are tabulated on their own job
// for the region on screen (LayoutGridModel). Qt-free so that it is unit-testable.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/diag/budget.h"
#include "core/sema/sema.h"
#include "views/engine/opcode_fragments.h"
#include "views/engine/tensor_core_facts.h"

namespace tirx::views {

/// One `T.ptx["..."]` string in the script.
struct OpcodeSite {
  SourceSpan span;     ///< the opcode text inside the quotes (byte offsets into the script)
  std::string opcode;  ///< the spelling
  bool valid = false;  ///< parsePtxOpcode accepted it
  std::string info;    ///< family, atom, dtypes and description, or the parse error
  std::vector<FragmentTable> fragments;  ///< mma/ldmatrix/stmatrix: the hover's fragment picture
};

/// Ownership summary of a symbol with a layout (the editor's hover on a layout name), bounded at
/// any size (core/layout's ownershipSummary); a global or shared tensor counts its elements only.
struct LayoutSummary {
  int symbol = -1;  ///< index into program.symbols (-1 for a layout literal)
  SourceSpan span;  ///< a layout literal's span (ir::Program::layoutLiterals)
  int64_t elements = 0;
  int64_t threadsUsed = 0;   ///< −1: not counted (the thread axes alone are past the table cap)
  int64_t maxSlotsUsed = 0;  ///< registers (slots) per thread actually used; −1 past the cap
  int64_t slotsPerThread = 0;
  int64_t replicas = 1;        ///< owners per element (1 + replica copies)
  std::string text;            ///< the layout in surface syntax
  std::vector<int64_t> shape;  ///< the shape the summary tabulated
};

/// The worker's answer to one text snapshot: stage 1 fills source, fileName, frontEnd, opcodes and
/// the times; stage 2 adds the rest and sets `detailed`.
struct ScriptFacts {
  std::string source;
  std::string fileName;
  std::shared_ptr<const FrontEndResult> frontEnd;
  std::vector<OpcodeSite> opcodes;
  bool detailed = false;   ///< stage 2 ran to its end on this text
  bool cancelled = false;  ///< stage 2 was stopped by its cancel token (its fields are partial)
  std::vector<LayoutSummary> layouts;
  std::vector<LayoutSummary> literals;       ///< one per ir::Program::layoutLiterals entry
  std::vector<FragmentFact> fragments;       ///< tensor-core register operands, element by element
  std::vector<SharedTileImage> sharedTiles;  ///< byte/bank images of the shared allocations
  std::vector<DescriptorFact>
      descriptors;          ///< wgmma shared operands: descriptors and what they read
  double millis = 0;        ///< stage 1 on the worker (the engine's check and the opcode texts)
  double checkMillis = 0;   ///< of which checkScript itself
  double detailMillis = 0;  ///< stage 2 on the worker
};

/// Stage 1: checkScript on `source` (the CLI's call) and sema's opcode sites formatted for the
/// hovers. Never throws on user input.
ScriptFacts checkScriptFacts(std::string source, std::string fileName, int sm);
/// Stage 2 of `checked` (a stage-1 result): the same facts with the hover summaries, fragment
/// facts, descriptors and shared-tile images added and `detailed` set; with `cancelled` set and
/// `detailed` clear when `cancel` was set before it finished. Bounded at any tile size.
ScriptFacts detailScriptFacts(const ScriptFacts& checked, const CancelToken* cancel = nullptr);
/// Both stages at once (tests, benchmarks).
ScriptFacts analyzeScript(std::string source, std::string fileName, int sm);

/// "ld (memory) · atom 4 · dtypes float32, int32 · <description>": one tooltip text.
std::string describeOpcode(const PtxInstruction& instr);

/// The symbol a byte `offset` of the script refers to: a definition or use span containing it
/// first, else a symbol called `word` (the one defined last before `line`). -1 when none.
int symbolAt(const ir::Program& program, int offset, const std::string& word, int line);

/// Index of the innermost layout literal containing `offset`, or -1.
int layoutLiteralAt(const std::vector<LayoutSummary>& literals, int offset);
/// Hover text of a layout literal: "layout S[…]\n256 elements · 64 threads × 4 registers per
/// thread · shape (2, 32, 4)".
std::string describeLayoutLiteral(const LayoutSummary& literal);

/// Index of the opcode site containing `offset`, or -1.
int opcodeAt(const std::vector<OpcodeSite>& sites, int offset);

/// Hover text for the layout summary of symbol `index`: "register_layout: 64 threads × 4
/// registers, 256 elements …", or empty when the symbol has no layout.
std::string describeLayoutSymbol(const ir::Program& program, const std::vector<LayoutSummary>& ls,
                                 int index);

}  // namespace tirx::views
