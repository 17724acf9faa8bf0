// The fragment facts of a script: for every register operand of a warp-collective tensor-core
// tile op (mma.sync A, B, C, D; ldmatrix/stmatrix registers), each element of each atom as the
// instruction sees it — its place in the instruction's atom (A m×k, B k×n, C/D m×n in element
// units; ldmatrix: 8·matrix + row × column of the stored b16 matrices), the lane, register and
// half the fragment map of core/ptx/fragments.h needs, and the thread and slot the tensor's layout
// actually gives it. Sema records them while it checks (also for an operand whose layout it
// rejects, so that the studio can outline the wrong cells) when asked through
// checkScriptWithFragments; the studio draws them without re-deriving anything. wgmma statements
// add their D accumulator (64·R × N) and, in the RS form, their A registers (64 × 16 per k-step)
// with the warpgroup's §8.4 maps (sema_wgmma.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/layout/wgmma_descriptor.h"
#include "core/sema/sema.h"

namespace tirx {

/// One element of a fragment operand.
struct FragmentCell {
  int warp = 0;             ///< the warp of the op's group (0 at scope="warp")
  int repeat = 0;           ///< the operand's repeat, flattened row-major over FragmentFact::repeat
  int row = 0, col = 0;     ///< the element in the instruction's atom frame (element units)
  int needLane = 0;         ///< the lane the fragment map needs (0..31)
  int needReg = 0;          ///< its 32-bit register among the operand's registers
  int needHalf = 0;         ///< 16-bit data: 0 = bits 0–15, 1 = bits 16–31
  int element = 0;          ///< the PTX element index (a_i, b_i, c_i, d_i; ldmatrix 2·reg + half)
  int64_t haveThread = -1;  ///< the thread the tensor's layout gives (warp-relative lane when
                            ///< the warp matches), −1 for a layout without thread axes
  int64_t haveSlot = 0;     ///< the register slot the layout gives (in the tensor's units)
  bool mismatch = false;    ///< the layout's thread differs from the one the map needs
  bool operator==(const FragmentCell&) const = default;
};

/// One register operand of one tensor-core tile op.
struct FragmentFact {
  std::string kernel;
  SourceSpan opSpan;       ///< the tile op call
  SourceSpan operandSpan;  ///< the operand expression
  std::string opcode;      ///< "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
  std::string role;        ///< the operand's name in the PTX table: "d", "a", "b", "c"
  char letter = 'r';       ///< the element letter of labels: 'a', 'b', 'c', 'd', or 'r' (ldmatrix)
  int operandIndex = 0;    ///< position among the op's operands (destination first)
  std::string tensor;      ///< the operand as the script spelled it
  std::string mapName;     ///< the fragment map, e.g. "mma.m16n8k16 A (words)"
  std::string mapLayout;   ///< a TileLayout that reproduces the map
  int rows = 0, cols = 0;  ///< the atom in element units (A 16×16, B 16×8, C/D 16×8, ldmatrix 32×8)
  int halves = 1;          ///< elements per 32-bit register (2 for 16-bit data)
  int warps = 1;           ///< warps of the op's group (blocks per repeat: one per warp)
  /// Threads of one block's frame: 32 (an mma.sync/ldmatrix atom of one warp) or 128 (wgmma: the
  /// warpgroup's 64-row frame in one block, FragmentCell::warp the cell's warp, needLane its lane;
  /// `warps` is then 1).
  int frameThreads = 32;
  std::vector<int64_t> repeat;      ///< the operand's repeat extents (empty: one atom)
  std::vector<FragmentCell> cells;  ///< warp-major, then repeat, then the atom's words row-major
  int64_t mismatches = 0;           ///< cells with mismatch (over all cells, also those cut off)
  bool truncated = false;           ///< cells stops after kMaxFragmentCells
};

/// The cell budget of one FragmentFact (a 64×64 tile at CTA scope fits several times).
inline constexpr int64_t kMaxFragmentCells = int64_t(1) << 16;

/// One instruction's view of a wgmma shared operand (A: one per (M repeat, k-step); B: one per
/// k-step): the descriptor it is issued with and what that descriptor reads.
struct DescriptorSubOperand {
  int repeat = 0, kStep = 0;
  /// The fields; startAddress is the byte offset from the buffer's start (dynamic region starts
  /// taken as 0): at run time the buffer's shared-window address is added.
  SmemDescriptor fields;
  uint64_t bits = 0;  ///< encodeDescriptor(fields): the value with the buffer at shared address 0
  /// The first core matrices (K-major: rows 8i..8i+7 × one 16-byte k chunk j; MN-major: 8 k × one
  /// 16-byte row chunk), i, j in {0, 1}, i outer: the byte offset descriptorAddress gives each of
  /// their 8 rows, from the buffer's start.
  std::vector<std::vector<int64_t>> coreMatrixBytes;
  /// Every element the descriptor reads (descriptorAddress, mapped back through the buffer's
  /// layout and swizzle), as a row-major flat index into the buffer's logical shape; sorted.
  std::vector<int64_t> elements;
  int64_t unmapped = 0;  ///< reads that land on no element of the buffer (0 when sema accepted it)
};

/// A shared operand (A in the SS form, B) of one wgmma statement with its descriptors.
struct DescriptorFact {
  std::string kernel;
  SourceSpan opSpan, operandSpan;
  SourceSpan keywordSpan;  ///< the a_descriptor=/b_descriptor= value (line 0 when absent)
  std::string opcode;
  char operand = 'a';  ///< 'a' or 'b'
  std::string tensor;  ///< the operand as written ("As[0:64, :]")
  std::string buffer;  ///< the shared allocation it reads
  std::vector<int64_t> bufferShape;
  MatrixMajor major = MatrixMajor::K;
  int elemBytes = 2;
  int64_t rows = 64, kSteps = 1;           ///< a sub-operand is rows × 16 elements
  std::vector<DescriptorSubOperand> subs;  ///< A: repeat-major, then k-step; B: k-steps
};

/// The front end's result and the fragment facts of every checked tensor-core tile op (program
/// order; an op rejected before its per-element check, e.g. for a wrong atom shape, has none).
struct CheckedScript {
  FrontEndResult frontEnd;
  std::vector<FragmentFact> fragments;
  std::vector<DescriptorFact>
      descriptors;  ///< wgmma shared operands sema accepted, in program order
};

/// checkScript plus the fragment facts (the CLI's checkScript does not pay for them).
CheckedScript checkScriptWithFragments(std::string_view source, std::string fileName = "<script>",
                                       const SemaOptions& options = {});

}  // namespace tirx
