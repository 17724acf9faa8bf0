// The tensor-core facts the studio draws, as Qt-free values prepared on the worker: the byte/bank
// image of every shared tile (its ChunkImage from core/layout, the same image `tirx layout`
// prints), the bank of each element under it, and the shared-memory counts the simulator recorded
// for the instructions that touch a tile (the engine report's KernelRun::sharedAccesses). The
// fragment facts themselves come straight from the engine (checkScriptWithFragments,
// core/sema/fragment_facts.h). Nothing here re-derives an engine fact: the bank of an element is
// the physical chunk's first bank plus its 4-byte word.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/ir.h"
#include "core/ir/shared_access.h"
#include "core/layout/swizzle_layout.h"
#include "core/sema/fragment_facts.h"
#include "core/verify/verify.h"

namespace tirx::views {

/// One shared allocation of the script with its byte/bank image.
struct SharedTileImage {
  int symbol = -1;  ///< index into program.symbols
  int buffer = -1;  ///< its buffer in the kernel (Symbol::buffer): how counts name it
  std::string name, kernel;
  std::string layoutText;   ///< "ComposeLayout(3, 3, 3, TileLayout(S[64, 64]))"
  std::string swizzleMode;  ///< "128B", "none", or empty when no hardware mode matches
  bool swizzled = false;
  int elemBytes = 2;
  bool ok = false;  ///< image valid; else `why`
  std::string why;
  ChunkImage image;  ///< rows × chunksPerRow physical 16-byte chunks (core/layout)
  int64_t cols = 0;  ///< elements per logical row
};

/// Shared allocations (kind Tensor, scope Shared) of `program` with their images; rows past
/// `maxRows` make the image unavailable (`why`).
std::vector<SharedTileImage> sharedTileImages(const ir::Program& program, int64_t maxRows = 1024);

/// The bank (0..31) of element (row, col) under the image, −1 when its chunk is not one
/// contiguous aligned 16-byte chunk.
int elementBank(const SharedTileImage& tile, int64_t row, int64_t col);
/// The byte offset of element (row, col) in the allocation after the swizzle, −1 as above.
int64_t elementByte(const SharedTileImage& tile, int64_t row, int64_t col);

/// One statement's counts in `report.runs[run].sharedAccesses[access]` (a row of the conflict
/// table).
struct TileAccessRow {
  int run = -1, access = -1;
};
/// The per-statement counts of the engine's `report` that address buffer id `buffer` of `kernel`
/// (SharedAccessCount::buffer, as the simulator filed them), in launch then program order.
std::vector<TileAccessRow> tileAccessRows(const verify::Report& report, const std::string& kernel,
                                          int buffer);
const ir::SharedAccessCount& accessOf(const verify::Report& report, const TileAccessRow& row);

/// "line 38 · mma.sync…f32 · a ('a')": the picker text of a fragment fact.
std::string describeFragmentFact(const FragmentFact& f);

/// The cell of fact `f` for (warp, repeat, row, col), or null.
const FragmentCell* fragmentCell(const FragmentFact& f, int warp, int repeat, int row, int col);

/// The cell label "T5 r2" (lane and register the instruction needs) and, for the second line, the
/// PTX element "a2" (16-bit halves: "a2 lo"/"a3 hi" are the same register's two halves).
std::string fragmentCellLabel(const FragmentFact& f, const FragmentCell& c);
std::string fragmentCellElement(const FragmentFact& f, const FragmentCell& c);
/// The long form for tooltips: "element (8, 0) · lane 0 · a2 (register 1, bits 0–15) · the layout
/// gives thread 0, slot 1".
std::string describeFragmentCell(const FragmentFact& f, const FragmentCell& c);

}  // namespace tirx::views
