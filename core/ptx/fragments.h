// Fragment maps of the warp- and warpgroup-collective tensor-core instructions, as data
// (spec/TIRX-TENSOR-CORES.md §6.2, §7.1–§7.2, §8.4; H200-verified in spec/tc-verify/): which
// thread, register and 16-bit half holds each element of an instruction's atom, the
// address-provider lanes of ldmatrix/stmatrix, and the TileLayout expression of every register
// fragment. The sema checker compares a register tensor's layout with these tables ("element
// (3, 5) is in lane 7, the instruction needs lane 12"); the simulator gathers and scatters by
// them; the layout view draws them. Pure integer code; no dependency on core/layout (the layout
// expressions are text, parsed by whoever needs a TileLayout).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tirx::frag {

/// A position inside an atom matrix (row-major logical coordinates).
struct Coord {
  int row = 0;
  int col = 0;
  bool operator==(const Coord&) const = default;
};

/// Who holds an element: the thread of the warp (0–31) or warpgroup (0–127), its 32-bit register
/// index among the instruction's registers of that operand, and for 16-bit data the half
/// (0 = bits 0–15, the lower column; 1 = bits 16–31).
struct Holder {
  int thread = 0;
  int reg = 0;
  int half = 0;
  bool operator==(const Holder&) const = default;
};

/// Units of a register fragment: 16-bit elements (a 32-bit register holds two) or 32-bit words
/// (the G2 convention for A/B and ldmatrix registers: "b32 words, each two adjacent values").
enum class Units { Elements, Words };

// ---- ldmatrix / stmatrix .m8n8 .b16 (§6.2) ----------------------------------------------------

struct MatrixShape {
  int count = 4;       ///< .x1, .x2, .x4
  bool trans = false;  ///< .trans
};

/// The address lane of row `row` of matrix `matrix`: 8·matrix + row.
int addressLane(int matrix, int row);
/// The (matrix, row) whose 16-byte row address lane `lane` supplies, or nullopt for a lane whose
/// address the instruction ignores (.x1: lanes 8–31, .x2: lanes 16–31).
std::optional<Coord> addressRowOfLane(MatrixShape shape, int lane);

/// An element of the stored 8×8 b16 matrices: matrix, row, column.
struct MatrixElement {
  int matrix = 0;
  int row = 0;
  int col = 0;
  bool operator==(const MatrixElement&) const = default;
};
/// The stored element that ldmatrix puts into (lane, reg, half), and that stmatrix takes from it:
/// plain `M_reg[lane/4][2·(lane%4) + half]`, .trans `M_reg[2·(lane%4) + half][lane/4]`.
MatrixElement ldmatrixSource(MatrixShape shape, int lane, int reg, int half);
/// The inverse: who holds stored element (matrix, row, col).
Holder ldmatrixHolder(MatrixShape shape, MatrixElement e);

// ---- mma.sync m16n8k8 / m16n8k16, f16/bf16 → f32 (§7) -----------------------------------------

enum class MmaShape { M16N8K8, M16N8K16 };
/// C and D share one map.
enum class MmaOperand { A, B, C };

int mmaK(MmaShape s);
/// Registers per lane: A k/4 (k16: 4, k8: 2), B k/8 (2, 1), C/D 4.
int mmaRegisters(MmaShape s, MmaOperand op);
/// The atom in elements: A (16, k), B as [k][n] = (k, 8), C/D (16, 8).
Coord mmaElementShape(MmaShape s, MmaOperand op);
/// The atom in 32-bit words (G2 canonical shapes): A (16, k/2), B (8, k/2) as [n][k-word],
/// C/D (16, 8).
Coord mmaWordShape(MmaShape s, MmaOperand op);
/// Element `i` of lane `lane` (PTX a_i, b_i, c_i; register i/2, half i%2 for A/B; register i for
/// C/D) → its (row, col) in element units.
Coord mmaElement(MmaShape s, MmaOperand op, int lane, int i);
/// Register `reg` of lane `lane` → its (row, col) in word units (G2 table of §7.1).
Coord mmaWord(MmaShape s, MmaOperand op, int lane, int reg);

// ---- wgmma m64nNk16 (§8.4) --------------------------------------------------------------------

/// N of m64nNk16: 8..256 in steps of 8.
bool wgmmaValidN(int n);
/// f32 accumulator register `reg` (0..N/2−1) of warpgroup thread `thread` (0..127) → (row, col)
/// of the 64×N tile. An f16 accumulator packs elements 2j, 2j+1 of this order into register j
/// (figure-based, not run on the GPU: TC-6).
Coord wgmmaAccumulator(int n, int thread, int reg);
/// A from registers (rs form; 64×16 f16/bf16, 4 registers = elements a0..a7) → (row, col): the
/// m16n8k16 A map per warp, 16 rows further per warp.
Coord wgmmaAElement(int thread, int i);

// ---- tabulated fragments ----------------------------------------------------------------------

/// A register fragment as a table: the holder of every element of the atom, row-major, and the
/// TileLayout expression (over `rows × cols` logical elements, slot = the register in word units,
/// the element index in element units) that reproduces it.
struct FragmentMap {
  std::string name;  ///< e.g. "mma.m16n8k16 A (elements)"
  int rows = 0, cols = 0;
  int threads = 32;   ///< 32 (warp) or 128 (warpgroup)
  int slotCount = 0;  ///< per thread, in the fragment's units
  Units units = Units::Words;
  std::string layout;           ///< e.g. "S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]"
  std::vector<Holder> holders;  ///< rows·cols entries; in element units `reg` is the element
                                ///< index's register and `half` its half

  const Holder& at(int row, int col) const {
    return holders[static_cast<size_t>(row * cols + col)];
  }
  /// The slot of an element in the fragment's units: the register (words) or 2·reg + half
  /// (16-bit elements; f32 C/D elements have half 0 and slot = reg).
  int slotAt(int row, int col) const;
};

/// The register operand of ldmatrix/stmatrix (both forms) over (count, 8, 4) words flattened to
/// (count·8) rows × 4 words: word (i, r, w) is register i of lane 4r + w.
FragmentMap ldmatrixFragment(int count);
FragmentMap mmaFragment(MmaShape s, MmaOperand op, Units units);
FragmentMap wgmmaAccumulatorFragment(int n);
FragmentMap wgmmaAFragment(Units units);

/// The first element (row-major) whose owner under a tensor's layout differs from the fragment's,
/// or nullopt. `owner(row, col)` returns the (thread, slot) the tensor's layout gives the element,
/// in the fragment's thread numbering and units.
struct FragmentMismatch {
  Coord element;
  int haveThread = 0, haveSlot = 0;
  int needThread = 0, needSlot = 0;
};
std::optional<FragmentMismatch> firstMismatch(
    const FragmentMap& map, const std::function<std::pair<int64_t, int64_t>(int, int)>& owner);
/// `element (3, 5) is in lane 7, the instruction needs lane 12` (or `... in register 2, the
/// instruction needs register 3`; warpgroup threads are named `thread 37 (warp 1, lane 5)`).
std::string describeMismatch(const FragmentMap& map, const FragmentMismatch& m);

}  // namespace tirx::frag
